// Property tests over every CLI command: random and malformed arguments and options (unknown options,
// huge strings, prototype keys, Unicode, control characters, empty strings, bad numbers) give exit 0, 1
// or 2 with a result or a clear `hoba:` error: never "unexpected error", never a stack trace, never a
// hang; with --json, stdout is always JSON. Seeded: HOBA_SEED=<n> replays a run; the seed is printed on
// failure. Each run spawns the built CLI (~0.2 s), so the runs are few and bounded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { KINDS, RELATIONS, STAGES } from '../../src/model/vocab.ts';
import { ROOT, seedFromEnv } from '../helpers.ts';
import { CLI } from '../dist.ts';

const SEED = seedFromEnv(191443068);
/** Generous: a run takes well under a second; only a hang reaches it. */
const TIMEOUT_MS = 30_000;

const scratch = mkdtempSync(join(tmpdir(), 'hoba-prop-'));
const cache = join(scratch, 'cache');
const empty = join(scratch, 'empty');
mkdirSync(empty);
after(() => rmSync(scratch, { recursive: true, force: true }));

// ── arguments ───────────────────────────────────────────────────────────────────────────────────────

// Arguments cannot hold NUL (the kernel ends a string there); everything else may come.
const noNul = (s: string) => s.replace(/\0/g, '');
const protoKey = fc.constantFrom(
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
);
const huge = fc
  .tuple(fc.integer({ min: 500, max: 100_000 }), fc.constantFrom('a', 'reposted', 'é', '🙂', 'x '), fc.boolean())
  .map(([n, unit, single]) => (single ? unit.replace(' ', '') : unit).repeat(Math.ceil(n / unit.length)).slice(0, n));
const control = fc.string({ unit: fc.integer({ min: 1, max: 31 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 8 });
const unicode = fc.string({ unit: 'binary', maxLength: 24 }).map(noNul);
const badNumber = fc.constantFrom('0', '-1', '1.5', '1e3', 'NaN', 'Infinity', '99999999999999999999', '0x10', ' 3', '٣', '', '-0', '+2');
const id = fc.oneof(
  fc.constantFrom(
    'A-001',
    'a-9',
    'A-009',
    'M-001',
    'm1',
    'M-099',
    'E-013',
    'E-078',
    'B-005',
    'P-005',
    'L-001',
    'I-003',
    'S-001',
    's3',
    'S-999',
    'X-001',
    'A-0',
    'A--1',
    'A-0000000000001',
  ),
  fc.tuple(fc.constantFrom(...'ABMPLISEXabmplise'), fc.nat(2000)).map(([letter, n]) => `${letter}-${n}`),
);
const vocabulary = fc.constantFrom(
  ...STAGES,
  ...KINDS,
  ...RELATIONS,
  'TECHNICAL',
  'Offer',
  'MERMAID',
  'dot',
  'In',
  'both',
  'ghosted after final interview',
  'final-silence-ask-timeline-once=no-reply',
  'a=b=c',
);
const word = fc.oneof(
  { weight: 3, arbitrary: id },
  { weight: 2, arbitrary: vocabulary },
  { weight: 2, arbitrary: protoKey },
  { weight: 1, arbitrary: huge },
  { weight: 1, arbitrary: control },
  { weight: 2, arbitrary: unicode },
  { weight: 2, arbitrary: badNumber },
  { weight: 1, arbitrary: fc.constant('') },
);
const unknownOption = fc.constantFrom(
  '--bogus',
  '-x',
  '--json=1',
  '--limit=abc',
  '--',
  '-',
  '--JSON',
  '---',
  '--dir=',
  '--no-json',
  '-jx',
  '--depth=-1',
  '--stage=',
);
/** Values for --dir: only places on this machine. */
const place = fc.constantFrom(ROOT, empty, join(scratch, 'missing'), join(ROOT, 'package.json'), '.', '..', 'content', '');
/**
 * Values for --mirror: no address but loopback (port 9 refuses at once), and no directory that holds the
 * checkout, which validate would read whole (node_modules included) and find to be no mirror.
 */
const mirror = fc.oneof(
  fc.constantFrom(empty, join(scratch, 'missing'), join(ROOT, 'package.json'), join(ROOT, '_site'), 'content', 'http://127.0.0.1:9/'),
  word.filter((w) => !['', '.', '..', './'].includes(w.trim())),
);

interface Spec {
  /** Options taking a value, with what to give them. */
  valued: Record<string, fc.Arbitrary<string>>;
  /** Options taking none. */
  flags: string[];
  /** Positional arguments. */
  positional: fc.Arbitrary<string>;
}

const common = { '--dir': fc.oneof(place, word) };

const SPECS: Record<string, Spec> = {
  search: {
    valued: { ...common, '--kind': fc.oneof(vocabulary, word, fc.constant('artifact,,MECHANISM')), '--limit': fc.oneof(badNumber, word) },
    flags: ['--json'],
    positional: word,
  },
  show: { valued: common, flags: ['--json'], positional: fc.oneof(id, word) },
  explain: {
    valued: { ...common, '--stage': fc.oneof(vocabulary, word), '--probe': fc.oneof(vocabulary, word) },
    flags: ['--json'],
    positional: fc.oneof(id, word),
  },
  graph: {
    valued: {
      ...common,
      '--depth': badNumber,
      '--format': fc.oneof(vocabulary, word),
      '--direction': fc.oneof(vocabulary, word),
      '--relation': fc.oneof(vocabulary, word),
      '--limit': badNumber,
    },
    flags: ['--json'],
    positional: fc.oneof(id, word),
  },
  methodology: { valued: common, flags: ['--json'], positional: word },
  validate: { valued: { ...common, '--mirror': mirror }, flags: ['--json', '--strict', '--list-rules', '--no-mirror'], positional: word },
  build: { valued: common, flags: ['--json'], positional: word },
  serve: {
    valued: { ...common, '--port': badNumber, '--host': fc.oneof(word, fc.constantFrom('256.1.1.1', '::1', 'localhost')), '--out': place },
    flags: ['--json'],
    positional: word,
  },
};

/** A command line for one command: its options with good and bad values, stray words, unknown options. */
function argsFor(spec: Spec): fc.Arbitrary<string[]> {
  const fragment = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...Object.keys(spec.valued)).chain((flag) => spec.valued[flag]!.map((v) => [flag, v])) },
    { weight: 2, arbitrary: fc.constantFrom(...spec.flags).map((f) => [f]) },
    { weight: 3, arbitrary: spec.positional.map((w) => [w]) },
    { weight: 1, arbitrary: unknownOption.map((o) => [o]) },
    // An option with its value missing.
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(spec.valued)).map((f) => [f]) },
  );
  return fc.array(fragment, { maxLength: 5 }).map((parts) => parts.flat());
}

