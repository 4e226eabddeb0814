// The bulk downloads (/downloads/latest/), CITATION.cff and the schema.org Dataset description: every file
// is read back the way a researcher's tools would read it. The CSVs through a strict RFC 4180 parser, the
// GraphML through a real graph library (graphology + graphology-graphml, and networkx where Python has it),
// the NDJSON lines against the published JSON Schemas, the checksums with sha256sum itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import GraphologyGraph from 'graphology';
import { parse as parseGraphml } from 'graphology-graphml';
import type { GraphConstructor } from 'graphology-types';
import { parse as parseYaml } from 'yaml';
import { KINDS, type Entity } from '../../src/model/index.ts';
import { readSiteDir } from '../../src/publish/build.ts';
import type { Site } from '../../src/publish/site-file.ts';
import { datasetDescription, datasetJsonLd } from '../../src/publish/dataset.ts';
import {
  csv,
  DownloadManifest,
  downloadCatalogue,
  downloadFiles,
  downloadsUrl,
  EDGE_COLUMNS,
  graphml,
  LIST_SEPARATOR,
  NODE_COLUMNS,
  nodesCsv,
} from '../../src/publish/downloads.ts';
import { headersForFile } from '../../src/publish/routes.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { Registry } from '../../src/registry/registry.ts';
import { ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

// graphology's types declare an ES default export in a CommonJS package, which NodeNext types as the
// module object; at run time the ESM build's default export is the Graph class itself.
const Graph = GraphologyGraph as unknown as GraphConstructor;
const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

/**
 * A strict RFC 4180 parser: records end in CRLF (the last one too), fields are separated by commas, a
 * field is either plain (no comma, quote, CR or LF) or quoted with doubled quotes inside. Anything else
 * (a bare LF or CR between records, a quote inside a plain field, text after a closing quote) throws.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`not RFC 4180 at character ${i} (record ${rows.length + 1}): ${why}`);
  };
  while (i < text.length) {
    let value = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) fail('a quoted field is not closed');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('a quote inside a plain field');
        value += text[i++];
      }
    }
    row.push(value);
    if (text[i] === ',') {
      i++;
      if (i >= text.length) fail('the file ends after a comma');
    } else if (text[i] === '\r' && text[i + 1] === '\n') {
      i += 2;
      rows.push(row);
      row = [];
    } else if (i >= text.length) {
      fail('the last record does not end in CRLF');
    } else {
      fail(`unexpected ${JSON.stringify(text[i])} after a field`);
    }
  }
  return rows;
}

const { registry } = loadAtlas(ROOT);
const LATEST = downloadsUrl();
let site: Site;
/** The download directory as written to disk, file by file (path relative to it → bytes). */
let downloads: Map<string, Buffer>;
let latestDir: string;

before(() => {
  // The shared built site (read only): the downloads depend on the registry alone.
  const built = sharedSite();
  site = built.site;
  latestDir = join(built.root, ...LATEST.split('/').filter(Boolean));
  downloads = readSiteDir(latestDir);
  // The directory's index page (src/site/pages/downloads.ts) is a page of the site, not a download.
  for (const f of [...downloads.keys()]) if (/^index\.html(\.(gz|br))?$/.test(f)) downloads.delete(f);
});

const text = (file: string) => downloads.get(file)!.toString('utf8');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the download set', () => {
  test('the site serves every download under /downloads/latest/, with the type the manifest names', () => {
    const expected = downloadCatalogue().map((f) => f.file);
    assert.deepEqual([...downloads.keys()].filter((f) => !/\.(gz|br)$/.test(f)).sort(), [...expected].sort());
    assert.deepEqual(
      downloadFiles(registry).map((f) => f.file),
      expected,
      'downloadFiles and downloadCatalogue list the same files, in the same order',
    );
    for (const f of downloadFiles(registry)) {
      const served = site.files.find((s) => s.url === `${LATEST}${f.file}`);
      assert.ok(served, `${f.file} is served at ${LATEST}${f.file}`);
      assert.ok(served.bytes.equals(f.bytes), `${f.file}: the site serves downloadFiles' bytes`);
      assert.equal(headersForFile(served.path)['Content-Type'], f.media_type, `${f.file}: served with its media type`);
    }
    const types = Object.fromEntries(downloadFiles(registry).map((f) => [f.file, f.media_type]));
    assert.equal(types['nodes.csv'], 'text/csv; charset=utf-8; header=present');
    assert.equal(types['entities.ndjson'], 'application/x-ndjson');
    assert.equal(types['graph.graphml'], 'application/graphml+xml');
    assert.equal(types['CITATION.cff'], 'application/yaml');
  });

  test('manifest.json: every other file with its size, SHA-256, media type and columns, and the licences', () => {
    const manifest = DownloadManifest.parse(JSON.parse(text('manifest.json')));
    assert.equal(manifest.registry_version, registry.version);
    assert.equal(manifest.released, registry.manifest.released);
    assert.deepEqual(manifest.licences, { software: 'MIT', content: 'CC-BY-SA-4.0' });
    assert.equal(manifest.licence_urls.content, 'https://creativecommons.org/licenses/by-sa/4.0/');
    assert.match(manifest.licence_statement, /CC BY-SA 4\.0/);
    assert.match(manifest.licence_statement, /MIT/);
    assert.deepEqual(
      manifest.files.map((f) => f.file),
      [...downloads.keys()].filter((f) => f !== 'manifest.json' && f !== 'SHA256SUMS' && !/\.(gz|br)$/.test(f)).sort(),
    );
    const types = new Map(downloadFiles(registry).map((f) => [f.file, f.media_type]));
    for (const f of manifest.files) {
      const bytes = downloads.get(f.file)!;
      assert.equal(f.bytes, bytes.length, `${f.file}: size`);
      assert.equal(f.sha256, sha256(bytes), `${f.file}: SHA-256`);
      assert.equal(f.media_type, types.get(f.file), `${f.file}: media type`);
      assert.ok(f.description.length > 10, `${f.file}: described`);
    }
    const columns = (file: string) => manifest.files.find((f) => f.file === file)!.columns!.map((c) => c.name);
    assert.deepEqual(columns('nodes.csv'), parseCsv(text('nodes.csv'))[0]);
    assert.deepEqual(columns('edges.csv'), parseCsv(text('edges.csv'))[0]);
  });

  test('SHA256SUMS matches every file, manifest.json included, and sha256sum -c agrees', () => {
    const lines = text('SHA256SUMS').split('\n');
    assert.equal(lines.pop(), '', 'ends with a newline');
    const listed = lines.map((l) => {
      const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(l);
      assert.ok(m, `sha256sum format: ${l}`);
      return [m[2]!, m[1]!] as const;
    });
    assert.deepEqual(
      listed.map(([file]) => file),
      [...downloads.keys()].filter((f) => f !== 'SHA256SUMS' && !/\.(gz|br)$/.test(f)).sort(),
    );
    for (const [file, sum] of listed) assert.equal(sum, sha256(downloads.get(file)!), file);
    const check = spawnSync('sha256sum', ['--check', '--strict', 'SHA256SUMS'], { cwd: latestDir, encoding: 'utf8' });
    if (check.error) return; // no coreutils here: the sums were checked above.
    assert.equal(check.status, 0, check.stdout + check.stderr);
  });

  test('the files depend on the registry data alone: built twice, byte for byte the same', () => {
    const again = loadAtlas(ROOT).registry;
    const [a, b] = [downloadFiles(registry), downloadFiles(again)];
    assert.deepEqual(
      a.map((f) => f.file),
      b.map((f) => f.file),
    );
    for (let i = 0; i < a.length; i++) assert.ok(a[i]!.bytes.equals(b[i]!.bytes), a[i]!.file);
  });

  test('a release can bring its own JSON Schemas: they are the schemas/ files, and the checksums cover them', () => {
    const schemas = new Map([['artifact.schema.json', Buffer.from('{"old":true}\n')]]);
    const files = downloadFiles(registry, { schemas });
    assert.deepEqual(
      files.filter((f) => f.file.startsWith('schemas/')).map((f) => f.file),
      ['schemas/artifact.schema.json'],
    );
    assert.equal(files.find((f) => f.file === 'schemas/artifact.schema.json')!.bytes.toString(), '{"old":true}\n');
    assert.match(
      files.find((f) => f.file === 'SHA256SUMS')!.bytes.toString(),
      new RegExp(`${sha256(Buffer.from('{"old":true}\n'))}  schemas/artifact\\.schema\\.json\n`),
    );
  });

  test('the JSON Schemas are the ones /schemas/ publishes, byte for byte', () => {
    for (const kind of KINDS) {
      const published = site.files.find((f) => f.path === `schemas/${kind}.schema.json`)!;
      assert.ok(downloads.get(`schemas/${kind}.schema.json`)!.equals(published.bytes), kind);
    }
  });
});

