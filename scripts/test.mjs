#!/usr/bin/env node
// The test runner: lanes of test files, chosen by where a file is, never by a list.
//
//   test/unit/<name>.test.ts    unit lane: in-process (loaded or constructed registries, the shared built
//                               site, in-process servers); no child process, no dist/. Under a minute.
//   test/e2e/<name>.test.ts     end-to-end lane: the built CLI and MCP server as processes, HTTP servers,
//                               nginx, workerd, the browser, the npm package, the benchmarks' smoke runs.
//   test/attacks-<name>.test.ts attacks lane: long seeded runs (HOBA_SEED=<n> replays one).
//
//   node scripts/test.mjs [--prepare] [--repeat] <lane>... [node --test options] [files]
//
// A lane run again on another runtime (CI runs the e2e lane on the newest runtime, then on the oldest) is a
// repeat: --repeat leaves out the files marked `// ci: once (<why>)` in their first lines, whose subject does
// not change with the runtime (the browser, Lighthouse and wrangler, which bring their own) or is checked
// on every runtime by other tests already (the validator's mutation sample, the benchmarks' smoke runs,
// the fault suite).
//
// npm test is `--prepare unit e2e`: type-check, build dist/, then both lanes (what CI runs). A lane alone
// builds dist/ first only when it is older than src/. Files given on the command line are run alone,
// whatever their lane, with no type-check and no build (a file that needs dist/ says so when it is older
// than src/). Options starting with --test are passed to node --test.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distProblem } from './source-hash.mjs';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const LANES = ['unit', 'e2e', 'attacks'];
const USAGE = 'usage: node scripts/test.mjs [--prepare] [--repeat] unit|e2e|attacks... [--test-* options] [test files]';

/** Every *.test.ts under test/, as paths from the root with forward slashes, sorted. */
export function testFiles(root = ROOT) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.test.ts')) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(join(root, 'test'));
  return out;
}

/** The lane of a test file (by its name, then its directory), or undefined when it is in none. */
export function laneOf(file) {
  if (/(^|\/)attacks-[^/]*\.test\.ts$/.test(file)) return 'attacks';
  if (file.startsWith('test/unit/')) return 'unit';
  if (file.startsWith('test/e2e/')) return 'e2e';
  return undefined;
}

/** Whether a test file is marked to run once in CI (`// ci: once (<why>)` among its first 20 lines). */
export function runsOnce(file, root = ROOT) {
  const head = readFileSync(join(root, file), 'utf8').split('\n', 20);
  return head.some((line) => /^\/\/ ci: once \(.+\)/.test(line));
}

/** The rule in words, for the error that names a file in no lane. */
export const LANE_RULE =
  'put an in-process test in test/unit/, one that runs processes, servers or the browser in test/e2e/, and a long seeded run in test/attacks-<name>.test.ts';

function main(argv) {
  const lanes = [];
  const files = [];
  const nodeOptions = [];
  let prepare = false;
  let repeat = false;
  for (const arg of argv) {
    if (arg === '--prepare') prepare = true;
    else if (arg === '--repeat') repeat = true;
    else if (arg === '-h' || arg === '--help') return void console.log(USAGE);
    else if (LANES.includes(arg)) lanes.push(arg);
    else if (arg.startsWith('--test')) nodeOptions.push(arg);
    else if (arg.startsWith('-')) {
      console.error(`unknown option ${arg}\n${USAGE}`);
      return 2;
    } else files.push(arg);
  }
  const all = testFiles();
  const stray = all.filter((f) => laneOf(f) === undefined);
  if (stray.length > 0 && files.length === 0) {
    console.error(`These test files are in no lane: ${stray.join(', ')}.\nMove each: ${LANE_RULE}.`);
    return 1;
  }
  const scratch = process.env.TMPDIR ? undefined : memoryTmp();
  const env = scratch ? { ...process.env, TMPDIR: scratch } : process.env;
  try {
    return run({ lanes, files, nodeOptions, prepare, repeat, all, env });
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A folder for the tests' temporary files in memory (/dev/shm), when it is there, writable, and lets a file
 * run: the tests write a site of 2,500 files a build (and npm packages, servers' roots), and on the disks
 * of the machines CI runs on creating a file costs about half a millisecond, in tmpfs a hundredth of that.
 * Undefined (the system's temporary folder) otherwise, and whenever TMPDIR is set: it is the caller's.
 */
export function memoryTmp(base = '/dev/shm') {
  let dir;
  try {
    dir = mkdtempSync(join(base, 'hoba-test-'));
    const probe = join(dir, 'probe.sh');
    writeFileSync(probe, '#!/bin/sh\nexit 0\n');
    chmodSync(probe, 0o755);
    if (spawnSync(probe).status !== 0) throw new Error('noexec');
    rmSync(probe);
    return dir;
  } catch {
    if (dir) rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function run({ lanes, files, nodeOptions, prepare, repeat, all, env }) {
  const node = (args, label) => {
    const started = Date.now();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return { label, ok: r.status === 0, seconds };
  };
  if (files.length > 0) {
    // Run as given: one file, a few, or a whole directory (node --test takes those too).
    const r = node(['--import', 'tsx', '--test', ...nodeOptions, ...files], files.join(' '));
    return r.ok ? 0 : 1;
  }
  if (lanes.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const results = [];
  const steps = [];
  if (prepare) steps.push(['type-check', [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']]);
  // Every lane needs a current dist/ (the built site carries dist/site/; e2e runs dist/): build it when
  // npm test asks, or when it is older than src/.
  const stale = distProblem(ROOT);
  if (prepare || stale) {
    if (!prepare) console.log(`${stale}: building it first.`);
    steps.push(['build', [join(ROOT, 'scripts', 'build.mjs')]]);
  }
  for (const [label, args] of steps) {
    const r = node(args, label);
    results.push(r);
    if (!r.ok) return report(results);
  }
  // The shared built site (test/site-fixture.ts), built once here rather than by the first test files
  // that ask for it at the same time; a no-op when it is built already.
  const site = node(['--import', 'tsx', join(ROOT, 'test', 'site-fixture.ts')], 'the shared built site');
  results.push(site);
  if (!site.ok) return report(results);
  for (const lane of lanes) {
    const once = repeat ? all.filter((f) => laneOf(f) === lane && runsOnce(f)) : [];
    const inLane = all.filter((f) => laneOf(f) === lane && !once.includes(f));
    if (once.length > 0)
      console.log(
        `${lane} lane, a repeat: leaving out ${once.length} files marked "ci: once" (${once.map((f) => f.split('/').pop()).join(', ')})`,
      );
    if (inLane.length === 0) {
      results.push({ label: `${lane} lane (no test files)`, ok: true, seconds: '0.0' });
      continue;
    }
    // One file per core in every lane (node's default is one fewer): unit files are CPU-bound and
    // independent; end-to-end files spend much of their time waiting on the processes they start (servers,
    // the browser, Lighthouse), which a second file's work fills (on two cores, Node 20: 457 s one file at a
    // time with the temporary files in memory, 372 s two at a time without; CONTRIBUTING.md has CI's figures).
    const concurrency = nodeOptions.some((o) => o.startsWith('--test-concurrency')) ? [] : [`--test-concurrency=${availableParallelism()}`];
    results.push(node(['--import', 'tsx', '--test', ...concurrency, ...nodeOptions, ...inLane], `${lane} lane, ${inLane.length} files`));
  }
  return report(results);
}

function report(results) {
  console.log('');
  for (const r of results) console.log(`${r.ok ? '✔' : '✖'} ${r.label}: ${r.seconds} s`);
  return results.every((r) => r.ok) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
