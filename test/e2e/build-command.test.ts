// `hoba build`: writes the site and its summary, two builds are byte-identical, a rebuild replaces the
// site, it refuses directories it did not build and content with errors, and its modes ignore the umask.
// The static build's files: test/unit/publish.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readSiteDir } from '../../src/publish/build.ts';
import { AtlasCopy, ROOT } from '../helpers.ts';
import { CLI, hoba } from '../dist.ts';

describe('hoba build', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'hoba-build-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('writes the site, prints the content hash and file count, and two builds are byte-identical', () => {
    const a = hoba(['build', '--out', join(tmp, 'a')]);
    const b = hoba(['build', '--out', join(tmp, 'b'), '--json']);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    const summary = JSON.parse(b.stdout) as { files: number; content_hash: string; site_digest: string };
    assert.match(a.stdout, new RegExp(`built .*: ${summary.files} files`));
    assert.match(a.stdout, new RegExp(`content sha256 ${summary.content_hash}`));
    assert.match(a.stdout, new RegExp(`site    sha256 ${summary.site_digest}`));
    const [filesA, filesB] = [readSiteDir(join(tmp, 'a')), readSiteDir(join(tmp, 'b'))];
    assert.equal(filesA.size, summary.files);
    assert.deepEqual([...filesA.keys()], [...filesB.keys()]);
    for (const [path, bytes] of filesA) assert.ok(bytes.equals(filesB.get(path)!), path);
  });

  test('rebuilding replaces the site: stale files disappear', () => {
    const out = join(tmp, 'c');
    assert.equal(hoba(['build', '--out', out]).status, 0);
    writeFileSync(join(out, 'api', 'v1', 'stale.json'), '{}');
    assert.equal(hoba(['build', '--out', out]).status, 0);
    assert.equal(existsSync(join(out, 'api', 'v1', 'stale.json')), false);
  });

  test('refuses to overwrite a directory it did not build, or the content', () => {
    const other = join(tmp, 'not-a-site');
    mkdirSync(other);
    writeFileSync(join(other, 'precious.txt'), 'keep me');
    const r = hoba(['build', '--out', other]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /not empty and is not a site built by hoba/);
    assert.equal(readFileSync(join(other, 'precious.txt'), 'utf8'), 'keep me');
    const content = hoba(['build', '--out', join(ROOT, 'content', 'x')]);
    assert.equal(content.status, 2);
    assert.match(content.stderr, /would overwrite the atlas content/);
    assert.doesNotMatch(content.stderr, /\n\s+at /);
  });

  test('files are 0644 and directories 0755 whatever the umask, so a web server can read the site', () => {
    const out = join(tmp, 'umask');
    const r = spawnSync('/bin/sh', ['-c', 'umask 077 && exec "$0" "$@"', process.execPath, CLI, 'build', '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const wrong: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        const mode = statSync(path).mode & 0o777;
        if (mode !== (entry.isDirectory() ? 0o755 : 0o644)) wrong.push(`${path}: ${mode.toString(8)}`);
        if (entry.isDirectory()) walk(path);
      }
    };
    assert.equal(statSync(out).mode & 0o777, 0o755, 'the site root');
    walk(out);
    assert.deepEqual(wrong, []);
  });

  test('refuses content with validation errors, naming the first one', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-004', ['operates_at', 0], 'B-099');
      const r = hoba(['build', '--dir', copy.dir, '--out', join(tmp, 'broken')]);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /1 validation error, so no site was built/);
      assert.match(r.stderr, /dangling-reference/);
      assert.equal(existsSync(join(tmp, 'broken')), false);
    } finally {
      copy.dispose();
    }
  });
});