describe('entities.ndjson', () => {
  test('one entity a line, every kind, sorted by ID, each valid against its kind’s JSON Schema', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validators = new Map<string, ValidateFunction>(
      KINDS.map((k) => [k, ajv.compile(JSON.parse(text(`schemas/${k}.schema.json`)) as object)]),
    );
    const body = text('entities.ndjson');
    assert.ok(body.endsWith('\n') && !body.includes('\r'), 'LF after every line, the last included');
    const lines = body.slice(0, -1).split('\n');
    assert.equal(lines.length, registry.entities.length);
    const seen = new Set<string>();
    lines.forEach((line, i) => {
      const entity = JSON.parse(line) as Entity;
      const validate = validators.get(entity.kind);
      assert.ok(validate, `line ${i + 1}: a known kind`);
      assert.ok(validate(entity), `line ${i + 1} (${entity.id}): ${JSON.stringify(validate.errors)}`);
      assert.deepEqual(entity, registry.entities[i], `line ${i + 1} is the registry's entity ${registry.entities[i]!.id}`);
      seen.add(entity.kind);
    });
    assert.deepEqual([...seen].sort(), [...KINDS].sort(), 'every kind is there');
  });
});

describe('nodes.csv and edges.csv (RFC 4180)', () => {
  test('CRLF records, a header row, every row as wide as the header, one row per entity and per edge', () => {
    for (const file of ['nodes.csv', 'edges.csv']) {
      const raw = text(file);
      assert.ok(!raw.startsWith('\uFEFF'), `${file}: no byte-order mark`);
      assert.ok(!/[^\r]\n/.test(raw), `${file}: every line break outside quotes is CRLF`);
      const rows = parseCsv(raw);
      const width = rows[0]!.length;
      rows.forEach((r, i) => {
        assert.equal(r.length, width, `${file} row ${i + 1}: ${r.length} fields, the header has ${width}`);
      });
    }
    const nodes = parseCsv(text('nodes.csv'));
    assert.deepEqual(
      nodes[0],
      NODE_COLUMNS.map((c) => c.name),
    );
    assert.deepEqual(
      nodes.slice(1).map((r) => r[0]),
      registry.entities.map((e) => e.id),
      'one row per entity, sorted by ID',
    );
    const edges = parseCsv(text('edges.csv'));
    assert.deepEqual(edges[0], ['source', 'target', 'relation', 'fidelity']);
    assert.deepEqual(
      edges.slice(1),
      registry.edges.map((e) => [e.source, e.target, e.relation, e.fidelity ?? '']),
    );
  });

  test('cells hold the entities’ values: text with commas and quotes round-trips, lists are joined, facets are filled', () => {
    const rows = parseCsv(text('nodes.csv'));
    const header = rows[0]!;
    const col = (row: string[], name: string) => row[header.indexOf(name)]!;
    const byId = new Map(rows.slice(1).map((r) => [r[0]!, r]));
    let quoted = 0;
    for (const e of registry.entities) {
      const row = byId.get(e.id)!;
      assert.equal(col(row, 'kind'), e.kind);
      // A field the bibliography leaves empty (null) is an empty cell, not a sentence the data does not hold.
      const summary = (e.kind === 'source' ? e.finding : e.summary) ?? '';
      assert.equal(col(row, 'summary'), summary, `${e.id}: summary`);
      if (/[",]/.test(summary)) quoted++;
      assert.equal(col(row, 'title'), e.title ?? '');
      if (e.kind !== 'source') assert.equal(col(row, 'topics'), e.topics.join(LIST_SEPARATOR));
      if (e.kind === 'artifact') assert.equal(col(row, 'stages'), e.stages.join(LIST_SEPARATOR));
      if (e.kind === 'barrier') assert.deepEqual([col(row, 'stages'), col(row, 'order')], [e.stage, String(e.order)]);
      if (e.kind === 'mechanism') {
        assert.deepEqual(
          ['family', 'facet_actor', 'facet_nature', 'facet_visibility', 'facet_removability', 'honest_baseline', 'evidence_level'].map(
            (n) => col(row, n),
          ),
          [
            e.family,
            e.facets.actor,
            e.facets.nature,
            e.facets.visibility,
            e.facets.removability,
            String(e.honest_baseline),
            e.evidence_level,
          ],
        );
      } else {
        assert.equal(col(row, 'facet_actor'), '', `${e.id}: no mechanism column on another kind`);
      }
      if (e.kind === 'intervention') assert.deepEqual([col(row, 'actor'), col(row, 'effect_level')], [e.actor, e.effect.level]);
      if (e.kind === 'source') assert.equal(col(row, 'year'), e.year === null ? '' : String(e.year));
    }
    assert.ok(quoted > 10, `the real content exercises quoting (${quoted} summaries hold a comma or a quote)`);
  });

  test('commas, quotes, CR, LF, CRLF, empty cells and any Unicode round-trip through csv()', () => {
    const rows = [
      ['a', 'b', 'c'],
      ['plain', 'comma, inside', '"quoted" and "" doubled'],
      ['line\nfeed', 'carriage\rreturn', 'both\r\nhere'],
      ['', ' spaced ', 'ünïcödé ’ — 🙂'],
      ['"', ',', ''],
    ];
    assert.deepEqual(parseCsv(csv(rows).toString('utf8')), rows);
    // The parser is strict: what RFC 4180 does not allow, it refuses.
    for (const bad of ['a,b\n', 'a,b', 'a"b\r\n', '"a"b\r\n', '"open\r\n', 'a,b\rc\r\n'])
      assert.throws(() => parseCsv(bad), /not RFC 4180/, JSON.stringify(bad));
    // And through the nodes table: an entity whose text holds all of it.
    const nasty = 'Quotes "like this", commas, a & b < c > d\r\nCRLF\nLF\rCR\ttab, ünïcödé ’ 🙂 ';
    const reg = withText(nasty);
    const rows2 = parseCsv(nodesCsv(reg).toString('utf8'));
    const a001 = rows2.find((r) => r[0] === 'A-001')!;
    assert.equal(a001[NODE_COLUMNS.findIndex((c) => c.name === 'title')], nasty);
  });
});

/** The real registry with A-001's title and summary replaced. */
function withText(title: string, summary = title): Registry {
  return new Registry({
    manifest: registry.manifest,
    entities: registry.entities.map((e) => (e.id === 'A-001' ? ({ ...e, title, summary } as Entity) : e)),
    edges: [...registry.edges],
  });
}

describe('graph.graphml', () => {
  test('loads in graphology (graphology-graphml): every node and edge, with typed attributes and the licences', () => {
    const graph = parseGraphml(Graph, text('graph.graphml'));
    assert.equal(graph.type, 'directed');
    assert.equal(graph.order, registry.entities.length, 'one node per entity');
    assert.equal(graph.size, registry.edges.length, 'one edge per typed edge');
    assert.equal(graph.getAttribute('registry_version'), registry.version);
    assert.equal(graph.getAttribute('licence'), 'CC-BY-SA-4.0');
    assert.equal(graph.getAttribute('software_licence'), 'MIT');
    assert.match(text('graph.graphml'), /<desc>[^<]*CC BY-SA 4\.0[^<]*MIT[^<]*<\/desc>/);
    for (const e of registry.entities) {
      const attrs = graph.getNodeAttributes(e.id);
      assert.equal(attrs['kind'], e.kind);
      assert.equal(attrs['title'], e.title ?? undefined, `${e.id}: title`);
      assert.equal(attrs['summary'], (e.kind === 'source' ? e.finding : e.summary) ?? undefined, `${e.id}: summary`);
      if (e.kind === 'barrier') assert.equal(attrs['order'], e.order, `${e.id}: order is an int`);
      if (e.kind === 'mechanism') assert.equal(attrs['honest_baseline'], e.honest_baseline, `${e.id}: honest_baseline is a boolean`);
      if (e.kind === 'source' && e.year !== null) assert.equal(attrs['year'], e.year);
      if (e.kind !== 'mechanism') assert.ok(!('family' in attrs), `${e.id}: no column that does not apply`);
    }
    const keys = new Set<string>();
    graph.forEachEdge((key, attrs, source, target) => {
      keys.add(`${source} ${attrs['relation']} ${target}${attrs['fidelity'] ? ` ${attrs['fidelity']}` : ''}`);
      assert.equal(key, `${source}:${attrs['relation']}:${target}`);
    });
    assert.deepEqual(
      keys,
      new Set(registry.edges.map((e) => `${e.source} ${e.relation} ${e.target}${e.fidelity ? ` ${e.fidelity}` : ''}`)),
    );
  });

  test('markup characters, line breaks and any Unicode round-trip; a control character XML cannot carry is refused', () => {
    const nasty = 'Quotes "like this" and \'these\', a & b < c > d ]]> end\r\nCRLF\nLF\rCR\ttab, ünïcödé ’ 🙂 ';
    const graph = parseGraphml(Graph, graphml(withText(nasty, `${nasty}!`)).toString('utf8'));
    assert.equal(graph.getNodeAttribute('A-001', 'title'), nasty);
    assert.equal(graph.getNodeAttribute('A-001', 'summary'), `${nasty}!`);
    assert.throws(() => graphml(withText('bell \u0007')), /A-001 \(title\) holds the control character U\+0007.*Remove it/);
  });

  const python = spawnSync('python3', ['-c', 'import networkx'], { encoding: 'utf8' });
  test('loads in networkx (read_graphml) with the same counts and types', {
    skip: python.status !== 0 ? 'python3 with networkx is not installed here' : false,
  }, () => {
    const script = [
      'import json, sys, networkx as nx',
      'g = nx.read_graphml(sys.argv[1])',
      'b = next(n for n, d in g.nodes(data=True) if d.get("kind") == "barrier")',
      'm = next(n for n, d in g.nodes(data=True) if d.get("kind") == "mechanism")',
      'print(json.dumps({"directed": g.is_directed(), "multi": g.is_multigraph(), "nodes": g.number_of_nodes(), "edges": g.number_of_edges(),',
      '  "order": type(g.nodes[b]["order"]).__name__, "baseline": type(g.nodes[m]["honest_baseline"]).__name__, "licence": g.graph.get("licence")}))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script, join(latestDir, 'graph.graphml')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(got['directed'], true);
    assert.equal(got['nodes'], registry.entities.length);
    assert.equal(got['edges'], registry.edges.length);
    assert.equal(got['order'], 'int');
    assert.equal(got['baseline'], 'bool');
    assert.equal(got['licence'], 'CC-BY-SA-4.0');
  });
});

describe('CITATION.cff', () => {
  /** The keys of the Citation File Format 1.2.0 schema that this file uses, as that schema states them. */
  const CFF_1_2_0 = {
    type: 'object',
    required: ['authors', 'cff-version', 'message', 'title'],
    additionalProperties: false,
    properties: {
      abstract: { type: 'string', minLength: 1 },
      authors: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
      },
      'cff-version': { type: 'string', pattern: '^1\\.2\\.0$' },
      'date-released': { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$' },
      keywords: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
      license: { type: 'string', enum: ['CC-BY-SA-4.0', 'MIT'] },
      message: { type: 'string', minLength: 1 },
      title: { type: 'string', minLength: 1 },
      type: { type: 'string', enum: ['dataset', 'software'] },
      version: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'number' }] },
      // Keys of the schema this file does not use (it may, without breaking the check).
      ...Object.fromEntries(
        [
          'commit',
          'contact',
          'doi',
          'identifiers',
          'license-url',
          'preferred-citation',
          'references',
          'repository',
          'repository-artifact',
          'repository-code',
          'url',
        ].map((k) => [k, {}]),
      ),
    },
  };

  test('the repository’s CITATION.cff is the one the build serves for this content', () => {
    const committed = readFileSync(join(ROOT, 'CITATION.cff'));
    assert.ok(
      committed.equals(downloads.get('CITATION.cff')!),
      'CITATION.cff at the repository root is out of date with content/atlas.yaml: run `hoba build` and copy _site/downloads/latest/CITATION.cff to the repository root.',
    );
  });

  test('valid Citation File Format 1.2.0: a dataset with the atlas’s version, release date and content licence', () => {
    const cff = parseYaml(text('CITATION.cff'), { version: '1.2' }) as Record<string, unknown>;
    const ajv = new Ajv({ allErrors: true, strict: true });
    const validate = ajv.compile(CFF_1_2_0);
    assert.ok(validate(cff), JSON.stringify(validate.errors));
    // The manifest as written, not as loaded: the file must follow content/atlas.yaml itself.
    const atlas = parseYaml(readFileSync(join(ROOT, 'content', 'atlas.yaml'), 'utf8')) as Record<string, unknown>;
    assert.equal(cff['version'], atlas['registry_version']);
    assert.equal(cff['date-released'], String(atlas['released']));
    assert.equal(cff['title'], atlas['name']);
    assert.equal(cff['type'], 'dataset');
    assert.equal(cff['license'], 'CC-BY-SA-4.0');
    assert.match(String(cff['message']), /MIT/, 'the message names the software licence');
    assert.deepEqual(cff['authors'], [{ name: 'Hiring Obstacles & Barriers Atlas contributors' }]);
    for (const key of ['url', 'repository-code', 'doi']) assert.ok(!(key in cff), `${key}: nothing that is not known`);
  });
});

