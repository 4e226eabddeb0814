// The CLI as a user meets it: exit codes, help, version, JSON, and errors without stack traces.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pkg from '../../package.json' with { type: 'json' };
import { AtlasCopy, ROOT } from '../helpers.ts';
import { hoba } from '../dist.ts';

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, 'no stack trace');

describe('hoba', () => {
  test('--help and --version exit 0', () => {
    const help = hoba(['--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: hoba/);
    assert.match(help.stdout, /validate/);
    const version = hoba(['--version']);
    assert.equal(version.status, 0);
    assert.equal(version.stdout.trim(), pkg.version);
  });

  test('no command, an unknown command or an unknown option is a usage error (exit 2)', () => {
    for (const args of [[], ['frobnicate'], ['validate', '--bogus']]) {
      const r = hoba(args);
      assert.equal(r.status, 2, args.join(' '));
      noStack(r.stderr);
    }
  });

  test('validate --help shows examples', () => {
    const r = hoba(['validate', '--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--strict/);
    assert.match(r.stdout, /Examples:/);
  });
});

describe('the reading commands parsed without commander (src/cli/main.ts)', () => {
  // Each usual form beside the same command line with a `--` before the arguments, which main.ts leaves
  // to commander: output, errors and exit status must be the same either way.
  const forms: Array<[quick: string[], commander: string[]]> = [
    [
      ['show', 'M-001'],
      ['show', '--', 'M-001'],
    ],
    [
      ['show', 'm-1', '--json'],
      ['show', '--json', '--', 'm-1'],
    ],
    [
      ['show', 'M-999', '--json'],
      ['show', '--json', '--', 'M-999'],
    ],
    [
      ['show', 'M-999'],
      ['show', '--', 'M-999'],
    ],
    [
      ['explain', 'A-009', '--full'],
      ['explain', '--full', '--', 'A-009'],
    ],
    [
      ['explain', 'A-009', 'A-027', '--json'],
      ['explain', '--json', '--', 'A-009', 'A-027'],
    ],
    [
      ['explain', 'S-001'],
      ['explain', '--', 'S-001'],
    ],
    [
      ['explain', 'they', 'went', 'dark', 'after', 'the', 'onsite'],
      ['explain', '--', 'they', 'went', 'dark', 'after', 'the', 'onsite'],
    ],
    [
      ['search', 'ghosted', 'after', 'final', 'interview'],
      ['search', '--', 'ghosted', 'after', 'final', 'interview'],
    ],
    [
      ['search', 'M-013', '--json', '--dir', ROOT],
      ['search', '--json', '--dir', ROOT, '--', 'M-013'],
    ],
    [
      ['show', 'M-001', '--dir', '/nonexistent/atlas'],
      ['show', '--dir', '/nonexistent/atlas', '--', 'M-001'],
    ],
    [
      ['show', 'M-001', '--json', '--dir', '/nonexistent/atlas'],
      ['show', '--json', '--dir', '/nonexistent/atlas', '--', 'M-001'],
    ],
  ];
  for (const [quick, commander] of forms) {
    test(quick.join(' '), () => {
      const a = hoba(quick);
      const b = hoba(commander);
      assert.deepEqual(a, b);
      noStack(a.stderr);
    });
  }
});

describe('hoba validate', () => {
  test('the atlas is clean under --strict', () => {
    // --no-mirror: this checks the content; a developer's _site/ may lag behind it (mirror.test.ts covers parity).
    const r = hoba(['validate', '--strict', '--no-mirror']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✔ valid \(strict\): 0 errors, 0 warnings/);
  });

  test('--json gives the full report with the registry version', () => {
    const r = hoba(['validate', '--strict', '--json', '--no-mirror']);
    assert.equal(r.status, 0);
    const report = JSON.parse(r.stdout) as { ok: boolean; registry_version: string; problems: unknown[]; entities: number };
    assert.equal(report.ok, true);
    assert.match(report.registry_version, /^\d+\.\d+\.\d+$/);
    assert.deepEqual(report.problems, []);
    assert.ok(report.entities > 100);
  });

  test('a broken copy exits 1 and groups problems by file; --json lists them', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-004', ['operates_at', 1], 'B-099');
      const r = hoba(['validate', '--dir', copy.dir]);
      assert.equal(r.status, 1);
      assert.match(
        r.stdout,
        /content\/mechanisms\/M-004-[^\n]+\n\s+\d+\s+error\s+dangling-reference\s+M-004: operates_at\[1\] refers to B-099/,
      );
      assert.match(r.stdout, /✖ 1 error/);
      const json = JSON.parse(hoba(['validate', '--json', '--dir', copy.dir]).stdout) as {
        ok: boolean;
        problems: Array<{ rule: string; entity: string; line: number }>;
      };
      assert.equal(json.ok, false);
      assert.equal(json.problems[0]!.rule, 'dangling-reference');
      assert.equal(json.problems[0]!.entity, 'M-004');
      assert.ok(json.problems[0]!.line > 1);
      // A failed validation carries the code and message every --json failure has.
      const failed = json as unknown as { code: string; message: string };
      assert.equal(failed.code, 'invalid-content');
      assert.match(failed.message, /^1 error, 0 warnings/);
    } finally {
      copy.dispose();
    }
  });

  test('warnings pass without --strict and fail with it', () => {
    const copy = new AtlasCopy();
    try {
      copy.write('content/notes.yaml', 'stray: true\n');
      assert.equal(hoba(['validate', '--dir', copy.dir]).status, 0);
      const strict = hoba(['validate', '--strict', '--dir', copy.dir]);
      assert.equal(strict.status, 1);
      assert.match(strict.stdout, /warnings fail under --strict/);
    } finally {
      copy.dispose();
    }
  });

  test('the checkout comes from --dir, then HOBA_DIR, then the nearest ancestor', () => {
    const copy = new AtlasCopy();
    const elsewhere = mkdtempSync(join(tmpdir(), 'hoba-cwd-'));
    try {
      copy.set('M-004', ['operates_at', 1], 'B-099');
      assert.equal(hoba(['validate'], { cwd: join(ROOT, 'content', 'mechanisms') }).status, 0, 'ancestor of the working directory');
      assert.equal(hoba(['validate'], { cwd: elsewhere, env: { HOBA_DIR: copy.dir } }).status, 1, 'HOBA_DIR');
      assert.equal(hoba(['validate', '--dir', ROOT], { cwd: elsewhere, env: { HOBA_DIR: copy.dir } }).status, 0, '--dir wins');
      const none = hoba(['validate'], { cwd: elsewhere });
      assert.equal(none.status, 2);
      assert.match(none.stderr, /no atlas checkout found/);
      const missing = hoba(['validate', '--dir', join(elsewhere, 'nope')]);
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /is not a directory/);
      noStack(missing.stderr);
    } finally {
      copy.dispose();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('--list-rules lists every rule', () => {
    const r = hoba(['validate', '--list-rules', '--json']);
    assert.equal(r.status, 0);
    const { rules } = JSON.parse(r.stdout) as { rules: Array<{ id: string }> };
    assert.ok(rules.some((x) => x.id === 'loop-undeclared-cycle'));
  });
});

describe('paths on the command line', () => {
  test('--out and --mirror are relative to the working directory; the default site stays in the checkout', () => {
    const copy = new AtlasCopy();
    const cwd = mkdtempSync(join(tmpdir(), 'hoba-cwd-'));
    try {
      const built = hoba(['build', '--dir', copy.dir, '--out', 'site', '--json'], { cwd });
      assert.equal(built.status, 0, built.stderr);
      assert.equal((JSON.parse(built.stdout) as { out: string }).out, join(cwd, 'site'));
      assert.ok(existsSync(join(cwd, 'site', 'index.html')), 'written where the working directory says');
      assert.ok(!existsSync(join(copy.dir, 'site')), 'not inside the checkout');
      const checked = hoba(['validate', '--dir', copy.dir, '--mirror', 'site', '--json'], { cwd });
      const report = JSON.parse(checked.stdout) as { ok: boolean; mirror: { source: string } | null };
      assert.equal(report.mirror?.source, join(cwd, 'site'));
      assert.equal(report.ok, true, checked.stdout);
      assert.equal(hoba(['build', '--dir', copy.dir], { cwd }).status, 0);
      assert.ok(existsSync(join(copy.dir, '_site', 'index.html')), 'the default _site/ is in the checkout');
    } finally {
      copy.dispose();
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('a build refused for content errors is a JSON failure with --json', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-004', ['operates_at', 0], 'B-099');
      const r = hoba(['build', '--dir', copy.dir, '--json']);
      assert.equal(r.status, 1);
      const error = JSON.parse(r.stdout) as { code: string; message: string };
      assert.equal(error.code, 'invalid-content');
      assert.match(error.message, /1 validation error, so no site was built/);
    } finally {
      copy.dispose();
    }
  });
});
