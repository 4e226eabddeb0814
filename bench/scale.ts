#!/usr/bin/env node
// Scale benchmark: synthetic atlases of 1k, 10k and 100k entities (bench/synth), and for each, in child
// processes: `hoba validate --strict --no-mirror` and `hoba build` (dist/cli.cjs) with their wall time, CPU
// time and peak RSS; time per entity; and in-process search and explain latency (p50, p99) over a seeded
// sample. Prints a table and the targets. A benchmark, not a test: it prints figures.
//
//   node --import tsx bench/scale.ts [--sizes 1000,10000,100000] [--seed 42] [--samples 200]
//                                    [--profile <dir>] [--keep] [--timeout 900]
//
// --profile <dir> re-runs validate, build and the queries at the largest size under `node --cpu-prof`
// (from src/, via tsx, so functions keep their file names), keeps the .cpuprofile files in <dir> and
// prints the top functions by self time and by total time (bench/synth/profile.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { removeSite } from '../src/publish/site-dir.ts';
import { BIBLIOGRAPHY_FILE, generateAtlas, writeAtlas } from './synth/atlas.ts';
import { summariseProfile } from './synth/profile.ts';
import type { QueryTimings } from './synth/queries.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/** The CLI measured: a copy of dist/ taken at the start, so a rebuild of the checkout during a long run changes nothing. */
let CLI = join(DIST, 'cli.cjs');
const QUERIES = join(ROOT, 'bench', 'synth', 'queries.ts');
const USAGE =
  'usage: node --import tsx bench/scale.ts [--sizes 1000,10000,100000] [--seed 42] [--samples 200] [--profile <dir>] [--keep] [--timeout 900]';

/** The targets (issue #14), checked at the largest size measured. */
const TARGETS = { validateBuildSeconds: 60, peakRssMb: 2048, perEntityRatio: 1.5, searchP50Ms: 20, explainP50Ms: 10 };

// Loaded before the CLI in each child: reports its CPU time and peak RSS on exit, on stderr.
const RUSAGE_MARK = 'hoba-bench-rusage ';
const RUSAGE_HOOK = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\n${RUSAGE_MARK}"+JSON.stringify({maxRSS:u.maxRSS,cpu:u.userCPUTime+u.systemCPUTime})+"\\n")})`;

interface Run {
  seconds: number;
  cpuSeconds: number;
  rssMb: number;
  stdout: string;
}

/** A step that did not finish (timed out, ran out of memory): reported in the table, not fatal. */
interface Failed {
  failed: string;
  seconds: number;
}

interface Row {
  entities: number;
  mb: number;
  generate: number;
  validate: Run | Failed;
  build: Run | Failed;
  queries: QueryTimings | Failed;
}

const failed = (x: object): x is Failed => 'failed' in x;

/** Runs node with `args` and the rusage hook. */
function run(args: string[], env: NodeJS.ProcessEnv, timeoutSeconds: number, what: string): Run | Failed {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', RUSAGE_HOOK, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: timeoutSeconds * 1000,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.error || r.status !== 0) {
    const oom = /heap out of memory|Allocation failed/.test(r.stderr ?? '');
    const why =
      r.signal === 'SIGTERM'
        ? `timed out after ${timeoutSeconds} s`
        : oom
          ? 'ran out of memory'
          : r.error
            ? r.error.message
            : `exited with status ${r.status ?? r.signal}`;
    process.stderr.write(`scale: ${what} ${why}.\n${tail(r.stdout)}${tail(r.stderr)}`);
    return { failed: why, seconds };
  }
  const mark = r.stderr.split('\n').find((l) => l.startsWith(RUSAGE_MARK));
  const usage = mark ? (JSON.parse(mark.slice(RUSAGE_MARK.length)) as { maxRSS: number; cpu: number }) : { maxRSS: NaN, cpu: NaN };
  return { seconds, cpuSeconds: usage.cpu / 1e6, rssMb: usage.maxRSS / 1024, stdout: r.stdout };
}

const tail = (text: string | null | undefined) => (text ? text.trim().split('\n').slice(-15).join('\n') + '\n' : '');

/** The child processes of one size: validate and build (the CLI, bundled), and the in-process queries. */
function steps(dir: string, work: string, samples: number, seed: number, cpuProfile?: string) {
  const cli = cpuProfile ? ['--import=tsx', join(ROOT, 'src', 'cli', 'main.ts')] : [CLI];
  const profile = (step: string) => (cpuProfile ? ['--cpu-prof', '--cpu-prof-dir', join(cpuProfile, step)] : []);
  return {
    validate: [...profile('validate'), ...cli, 'validate', '--strict', '--no-mirror', '--json', '--dir', dir],
    build: [...profile('build'), ...cli, 'build', '--dir', dir, '--out', join(work, 'site'), '--json'],
    queries: [...profile('queries'), '--import=tsx', QUERIES, '--dir', dir, '--samples', String(samples), '--seed', String(seed)],
  };
}

