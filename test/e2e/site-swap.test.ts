// Where a build puts the site (issue #27, items 1, 2, 10, 11; src/publish/site-dir.ts): `<out>` is a link
// to a versioned directory swapped atomically, one build at a time holds `<out>.lock`, what dead builds
// leave is removed, a directory is replaced only when it holds exactly a site a build wrote, and a file is
// never a site directory. The faults while the site is served are in site-faults.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SITE_MARKER } from '../../src/publish/routes.ts';
import { hoba } from '../dist.ts';
import { ROOT } from '../helpers.ts';
import { build, TwoVersions } from '../site-faults.ts';

let work: string;
/** A site built from the checkout, copied for tests that only need one (a build takes seconds). */
let built: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'hoba-swap-'));
  built = join(work, 'built');
  const r = hoba(['build', '--out', built]);
  assert.equal(r.status, 0, r.stderr);
});
after(() => rmSync(work, { recursive: true, force: true }));

const entries = (dir: string, prefix: string) =>
  readdirSync(dir)
    .filter((n) => n.startsWith(prefix))
    .sort();

describe('the site is a link to a versioned directory, swapped whole', () => {
  test('after a build, <out> is a link to <out>.<digest>, which holds the site and its marker', () => {
    assert.ok(lstatSync(built).isSymbolicLink());
    const target = readlinkSync(built);
    assert.match(target, /^built\.[0-9a-f]{16}$/);
    const marker = JSON.parse(readFileSync(join(built, SITE_MARKER), 'utf8')) as { site_digest: string; files: number };
    assert.equal(target, `built.${marker.site_digest.slice(0, 16)}`);
    assert.ok(marker.files > 1000);
    assert.deepEqual(entries(work, 'built.'), [target], 'nothing else beside it');
  });

  test('a rebuild of other content points the link at the new version and keeps the previous one; older ones go, so do partial directories of dead builds and stale locks', async () => {
    const dir = join(work, 'rebuild');
    cpSync(built, join(dir, 'site'), { recursive: true, dereference: true });
    const out = join(dir, 'site');
    const versions = new TwoVersions();
    try {
      // A dead build's partial directory and lock (a pid no process has).
      mkdirSync(join(dir, 'site.partial-999999'));
      writeFileSync(join(dir, 'site.partial-999999', 'half.json'), '{');
      writeFileSync(
        join(dir, 'site.lock'),
        JSON.stringify({ pid: 999999, host: (await import('node:os')).hostname(), started: '2026-01-01T00:00:00Z' }),
      );
      const first = await build(versions.copy.dir, out);
      assert.equal(first.code, 0, first.stderr);
      assert.ok(lstatSync(out).isSymbolicLink(), 'a site directory from before links is migrated to a link');
      const v1 = readlinkSync(out);
      assert.deepEqual(entries(dir, 'site.'), [v1], 'the partial directory and the stale lock are gone');
      const second = await build(ROOT, out);
      assert.equal(second.code, 0, second.stderr);
      const v2 = readlinkSync(out);
      assert.notEqual(v2, v1);
      assert.deepEqual(entries(dir, 'site.'), [v1, v2].sort(), 'the previous version is kept for requests under way');
      const third = await build(versions.copy.dir, out);
      assert.equal(third.code, 0, third.stderr);
      assert.equal(readlinkSync(out), v1, 'the same content gets the same version');
      assert.deepEqual(entries(dir, 'site.'), [v1, v2].sort());
    } finally {
      versions.dispose();
    }
  });

  test('a build while another holds the lock exits 1 at once, saying which process has it (build-locked)', async () => {
    const out = join(work, 'locked');
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(
        `${out}.lock`,
        JSON.stringify({ pid: sleeper.pid, host: (await import('node:os')).hostname(), started: '2026-11-27T00:00:00Z' }),
      );
      const r = hoba(['build', '--out', out, '--json']);
      assert.equal(r.status, 1);
      const error = JSON.parse(r.stdout) as { code: string; message: string };
      assert.equal(error.code, 'build-locked');
      assert.match(error.message, new RegExp(`another hoba build is writing locked \\(process ${sleeper.pid}, since 2026-11-27`));
      assert.equal(existsSync(out), false, 'nothing was written');
      const text = hoba(['build', '--out', out]);
      assert.match(text.stderr, /^hoba: another hoba build is writing locked/m);
    } finally {
      sleeper.kill();
      rmSync(`${out}.lock`, { force: true });
    }
  });
});

describe('a directory is replaced only when it holds exactly a site a build wrote (item 10); a file never (item 11)', () => {
  test('a directory holding a copied _nginx.conf and notes.txt is refused, and keeps notes.txt', () => {
    const out = join(work, 'notes');
    mkdirSync(out);
    cpSync(join(built, '_nginx.conf'), join(out, '_nginx.conf'));
    writeFileSync(join(out, 'notes.txt'), 'mine\n');
    const r = hoba(['build', '--out', out, '--json']);
    assert.equal(r.status, 2);
    assert.equal((JSON.parse(r.stdout) as { code: string }).code, 'out-dir-refused');
    assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'mine\n');
  });

  test('a built site with a file added, or one removed, is refused; the file stays', () => {
    for (const change of ['added', 'removed'] as const) {
      const out = join(work, `changed-${change}`);
      cpSync(built, out, { recursive: true, dereference: true });
      if (change === 'added') writeFileSync(join(out, 'api', 'notes.txt'), 'mine\n');
      else rmSync(join(out, 'favicon.ico'));
      const r = hoba(['build', '--out', out, '--json']);
      assert.equal(r.status, 2, change);
      assert.match((JSON.parse(r.stdout) as { message: string }).message, /holds files the build did not write \(or lacks some it did\)/);
      if (change === 'added') assert.equal(readFileSync(join(out, 'api', 'notes.txt'), 'utf8'), 'mine\n');
    }
  });

  test('a site built before the marker (0.4.1) is replaced when it holds only site files, refused when it holds another', () => {
    for (const extra of [false, true]) {
      const out = join(work, `legacy-${extra}`);
      cpSync(built, out, { recursive: true, dereference: true });
      rmSync(join(out, SITE_MARKER));
      if (extra) writeFileSync(join(out, 'notes.txt'), 'mine\n');
      const r = hoba(['build', '--out', out, '--json']);
      if (!extra) {
        assert.equal(r.status, 0, r.stdout);
        assert.ok(lstatSync(out).isSymbolicLink());
      } else {
        assert.equal(r.status, 2, r.stdout);
        assert.match(
          (JSON.parse(r.stdout) as { message: string }).message,
          /built by an older hoba and holds files this build does not write \(notes\.txt\)/,
        );
        assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'mine\n');
        assert.deepEqual(entries(work, `legacy-${extra}.`), [], 'nothing left beside it');
      }
    }
  });

  test('--out an existing file, /dev/null, or a path under a file is out-dir-refused (exit 2), not an internal error', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'keep\n');
    for (const out of [file, '/dev/null', join(file, 'site')]) {
      const r = hoba(['build', '--out', out, '--json']);
      assert.equal(r.status, 2, `${out}: ${r.stdout}${r.stderr}`);
      const error = JSON.parse(r.stdout) as { code: string; message: string };
      assert.equal(error.code, 'out-dir-refused', out);
      assert.match(error.message, /is a file|is a device|is a file\. Choose/, out);
    }
    assert.equal(readFileSync(file, 'utf8'), 'keep\n');
  });
});