// ── running ─────────────────────────────────────────────────────────────────────────────────────────

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs the built CLI as a user would, killing it if it hangs. */
function run(args: string[]): Promise<Outcome> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', HOBA_CACHE_DIR: cache };
  delete env['HOBA_DIR'];
  delete env['HOBA_DEBUG'];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('error', fail);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), timedOut });
    });
  });
}

/**
 * Whether stdout must be JSON: --json before a `--`, on any failure (even beside --help, when parsing failed
 * before help could be shown), and on success unless help or the version was asked for (those are text).
 */
function expectsJson(args: string[], status: number | null): boolean {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  if (!options.includes('--json')) return false;
  return status !== 0 || !options.some((a) => ['-h', '--help', '-V', '--version'].includes(a));
}

/** What every run must satisfy, whatever the arguments. */
function check(args: string[], r: Outcome): void {
  const all = r.stdout + r.stderr;
  assert.ok(!r.timedOut, `did not finish within ${TIMEOUT_MS / 1000} s (a hang)`);
  assert.ok(r.status === 0 || r.status === 1 || r.status === 2, `exit status ${r.status}`);
  assert.doesNotMatch(all, /unexpected error|This is a bug/, 'no crash');
  assert.doesNotMatch(all, /\n\s+at .+:\d+:\d+/, 'no stack trace');
  if (expectsJson(args, r.status)) {
    let parsed: unknown;
    assert.doesNotThrow(() => (parsed = JSON.parse(r.stdout)), `stdout is JSON: ${r.stdout.slice(0, 200)}`);
    assert.ok(parsed !== null && typeof parsed === 'object', 'a JSON object');
    if (r.status !== 0) {
      const error = parsed as { code?: unknown; message?: unknown };
      assert.equal(typeof error.code, 'string', 'a failure has a code');
      assert.equal(typeof error.message, 'string', 'a failure has a message');
    }
  } else if (r.status !== 0) {
    // validate's report of problems is a result, not an error.
    const report = args[0] === 'validate' && r.status === 1 && /^✖ /m.test(r.stdout);
    assert.ok(report || /^hoba: /m.test(r.stderr), `a clear hoba: error: ${r.stderr.slice(0, 200)}`);
  } else {
    assert.ok(r.stdout.length > 0, 'a result');
  }
}

const shown = (args: string[]) => JSON.stringify(args.map((a) => (a.length > 80 ? `${a.slice(0, 40)}…(${a.length} chars)` : a)));

/**
 * Runs `numRuns` command lines drawn from `args` with the seed, two at a time (each is a process of its
 * own), and reports every one that breaks a rule. fast-check generates; no shrinking, since each run is
 * a process and the failing command line is printed whole.
 */
async function property(args: fc.Arbitrary<string[]>, numRuns: number, line: (args: string[]) => string[]): Promise<void> {
  const cases = fc.sample(args, { seed: SEED, numRuns }).map(line);
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const argv = cases[next++]!;
      const r = await run(argv);
      try {
        check(argv, r);
      } catch (err) {
        failures.push(`hoba ${shown(argv)} (exit ${r.status}): ${(err as Error).message}\n  stderr: ${r.stderr.slice(0, 300)}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  assert.equal(failures.length, 0, `Replay with HOBA_SEED=${SEED}.\n${failures.join('\n')}`);
}

describe(`every command with random arguments (HOBA_SEED=${SEED})`, () => {
  // Reading commands are cheap; validate and build load and check all the content, so they run less.
  const RUNS: Record<string, number> = { search: 18, show: 18, explain: 18, graph: 18, methodology: 6, validate: 5, build: 3, serve: 4 };

  for (const [command, numRuns] of Object.entries(RUNS)) {
    test(command, async () => {
      const spec = SPECS[command]!;
      let n = 0;
      await property(argsFor(spec), numRuns, (args) => {
        if (command === 'build') {
          // Always into a scratch directory: the last --out wins, and no `--` may hide it.
          return ['build', ...args.filter((a) => a !== '--' && a !== '--out'), '--out', join(scratch, `site-${n++}`)];
        }
        // Only the help: serve would otherwise start serving. --help first, so no option takes it as a value.
        if (command === 'serve') return ['serve', '--help', ...args];
        return [command, ...args];
      });
    });
  }

  test('random first words (no command, an unknown one, or an option)', async () => {
    await property(fc.array(fc.oneof(word, unknownOption, fc.constant('--json')), { minLength: 1, maxLength: 3 }), 6, (args) =>
      // A help word shows the help; serve would start serving.
      ['help', 'serve'].includes(args[0]!) ? ['frobnicate', ...args] : args,
    );
  });
});