function measure(entities: number, seed: number, samples: number, timeout: number, work: string): Row {
  const dir = join(work, `atlas-${entities}`);
  const start = process.hrtime.bigint();
  const written = writeAtlas(generateAtlas({ entities, seed }), dir);
  const generate = Number(process.hrtime.bigint() - start) / 1e9;
  const env = { HOBA_BIBLIOGRAPHY: join(dir, BIBLIOGRAPHY_FILE) };
  const args = steps(dir, work, samples, seed);

  const validate = run(args.validate, env, timeout, `validate at ${entities} entities`);
  if (!failed(validate)) {
    const report = JSON.parse(validate.stdout) as {
      errors: number;
      warnings: number;
      problems: Array<{ rule: string; entity?: string; message: string }>;
    };
    if (report.errors + report.warnings > 0) {
      // The generator's promise is a clean atlas: a problem here is a generator bug (or a new rule).
      const first = report.problems.slice(0, 10).map((p) => `  ${p.rule} ${p.entity ?? ''}: ${p.message}`);
      throw new Error(
        `the synthetic atlas of ${entities} entities has ${report.errors} errors and ${report.warnings} warnings:\n${first.join('\n')}`,
      );
    }
  }
  const build = run(args.build, env, timeout, `build at ${entities} entities`);
  removeSite(join(work, 'site'));
  const q = run(args.queries, {}, timeout, `search/explain at ${entities} entities`);
  const queries = failed(q) ? q : (JSON.parse(q.stdout) as QueryTimings);
  return { entities, mb: written.bytes / 1e6, generate, validate, build, queries };
}

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const cell = <T extends object>(x: T | Failed, show: (x: T) => string) => (failed(x) ? `✖ ${x.failed}` : show(x));
const finished = (r: Row): r is Row & { validate: Run; build: Run } => !failed(r.validate) && !failed(r.build);
const perEntityUs = (r: Row & { validate: Run; build: Run }) => ((r.validate.seconds + r.build.seconds) / r.entities) * 1e6;
// CPU time is steadier than wall time on a shared machine: it is shown beside it, and its ratio too.
const perEntityCpuUs = (r: Row & { validate: Run; build: Run }) => ((r.validate.cpuSeconds + r.build.cpuSeconds) / r.entities) * 1e6;

function printTable(rows: Row[]): void {
  const header = [
    'entities',
    'YAML MB',
    'generate s',
    'validate s (cpu)',
    'validate RSS MB',
    'build s (cpu)',
    'build RSS MB',
    'µs/entity (cpu)',
    'load s',
    'index s',
    'search p50 / p99 ms',
    'explain p50 / p99 ms',
  ];
  const lines = rows.map((r) => [
    String(r.entities),
    f(r.mb),
    f(r.generate),
    cell(r.validate, (v) => `${f(v.seconds)} (${f(v.cpuSeconds)})`),
    cell(r.validate, (v) => f(v.rssMb, 0)),
    cell(r.build, (b) => `${f(b.seconds)} (${f(b.cpuSeconds)})`),
    cell(r.build, (b) => f(b.rssMb, 0)),
    finished(r) ? `${f(perEntityUs(r), 0)} (${f(perEntityCpuUs(r), 0)})` : '✖',
    cell(r.queries, (q) => f(q.load_ms / 1000)),
    cell(r.queries, (q) => f(q.index_ms / 1000)),
    cell(r.queries, (q) => `${f(q.search.p50, 2)} / ${f(q.search.p99, 2)}`),
    cell(r.queries, (q) => `${f(q.explain.p50, 2)} / ${f(q.explain.p99, 2)}`),
  ]);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const l of lines) console.log(`| ${l.join(' | ')} |`);
}

