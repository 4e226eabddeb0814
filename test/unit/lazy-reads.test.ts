// A registry read from a snapshot parses each entity when first asked for (src/registry/snapshot.ts). These
// check that show, explain and search (the CLI's reading commands, whose start-up is measured in
// bench/cli-start.mjs) read what they answer with rather than the whole atlas, and that they answer exactly
// as on the registry loaded from the content.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getNode } from '../../src/analysis/node.ts';
import { refById, refOf } from '../../src/analysis/resolve.ts';
import { renderNode } from '../../src/cli/show.ts';
import { explainArtifacts } from '../../src/analysis/protocol.ts';
import { AtlasSearch, searchIndexOf } from '../../src/analysis/search.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { Registry } from '../../src/registry/registry.ts';
import { makeSnapshot, readSnapshot, snapshotHash, writeSnapshot } from '../../src/registry/snapshot.ts';
import { ROOT } from '../helpers.ts';

let reg: Registry;
let dir: string;
let path: string;

before(() => {
  reg = loadAtlas(ROOT).registry;
  dir = mkdtempSync(join(tmpdir(), 'hoba-lazy-'));
  path = join(dir, 'atlas.snapshot.json');
  writeSnapshot(path, makeSnapshot(reg, 'test', { search: (r) => AtlasSearch.build(r).toJSON(), other: () => '{"x":"é"}' }));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The snapshot opened afresh, and the IDs of the entities read from it so far. */
function opened() {
  const s = readSnapshot(path)!;
  assert.ok(s, 'the snapshot reads back');
  const read = new Set<string>();
  const load = s.data.load;
  const lazy = new Registry({
    ...s.data,
    load: (i) => {
      read.add(s.data.ids[i]!);
      return load(i);
    },
  });
  return { s, lazy, read };
}

describe('a snapshot’s registry reads what a call answers with', () => {
  test('kinds, statuses and titles are known without reading an entity, as on the loaded registry', () => {
    const { lazy, read } = opened();
    for (const e of reg.entities) {
      assert.equal(lazy.kindOf(e.id), e.kind, e.id);
      assert.equal(lazy.statusOf(e.id), e.status, e.id);
      assert.equal(lazy.titleOf(e.id), e.kind === 'source' ? e.cite : e.title, e.id);
      assert.equal(reg.titleOf(e.id), lazy.titleOf(e.id), e.id);
      assert.deepEqual(refById(lazy, e.id), refOf(e), e.id);
    }
    assert.equal(read.size, 0, 'no entity read');
    for (const e of reg.entities) {
      assert.equal(reg.kindOf(e.id), e.kind, e.id);
      assert.equal(reg.statusOf(e.id), e.status, e.id);
      assert.equal(lazy.entityAt(lazy.positionOf(e.id)!).id, e.id);
    }
    assert.equal(lazy.statusOf('Z-999'), undefined);
    assert.equal(lazy.size, reg.entities.length);
    assert.equal(read.size, reg.entities.length, 'entityAt read each entity once');
  });

  test('edges, by source and by target, as on the loaded registry', () => {
    const { lazy } = opened();
    for (const e of reg.entities) {
      assert.deepEqual(lazy.outgoing(e.id), reg.outgoing(e.id), e.id);
      assert.deepEqual(lazy.incoming(e.id), reg.incoming(e.id), e.id);
      assert.deepEqual(lazy.incoming(e.id, 'emits'), reg.incoming(e.id, 'emits'), e.id);
    }
    assert.deepEqual(lazy.outgoing('Z-999'), []);
    assert.deepEqual(lazy.edges, reg.edges);
    // Each edge is made once: the full list holds the objects the lookups returned.
    const first = lazy.outgoing('M-001')[0]!;
    assert.ok(lazy.edges.includes(first));
  });

  test('each index is its own line: read back as the same value, non-ASCII escaped', () => {
    const { s } = opened();
    assert.deepEqual(JSON.parse(s.index('other')!), { x: 'é' });
    assert.equal(s.index('other'), '{"x":"\\u00e9"}');
    assert.equal(
      s.index('search'),
      AtlasSearch.build(reg)
        .toJSON()
        .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
    assert.equal(s.index('none'), undefined);
  });

  test('its content hash is known from the start of the file alone, as the whole index line gives it', () => {
    assert.equal(snapshotHash(path), 'test');
    assert.equal(snapshotHash(path), readSnapshot(path)!.content_hash);
    assert.equal(snapshotHash(join(dir, 'missing.json')), undefined);
    // Built by other code: no hash, as readSnapshot refuses it.
    const other = join(dir, 'other.json');
    writeFileSync(other, readFileSync(path, 'latin1').replace(/^\{"built_by":"[^"]*"/, '{"built_by":"hoba@0.0.0+snapshot.0"'), 'latin1');
    assert.equal(readSnapshot(other), undefined);
    assert.equal(snapshotHash(other), undefined);
  });

  test('search reads the index and the entities it shows, nothing else', () => {
    for (const query of ['ghosted after final interview', 'salary lowered', 'reposted', 'M-013 offer']) {
      const { s, lazy, read } = opened();
      const result = searchIndexOf({ registry: lazy, index: s.index }).search(query, { limit: 5 });
      assert.deepEqual(result, AtlasSearch.build(reg).search(query, { limit: 5 }), query);
      assert.deepEqual([...read].sort(), result.results.map((h) => h.id).sort(), query);
    }
  });

  test('explain reads only the sources its result names, and answers as on the loaded registry', () => {
    for (const id of ['A-009', 'A-001', 'A-024']) {
      const { lazy, read } = opened();
      const result = explainArtifacts(lazy, { artifacts: [id] });
      assert.deepEqual(result, explainArtifacts(reg, { artifacts: [id] }), id);
      // A source is read for what the result says of it (a citation, a caveat, its title in place of its
      // ID in prose), not to find the few that are not current.
      const text = JSON.stringify(result);
      const unshown = [...read].filter((x) => lazy.kindOf(x) === 'source' && !text.includes(x));
      assert.deepEqual(unshown, [], id);
      assert.ok(read.size < reg.entities.length / 2, `${id}: read ${read.size} of ${reg.entities.length}`);
    }
  });

  test('show reads the entity, its sources and what it shows of others; no other neighbour', () => {
    for (const id of ['M-001', 'A-009', 'B-005', 'E-013']) {
      const { lazy, read } = opened();
      const view = getNode(lazy, id);
      assert.deepEqual(view, getNode(reg, id), id);
      // What the view needs of other entities: its citations, the entities it replaces, and for a
      // mechanism the probe outcomes that rule it out (held by the artifacts that refer to it). Its
      // relations are references, made without reading.
      const e = reg.get(id)!;
      const holders = reg
        .holders(id)
        .filter((h) => (e.kind === 'mechanism' && reg.kindOf(h) === 'artifact') || reg.statusOf(h) === 'deprecated');
      const expected = new Set([id, ...(e.kind === 'source' ? [] : e.sources), ...holders]);
      assert.ok(
        view.ruled_out_by.every((x) => expected.has(x.artifact.id)),
        id,
      );
      assert.deepEqual([...read].sort(), [...expected].sort(), id);
      assert.ok(view.relations.length > 0, `${id} has relations`);
      // The text adds each barrier's stage, and reads no other neighbour.
      renderNode(view, lazy);
      const barriers = view.relations.filter((r) => r.node.kind === 'barrier').map((r) => r.node.id);
      assert.deepEqual([...read].sort(), [...new Set([...expected, ...barriers])].sort(), id);
    }
  });
});
