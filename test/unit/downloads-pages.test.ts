// The download directories as pages (issue 29): /downloads/ lists the latest set and every recorded
// release; each set's index (/downloads/latest/, /downloads/<version>/) lists every file of its
// manifest.json with its size, its SHA-256 and its licence, and links to it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildInfo, type Built } from '../../src/workflows/build.ts';
import type { DownloadManifest } from '../../src/publish/downloads.ts';
import { ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

describe('download index pages', () => {
  let built: Pick<Built, 'info'>;
  let files: Map<string, Buffer>;
  before(() => {
    built = { info: buildInfo(ROOT) };
    files = new Map(sharedSite().site.files.map((f) => [f.path, f.bytes]));
  });
  const text = (path: string) => files.get(path)?.toString('utf8') ?? assert.fail(`no ${path} in the site`);

  test('every download set has an index page listing each file with its size, checksum, licence and link', () => {
    const sets = ['latest', ...(built.info.releases ?? []).map((r) => r.record.version)];
    assert.ok(sets.length >= 2, 'the latest set and the recorded releases');
    for (const set of sets) {
      const manifest = JSON.parse(text(`downloads/${set}/manifest.json`)) as DownloadManifest;
      const page = text(`downloads/${set}/index.html`);
      assert.match(page, new RegExp(`<h1>Downloads: [^<]*${manifest.registry_version.replace(/\./g, '\\.')}`));
      for (const f of manifest.files) {
        assert.ok(page.includes(`href="/downloads/${set}/${f.file}"`), `${set}: a link to ${f.file}`);
        assert.ok(page.includes(f.sha256), `${set}: the checksum of ${f.file}`);
        assert.ok(files.has(`downloads/${set}/${f.file}`), `${set}: ${f.file} is in the site`);
      }
      for (const extra of ['manifest.json', 'SHA256SUMS'])
        assert.ok(page.includes(`href="/downloads/${set}/${extra}"`), `${set}: ${extra}`);
      assert.match(page, /CC BY-SA 4\.0/);
      assert.match(page, /MIT License/, 'the schemas are under the software licence');
      assert.match(page, /\d+(\.\d)? (KB|MB|bytes)/, 'sizes for people');
    }
  });

  test('/downloads/ lists the latest set first, then every recorded release, newest first', () => {
    const page = text('downloads/index.html');
    const links = [...page.matchAll(/<li><a href="(\/downloads\/[^"]+\/)"/g)].map((m) => m[1]);
    const releases = (built.info.releases ?? []).map((r) => `/downloads/${r.record.version}/`).reverse();
    assert.deepEqual(links, ['/downloads/latest/', ...releases]);
  });
});