function printTargets(rows: Row[]): void {
  const big = rows.at(-1)!;
  const small = rows[0]!;
  const at = `at ${big.entities} entities`;
  const check = (ok: boolean, text: string) => console.log(`${ok ? '✔' : '✖'} ${text}`);
  console.log('');
  if (finished(big)) {
    const total = big.validate.seconds + big.build.seconds;
    check(
      total < TARGETS.validateBuildSeconds,
      `validate --strict + build ${at}: ${f(total)} s (target < ${TARGETS.validateBuildSeconds} s)`,
    );
    const rss = Math.max(big.validate.rssMb, big.build.rssMb);
    check(rss < TARGETS.peakRssMb, `peak RSS ${at}: ${f(rss, 0)} MB (target < ${TARGETS.peakRssMb} MB)`);
    if (rows.length > 1 && finished(small)) {
      const ratio = perEntityUs(big) / perEntityUs(small);
      const cpuRatio = perEntityCpuUs(big) / perEntityCpuUs(small);
      check(
        ratio <= TARGETS.perEntityRatio,
        `time per entity, ${big.entities} vs ${small.entities}: ${f(ratio, 2)}× wall, ${f(cpuRatio, 2)}× cpu (target ≤ ${TARGETS.perEntityRatio}×)`,
      );
    }
  } else
    check(
      false,
      `validate --strict + build ${at} did not finish: ${[big.validate, big.build]
        .filter(failed)
        .map((x) => x.failed)
        .join(', ')}`,
    );
  if (!failed(big.queries)) {
    check(
      big.queries.search.p50 <= TARGETS.searchP50Ms,
      `search p50 ${at}: ${f(big.queries.search.p50, 2)} ms (target ≤ ${TARGETS.searchP50Ms} ms)`,
    );
    check(
      big.queries.explain.p50 <= TARGETS.explainP50Ms,
      `explain p50 ${at}: ${f(big.queries.explain.p50, 2)} ms (target ≤ ${TARGETS.explainP50Ms} ms)`,
    );
  } else check(false, `search and explain ${at} did not finish: ${big.queries.failed}`);
  if (big.entities < 100_000) console.log(`(the targets are for 100,000 entities; the largest size measured here is ${big.entities})`);
}

/** Re-runs the steps of one size under --cpu-prof (from src/, so functions keep their file names). */
function profileSize(entities: number, seed: number, samples: number, timeout: number, work: string, out: string): void {
  const dir = join(work, `atlas-${entities}`);
  const args = steps(dir, work, samples, seed, out);
  const env = { HOBA_BIBLIOGRAPHY: join(dir, BIBLIOGRAPHY_FILE) };
  for (const step of ['validate', 'build', 'queries'] as const) {
    run(args[step], env, timeout, `profiling ${step} at ${entities} entities`);
    removeSite(join(work, 'site'));
    const profileDir = join(out, step);
    console.log('');
    // Thread 0 only: the others are tsx's module loader, idle while the step runs.
    for (const p of existsSync(profileDir) ? readdirSync(profileDir).filter((n) => /\.0\.\d+\.cpuprofile$/.test(n)) : []) {
      console.log(summariseProfile(join(profileDir, p)).join('\n'));
    }
  }
}

function main(): number {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs assignment below
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        sizes: { type: 'string', default: '1000,10000,100000' },
        seed: { type: 'string', default: '42' },
        samples: { type: 'string', default: '200' },
        profile: { type: 'string' },
        keep: { type: 'boolean', default: false },
        timeout: { type: 'string', default: '900' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const sizes = values.sizes.split(',').map(Number);
  const [seed, samples, timeout] = [Number(values.seed), Number(values.samples), Number(values.timeout)];
  if (sizes.some((n) => !Number.isInteger(n)) || ![seed, samples, timeout].every((n) => Number.isInteger(n) && n >= 0) || samples < 1) {
    console.error(`--sizes takes whole numbers separated by commas; --seed, --samples and --timeout whole numbers.\n${USAGE}`);
    return 2;
  }
  if (!existsSync(CLI)) {
    console.error('dist/cli.cjs is missing: run `npm run build` first.');
    return 1;
  }
  sizes.sort((a, b) => a - b);
  const work = mkdtempSync(join(tmpdir(), 'hoba-scale-'));
  cpSync(DIST, join(work, 'dist'), { recursive: true });
  CLI = join(work, 'dist', 'cli.cjs');
  try {
    const rows: Row[] = [];
    for (const entities of sizes) {
      process.stderr.write(`scale: ${entities} entities…\n`);
      rows.push(measure(entities, seed, samples, timeout, work));
    }
    console.log(
      `Scale, seed ${seed}, ${samples} searches and explains per size, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`,
    );
    printTable(rows);
    printTargets(rows);
    if (values.profile) profileSize(sizes.at(-1)!, seed, samples, timeout, work, resolve(values.profile));
    // A step that failed (timed out, ran out of memory, exited non-zero) is in the table; the run then fails too.
    return rows.some((r) => failed(r.validate) || failed(r.build) || failed(r.queries)) ? 1 : 0;
  } catch (err) {
    console.error(`scale: ${(err as Error).message}`);
    return 1;
  } finally {
    if (values.keep) console.error(`scale: the atlases are kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = main();
