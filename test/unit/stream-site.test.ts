// streamSite (what `hoba build` runs) writes the site file by file without holding it in memory: it must
// write exactly the files and bytes of the in-memory build, and report the same digest.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildInfo } from '../../src/cli/build.ts';
import { readSiteDir, siteDigest, streamSite } from '../../src/publish/build.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

const work = mkdtempSync(join(tmpdir(), 'hoba-stream-site-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('streamSite writes the same files, bytes and digest as buildSite + writeSite', () => {
  const { registry } = loadAtlas(ROOT);
  const info = buildInfo(ROOT);
  // buildSite + writeSite: the shared built site (built so, in another process).
  const shared = sharedSite();
  const site = shared.site;
  const written = streamSite(registry, info, join(work, 'stream'));
  const [a, b] = [readSiteDir(shared.root), readSiteDir(join(work, 'stream'))];
  assert.deepEqual([...b.keys()], [...a.keys()]);
  for (const [path, bytes] of a) assert.ok(bytes.equals(b.get(path)!), `${path} differs`);
  assert.equal(written.digest, site.digest);
  assert.equal(written.bytes, site.bytes);
  assert.deepEqual(written.files.map((f) => [f.path, f.url, f.size]), site.files.map((f) => [f.path, f.url, f.bytes.length]));
  // The digest is a digest of the bytes: one byte changed changes it.
  const changed = site.files.map((f, i) => (i === 0 ? { ...f, bytes: Buffer.concat([f.bytes, Buffer.from(' ')]) } : f));
  assert.notEqual(siteDigest(changed), site.digest);
});
