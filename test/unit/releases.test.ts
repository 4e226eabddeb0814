// Releases (releases/), diffs and the changelog: the recorded releases exist and rebuild byte for byte,
// the diff between them is right on known changes, and the site publishes them. hoba diff, hoba release
// and the release-version rule on a copy: test/e2e/releases-cli.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { changelogEntry, changelogMarkdown, diffRegistries, type RegistryDiff } from '../../src/analysis/diff.ts';
import { changelogText, releaseProblems } from '../../src/workflows/release.ts';
import type { Entity } from '../../src/model/index.ts';
import { releaseDownloadFiles } from '../../src/publish/build.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { RegistryData } from '../../src/registry/registry.ts';
import { bumpSatisfies, compareVersions, effectiveBump, nextVersion, versionBump } from '../../src/registry/release-model.ts';
import { canonicalData, loadRelease, loadReleases, readReleaseData, readReleaseIndex, sha256 } from '../../src/registry/releases.ts';
import { ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

const index = readReleaseIndex(ROOT);
const versions = index.releases.map((r) => r.version);
const dataOf = (version: string) => readReleaseData(ROOT, index.releases.find((r) => r.version === version)!);

describe('the recorded releases', () => {
  test('0.2.0 and 0.3.0 are recorded, oldest first, with their data, schemas and checksums', () => {
    assert.ok(versions.includes('0.2.0') && versions.includes('0.3.0'), `recorded: ${versions.join(', ')}`);
    assert.deepEqual(versions, [...versions].sort(compareVersions), 'oldest first');
    const old = index.releases.find((r) => r.version === '0.2.0')!;
    assert.equal(old.schema_version, '1.2.0', '0.2.0 is stored under the schema of its time');
    assert.equal(index.releases.find((r) => r.version === '0.3.0')!.schema_version, '1.3.0');
    for (const r of index.releases) {
      assert.match(r.content_hash, /^[0-9a-f]{64}$/);
      const names = r.files.map((f) => f.file);
      for (const f of ['entities.ndjson', 'nodes.csv', 'edges.csv', 'graph.graphml', 'manifest.json', 'SHA256SUMS', 'CITATION.cff'])
        assert.ok(names.includes(f), `${r.version}: ${f}`);
      assert.deepEqual(names, [...names].sort(), `${r.version}: files sorted by name`);
    }
  });

  test('every recorded release rebuilds byte for byte from releases/ (data, then every download file)', () => {
    for (const record of index.releases) {
      const release = loadRelease(ROOT, record); // checks the data file's SHA-256
      const bytes = readFileSync(join(ROOT, 'releases', record.data.file));
      assert.ok(canonicalData(release.data).equals(bytes), `${record.version}: the data file is canonical (it serialises back to itself)`);
      const rebuilt = releaseDownloadFiles(release).map((f) => ({
        file: f.file,
        media_type: f.media_type,
        bytes: f.bytes.length,
        sha256: sha256(f.bytes),
      }));
      assert.deepEqual(
        rebuilt,
        record.files,
        `${record.version}: a code change altered a recorded release's files. Restore the download formats (or, for a release never published, hoba release --refresh-checksums)`,
      );
    }
  });

  test('each release’s entities validate against the JSON Schemas of its own content model', () => {
    for (const release of loadReleases(ROOT)) {
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
      const validators = new Map(
        [...release.schemas].map(([name, bytes]) => [name.replace('.schema.json', ''), ajv.compile(JSON.parse(bytes.toString()))]),
      );
      for (const e of release.data.entities) {
        const validate = validators.get(e.kind)!;
        assert.ok(validate(e), `${release.record.version} ${e.id}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
      }
    }
  });

  test('CHANGELOG.md is what the recorded releases make', () => {
    assert.equal(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), changelogText(ROOT), 'regenerate it with hoba release');
  });

  test('a release’s authored notes go under its own heading, after the summary and before the lists; others have none', () => {
    const entries = index.releases.map((r, i) =>
      changelogEntry(dataOf(r.version), i > 0 ? dataOf(index.releases[i - 1]!.version) : undefined),
    );
    const note = '#### Why\n\nThe finding behind E-999 was withdrawn, so nothing rests on it.';
    const text = changelogMarkdown(
      entries,
      (v) => `/downloads/${v}/`,
      (v) => (v === '0.3.0' ? `${note}\n\n` : undefined),
    );
    const release = text.slice(text.indexOf('## 0.3.0'), text.indexOf('## 0.2.0'));
    const [summary, notes, added] = ['Compared with 0.2.0', '### Notes\n\n#### Why\n\nThe finding behind E-999', '### Added'].map((s) =>
      release.indexOf(s),
    ) as [number, number, number];
    assert.ok(summary >= 0 && notes > summary && added > notes, release.slice(0, 600));
    assert.ok(!release.includes('\n\n\n'), 'the notes are trimmed');
    assert.equal(text.split('### Notes').length, 2, 'only the release with notes has them');
    assert.equal(
      changelogMarkdown(entries, (v) => `/downloads/${v}/`),
      changelogMarkdown(
        entries,
        (v) => `/downloads/${v}/`,
        () => undefined,
      ),
    );
  });

  test('the checkout’s content is its latest release, or its version is bumped enough (release-version)', () => {
    const reg = loadAtlas(ROOT).registry;
    assert.deepEqual(releaseProblems(ROOT, reg), []);
  });
});

describe('hoba diff 0.2.0 0.3.0', () => {
  let diff: RegistryDiff;
  before(() => {
    diff = diffRegistries(dataOf('0.2.0'), dataOf('0.3.0'));
  });

  test('new IDs are added, by kind', () => {
    const added = new Set(diff.added.map((e) => e.id));
    for (let n = 33; n <= 50; n++) assert.ok(added.has(`A-0${n}`), `A-0${n} added`);
    for (const id of ['B-015', 'B-016', 'M-033']) assert.ok(added.has(id), `${id} added`);
    const old = new Set(dataOf('0.2.0').entities.map((e) => e.id));
    assert.ok(
      diff.added.every((e) => !old.has(e.id)),
      'only IDs 0.2.0 lacked',
    );
    assert.equal(diff.added.find((e) => e.id === 'A-033')?.kind, 'artifact');
  });

  test('B-007’s retitling is a changed field, with its value before and after; list fields name their items', () => {
    const b7 = diff.changed.find((e) => e.id === 'B-007');
    assert.ok(b7, 'B-007 changed');
    assert.equal(b7.previous_title, 'Technical assessment');
    const title = b7.fields.find((f) => f.field === 'title');
    assert.deepEqual(title, { field: 'title', change: 'value', before: 'Technical assessment', after: b7.title });
    const sources = b7.fields.find((f) => f.field === 'sources');
    assert.ok(sources && sources.change === 'list' && sources.added.length > 0 && sources.added.every((id) => /^E-\d{3}$/.test(id)));
    // Fields an older schema lacked appear only when the newer version fills them.
    const topics = b7.fields.find((f) => f.field === 'topics');
    assert.ok(topics && topics.change === 'list' && topics.removed.length === 0);
  });

  test('E-072, removed from the sources, is removed: a major change (a minor bump while 0.x), and 0.3.0 is enough', () => {
    assert.deepEqual(
      diff.removed.map((e) => e.id),
      ['E-072'],
    );
    assert.equal(diff.required_bump, 'major');
    assert.match(diff.reasons[0]!, /E-072/);
    assert.equal(effectiveBump('0.2.0', diff.required_bump), 'minor');
    assert.ok(bumpSatisfies('0.2.0', '0.3.0', diff.required_bump));
    assert.deepEqual(
      diff.manifest.map((f) => f.field),
      ['schema_version'],
    );
  });
});

describe('diffRegistries on small cases', () => {
  const manifest = (version: string) => ({ ...dataOf('0.3.0').manifest, registry_version: version });
  const mechanism = (over: Record<string, unknown> = {}) =>
    ({
      id: 'M-001',
      kind: 'mechanism',
      title: 'One',
      summary: 'S',
      status: 'active',
      sources: ['E-001'],
      facets: { actor: 'system', nature: 'rule' },
      probes: [{ id: 'p', action: 'a' }],
      ...over,
    }) as unknown as Entity;
  const data = (version: string, ...entities: Entity[]): RegistryData => ({ manifest: manifest(version), entities });

  test('nested fields are dotted paths; records in lists are named by key; an absent list is an empty one', () => {
    const d = diffRegistries(
      data('1.0.0', mechanism()),
      data(
        '1.0.1',
        mechanism({
          facets: { actor: 'recruiter', nature: 'rule' },
          probes: [
            { id: 'p', action: 'b' },
            { id: 'q', action: 'c' },
          ],
          topics: [],
        }),
      ),
    );
    assert.equal(d.required_bump, 'patch');
    assert.deepEqual(d.changed[0]!.fields, [
      { field: 'facets.actor', change: 'value', before: 'system', after: 'recruiter' },
      { field: 'probes', change: 'list', added: ['q'], removed: [], changed: ['p'], reordered: false },
    ]);
  });

  test('a reordered list is a change; deprecation and restoration have categories of their own', () => {
    const reordered = diffRegistries(
      data('1.0.0', mechanism({ sources: ['E-001', 'E-002'] })),
      data('1.0.1', mechanism({ sources: ['E-002', 'E-001'] })),
    );
    assert.deepEqual(reordered.changed[0]!.fields, [
      { field: 'sources', change: 'list', added: [], removed: [], changed: [], reordered: true },
    ]);
    const two = mechanism({ id: 'M-002', title: 'Two' });
    const deprecated = diffRegistries(
      data('1.0.0', mechanism(), two),
      data('1.1.0', mechanism({ status: 'deprecated', superseded_by: 'M-002' }), two),
    );
    assert.equal(deprecated.required_bump, 'minor');
    assert.deepEqual(
      deprecated.deprecated.map((e) => [e.id, e.superseded_by]),
      [['M-001', 'M-002']],
    );
    assert.equal(deprecated.changed.length, 0);
    const restored = diffRegistries(
      data('1.1.0', mechanism({ status: 'deprecated', superseded_by: 'M-002' }), two),
      data('1.2.0', mechanism(), two),
    );
    assert.deepEqual(
      restored.restored.map((e) => e.id),
      ['M-001'],
    );
    assert.equal(restored.required_bump, 'minor');
    const none = diffRegistries(data('1.0.0', mechanism()), data('1.0.0', mechanism()));
    assert.equal(none.required_bump, 'none');
  });

  test('versions: bumps, the 0.x rule and the next version', () => {
    assert.equal(versionBump('0.2.0', '0.3.0'), 'minor');
    assert.equal(versionBump('1.2.3', '1.2.4'), 'patch');
    assert.equal(versionBump('1.2.3', '2.0.0'), 'major');
    assert.equal(versionBump('1.2.3', '1.2.2'), 'lower');
    assert.equal(compareVersions('0.10.0', '0.9.9'), 1);
    assert.equal(nextVersion('0.3.0', 'major'), '0.4.0');
    assert.equal(nextVersion('1.3.0', 'major'), '2.0.0');
    assert.equal(nextVersion('1.3.0', 'patch'), '1.3.1');
    assert.equal(bumpSatisfies('1.3.0', '1.4.0', 'major'), false);
    assert.equal(bumpSatisfies('0.3.0', '0.3.1', 'minor'), false);
  });

  test('the changelog entry names changed fields, not values', () => {
    const e = changelogEntry(data('1.0.1', mechanism({ title: 'New' })), data('1.0.0', mechanism()));
    assert.deepEqual(e.changed, [{ id: 'M-001', kind: 'mechanism', title: 'New', previous_title: 'One', fields: ['title'] }]);
    assert.equal(changelogEntry(data('1.0.0', mechanism()), undefined).previous, null);
  });
});

describe('the site publishes the releases', () => {
  const file = (path: string) => {
    const f = sharedSite().site.files.find((x) => x.path === path);
    assert.ok(f, `${path} is built`);
    return f.bytes;
  };

  test('/api/v1/releases lists every release, newest first, with the latest', () => {
    const list = JSON.parse(file('api/v1/releases.json').toString()) as {
      latest: string;
      count: number;
      releases: Array<{ version: string; latest: boolean; url: string; downloads: string }>;
    };
    assert.equal(list.latest, versions.at(-1));
    assert.deepEqual(
      list.releases.map((r) => r.version),
      [...versions].reverse(),
    );
    assert.deepEqual(
      list.releases.filter((r) => r.latest).map((r) => r.version),
      [list.latest],
    );
    assert.equal(list.releases.at(-1)!.url, '/api/v1/releases/0.2.0');
    assert.equal(list.releases.at(-1)!.downloads, '/downloads/0.2.0/');
  });

  test('/api/v1/releases/<version> holds the record, the changes and every file, which the site serves with those bytes', () => {
    for (const record of index.releases) {
      const doc = JSON.parse(file(`api/v1/releases/${record.version}.json`).toString()) as {
        version: string;
        content_hash: string;
        previous: string | null;
        changes: { counts: Record<string, number> };
        downloads: { url: string; files: Array<{ file: string; sha256: string; bytes: number; url: string }> };
      };
      assert.equal(doc.version, record.version);
      assert.equal(doc.content_hash, record.content_hash);
      assert.equal(doc.downloads.files.length, record.files.length);
      for (const f of doc.downloads.files) {
        const bytes = file(f.url.slice(1));
        assert.equal(sha256(bytes), f.sha256, f.url);
        assert.equal(bytes.length, f.bytes, f.url);
      }
    }
    const v3 = JSON.parse(file('api/v1/releases/0.3.0.json').toString()) as { previous: string; changes: { counts: { removed: number } } };
    assert.equal(v3.previous, '0.2.0');
    assert.equal(v3.changes.counts.removed, 1);
  });

  test('/api/v1/changelog has every release, each against the one before', () => {
    const log = JSON.parse(file('api/v1/changelog.json').toString()) as {
      releases: Array<{ version: string; previous: string | null; changed: Array<{ id: string; fields: string[] }> }>;
    };
    assert.deepEqual(
      log.releases.map((r) => r.version),
      [...versions].reverse(),
    );
    const v3 = log.releases.find((r) => r.version === '0.3.0')!;
    assert.equal(v3.previous, '0.2.0');
    assert.ok(v3.changed.find((e) => e.id === 'B-007')!.fields.includes('title'));
    assert.equal(log.releases.at(-1)!.previous, null);
  });

  test('when the checkout is its latest release, /downloads/latest/ and /downloads/<latest>/ are the same files', () => {
    const latest = index.releases.at(-1)!;
    if (latest.version !== loadAtlas(ROOT).registry.version) return;
    for (const f of latest.files)
      assert.ok(file(`downloads/latest/${f.file}`).equals(file(`downloads/${latest.version}/${f.file}`)), f.file);
  });
});