describe('the schema.org Dataset description', () => {
  test('name, description, version, licence, creator and a DataDownload per data file that the site serves', () => {
    const d = datasetDescription(registry) as Record<string, unknown> & { distribution: Array<Record<string, string>> };
    assert.equal(d['@context'], 'https://schema.org');
    assert.equal(d['@type'], 'Dataset');
    assert.equal(d['name'], registry.manifest.name);
    const description = String(d['description']);
    assert.ok(description.length >= 50 && description.length <= 5000, 'Google asks for 50 to 5,000 characters');
    assert.equal(d['version'], registry.version);
    assert.equal(d['license'], 'https://creativecommons.org/licenses/by-sa/4.0/');
    assert.equal(d['isAccessibleForFree'], true);
    assert.deepEqual(d['creator'], { '@type': 'Organization', name: 'Hiring Obstacles & Barriers Atlas contributors' });
    assert.deepEqual(
      d.distribution.map((x) => x['contentUrl']),
      ['nodes.csv', 'edges.csv', 'entities.ndjson', 'graph.graphml'].map((f) => `${LATEST}${f}`),
    );
    for (const x of d.distribution) {
      assert.equal(x['@type'], 'DataDownload');
      const served = site.files.find((f) => f.url === x['contentUrl']);
      assert.ok(served, `${x['contentUrl']} is served`);
      assert.equal(x['encodingFormat'], headersForFile(served.path)['Content-Type']!.split(';')[0], `${x['contentUrl']}: encodingFormat`);
    }
    const absolute = datasetDescription(registry, { baseUrl: 'https://atlas.example/' }) as {
      url: string;
      distribution: Array<{ contentUrl: string }>;
    };
    assert.equal(absolute.url, 'https://atlas.example/');
    assert.equal(absolute.distribution[0]!.contentUrl, `https://atlas.example${LATEST}nodes.csv`);
  });

  test('as <script> text: the same JSON, with no "<" that could end the element', () => {
    const script = datasetJsonLd(registry);
    assert.ok(!script.includes('<'));
    assert.deepEqual(JSON.parse(script), datasetDescription(registry));
    const hostile = new Registry({
      manifest: { ...registry.manifest, description: 'A </script><script>alert(1)</script> description that is long enough.' },
      entities: [...registry.entities],
      edges: [...registry.edges],
    });
    assert.ok(!datasetJsonLd(hostile).includes('</script'));
    assert.equal((JSON.parse(datasetJsonLd(hostile)) as { description: string }).description, hostile.manifest.description);
  });
});

test('the CSV columns and the GraphML keys come from one table', () => {
  const xmlText = graphml(registry).toString('utf8');
  for (const c of NODE_COLUMNS.filter((c) => c.name !== 'id'))
    assert.match(xmlText, new RegExp(`<key id="n_${c.name}" for="node" attr\\.name="${c.name}"`));
  for (const c of EDGE_COLUMNS.filter((c) => c.name === 'relation' || c.name === 'fidelity'))
    assert.match(xmlText, new RegExp(`<key id="e_${c.name}" for="edge"`));
});
