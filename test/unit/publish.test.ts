// The static build: determinism, every file against its OpenAPI schema, the OpenAPI document against both
// validators, the graph, deprecation, the published JSON Schemas and host files, on the shared built site.
// `hoba build` itself: test/e2e/build-command.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, mock, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildInfo, type Built } from '../../src/workflows/build.ts';
import { readSiteDir, siteDigest, streamSite } from '../../src/publish/build.ts';
import type { WrittenSite } from '../../src/publish/site-file.ts';
import { SITE_PAGES } from '../../src/site/index.ts';
import { openApiDocument } from '../../src/publish/openapi.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { KINDS, KIND_INFO } from '../../src/model/index.ts';
import { API_ROUTES, fileOfUrl, headersForFile, NOT_FOUND_FILE, METHOD_NOT_ALLOWED_FILE, urlOf } from '../../src/publish/routes.ts';
import { openApiValidator, responseSchemaName, type OpenApi } from '../contract.ts';
import { AtlasCopy, ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

const parse = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;

describe('the static build', () => {
  let built: Built;
  let files: Map<string, Buffer>;
  let openapi: OpenApi & Record<string, unknown>;
  /**
   * A second build, in this process, written file by file as `hoba build` writes it (streamSite), on
   * another date: compared with the shared one, built in memory (buildSite + writeSite) by another process
   * at another time. One build checks the determinism, the clock and the streaming writer.
   */
  let again: { written: WrittenSite; files: Map<string, Buffer> };
  const work = mkdtempSync(join(tmpdir(), 'hoba-publish-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  // A date no content or manifest holds, so finding it in a file can only mean the build wrote the clock.
  const elsewhen = Date.UTC(2003, 6, 9, 23, 59, 58);
  before(() => {
    built = { site: sharedSite().site, registry: loadAtlas(ROOT).registry, info: buildInfo(ROOT), warnings: 0 };
    files = new Map(built.site.files.map((f) => [f.path, f.bytes]));
    openapi = parse(files.get('openapi.json')!) as OpenApi & Record<string, unknown>;
    mock.timers.enable({ apis: ['Date'], now: elsewhen });
    try {
      const written = streamSite(built.registry, buildInfo(ROOT), SITE_PAGES, join(work, 'stream'));
      again = { written, files: readSiteDir(join(work, 'stream')) };
    } finally {
      mock.timers.reset();
    }
  });

  test('two builds of the same content are byte-identical', () => {
    assert.deepEqual(
      [...again.files.keys()].sort(),
      built.site.files.map((f) => f.path),
    );
    for (const f of built.site.files) assert.ok(again.files.get(f.path)!.equals(f.bytes), f.path);
  });

  test('streamSite (what hoba build runs) writes the files, bytes and digest of buildSite + writeSite', () => {
    assert.equal(again.written.digest, built.site.digest);
    assert.equal(again.written.bytes, built.site.bytes);
    assert.deepEqual(
      again.written.files.map((f) => [f.path, f.url, f.size]),
      built.site.files.map((f) => [f.path, f.url, f.bytes.length]),
    );
    // The digest is a digest of the bytes: one byte changed changes it.
    const changed = built.site.files.map((f, i) => (i === 0 ? { ...f, bytes: Buffer.concat([f.bytes, Buffer.from(' ')]) } : f));
    assert.notEqual(siteDigest(changed), built.site.digest);
  });

  test('output is deterministic text: sorted files, LF, a trailing newline', () => {
    const paths = built.site.files.map((f) => f.path);
    assert.deepEqual(paths, [...paths].sort());
    for (const f of built.site.files) {
      // The one binary file, and the precompressed variants (test/e2e/precompressed-and-memo.test.ts checks them).
      if (f.path === 'favicon.ico' || /\.(gz|br)$/.test(f.path)) continue;
      const text = f.bytes.toString('utf8');
      assert.ok(text.endsWith('\n'), `${f.path} ends with a newline`);
      // RFC 4180 CSV ends its records in CRLF (src/publish/downloads.ts); every other file, LF.
      if (f.path.endsWith('.csv')) assert.ok(!/[^\r]\n/.test(text), `${f.path}: CRLF records`);
      else assert.ok(!text.includes('\r'), `${f.path} has LF line ends`);
    }
  });

  test('the build reads no clock: a build on another date is byte-identical and never names that date', () => {
    assert.equal(new Date(elsewhen).toISOString().slice(0, 10), '2003-07-09');
    assert.equal(again.written.digest, built.site.digest);
    for (const [path, bytes] of again.files) {
      const text = bytes.toString('utf8');
      assert.ok(!text.includes('2003-07-09') && !text.includes('2003-07-10'), `${path} holds no build date`);
    }
  });

  test('every seed path of the interface contract is written, at its extensionless URL', () => {
    const urls = new Set(built.site.files.map((f) => f.url));
    for (const seed of [
      '/artifacts',
      '/barriers',
      '/mechanisms',
      '/patterns',
      '/loops',
      '/interventions',
      '/graph',
      '/sources',
      '/index.json',
    ]) {
      assert.ok(urls.has(`/api/v1${seed}`), seed);
    }
    for (const kind of KINDS) {
      for (const e of built.registry.all(kind)) {
        const url = `/api/v1/${KIND_INFO[kind].dir}/${e.id}`;
        assert.ok(urls.has(url), url);
        assert.ok(files.has(`${url.slice(1)}.json`), `${url} is stored as .json`);
      }
    }
    assert.ok(urls.has('/openapi.json') && urls.has('/developers/') && urls.has('/'));
    // Worked scenarios have a site page each, beside their JSON.
    assert.ok(urls.has('/scenarios/'));
    for (const s of built.registry.all('scenario')) assert.ok(urls.has(`/scenarios/${s.id}/`), `/scenarios/${s.id}/`);
  });

  test('every file the route table writes validates against its OpenAPI response schema (Ajv 2020-12)', () => {
    const schemaOf = openApiValidator(openapi);
    let checked = 0;
    for (const f of built.site.files) {
      if (!f.url?.startsWith('/api/v1/')) continue;
      const route = API_ROUTES.find((r) => new RegExp(`^/api/v1${r.path.replace(/\{\w+\}/, '[^/]+')}$`).test(f.url!));
      assert.ok(route, `${f.url} belongs to a route`);
      const validate = schemaOf(responseSchemaName(openapi, route));
      assert.ok(validate(parse(f.bytes)), `${f.url}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      checked++;
    }
    const releases = built.info.releases?.length ?? 0;
    assert.ok(releases >= 2, 'the recorded releases are published');
    assert.equal(
      checked,
      built.registry.entities.length + 2 * KINDS.length - KINDS.length + 2 + 2 + releases,
      'every collection, item, graph and index, the release list, each release and the changelog',
    );
    for (const file of [NOT_FOUND_FILE, METHOD_NOT_ALLOWED_FILE]) assert.ok(schemaOf('Problem')(parse(files.get(file)!)), file);
  });

  test('the schema check can fail: a drifted document is rejected', () => {
    const schemaOf = openApiValidator(openapi);
    const body = parse(files.get('api/v1/mechanisms/M-001.json')!);
    const item = body['item'] as Record<string, unknown>;
    assert.ok(schemaOf('MechanismItem')(body));
    assert.equal(
      schemaOf('MechanismItem')({ ...body, item: { ...item, facets: { ...(item['facets'] as object), actor: 'wizard' } } }),
      false,
    );
    assert.equal(schemaOf('MechanismItem')({ ...body, registry_version: undefined }), false);
    assert.equal(schemaOf('MechanismList')(body), false);
  });

  test('every response carries registry_version and its envelope', () => {
    const version = built.registry.version;
    const artifacts = parse(files.get('api/v1/artifacts.json')!);
    assert.deepEqual(Object.keys(artifacts), ['registry_version', 'kind', 'count', 'items']);
    assert.equal(artifacts['registry_version'], version);
    assert.equal(artifacts['count'], built.registry.all('artifact').length);
    const ids = (artifacts['items'] as Array<{ id: string; kind: string }>).map((a) => a.id);
    assert.deepEqual(
      ids,
      built.registry.all('artifact').map((a) => a.id),
      'sorted by ID',
    );
    const one = parse(files.get('api/v1/mechanisms/M-001.json')!);
    assert.deepEqual(Object.keys(one), ['registry_version', 'kind', 'item', 'links', 'citations']);
    assert.equal((one['item'] as { kind: string }).kind, 'mechanism');
    const links = one['links'] as { outgoing: Array<{ source: string; relation: string }>; incoming: Array<{ target: string }> };
    assert.ok(links.outgoing.length > 0 && links.outgoing.every((e) => e.source === 'M-001'));
    assert.ok(links.incoming.every((e) => e.target === 'M-001'));
    for (const f of built.site.files) {
      if (f.path.endsWith('.json') && (f.path.startsWith('api/') || f.path.startsWith('problems/'))) {
        assert.equal(parse(f.bytes)['registry_version'], version, f.path);
      }
    }
  });

  test('the graph lists every entity as a node and every typed edge, with fidelity on emits only', () => {
    const graph = parse(files.get('api/v1/graph.json')!) as {
      counts: { nodes: number; edges: number; by_kind: Record<string, number> };
      nodes: Array<Record<string, unknown>>;
      edges: Array<{ source: string; target: string; relation: string; fidelity?: string }>;
    };
    assert.deepEqual(
      graph.nodes.map((n) => n.id),
      built.registry.entities.map((e) => e.id),
    );
    assert.equal(graph.counts.nodes, graph.nodes.length);
    assert.equal(graph.counts.edges, graph.edges.length);
    assert.deepEqual(
      graph.edges,
      built.registry.edges.map((e) => ({ ...e })),
    );
    for (const e of graph.edges) assert.equal(e.fidelity !== undefined, e.relation === 'emits', `${e.source} ${e.relation} ${e.target}`);
    const mechanism = graph.nodes.find((n) => n.id === 'M-001')!;
    assert.deepEqual(Object.keys(mechanism).sort(), [
      'evidence_level',
      'facets',
      'family',
      'honest_baseline',
      'id',
      'kind',
      'status',
      'title',
    ]);
    const barrier = graph.nodes.find((n) => n.kind === 'barrier')!;
    assert.ok('stage' in barrier && 'order' in barrier && !('summary' in barrier));
    for (const relation of [
      'precedes',
      'operates_at',
      'emits',
      'amplifies',
      'masks',
      'instantiates',
      'member_of',
      'targets',
      'mitigates',
      'observes',
      'cites',
    ]) {
      assert.ok(
        graph.edges.some((e) => e.relation === relation),
        `${relation} edges are present`,
      );
    }
  });

  test('the discovery document names the atlas, its versions, counts and every endpoint', () => {
    const index = parse(files.get('api/v1/index.json')!) as Record<string, any>;
    assert.equal(index['name'], 'Hiring Obstacles & Barriers Atlas');
    assert.equal(index['versions'].description, '0.4.1');
    assert.equal(index['versions'].api, 'v1');
    assert.equal(index['counts'].mechanism, built.registry.all('mechanism').length);
    assert.equal(index['content_hash'], built.info.contentHash);
    assert.deepEqual(
      index['endpoints'].map((e: { path: string }) => e.path),
      API_ROUTES.map((r) => `/api/v1${r.path}`),
    );
  });

  test('the OpenAPI document: 3.1.0, title, version, licences, servers, operations, patterns, 404s', () => {
    const info = openapi['info'] as Record<string, any>;
    assert.equal(openapi['openapi'], '3.1.0');
    assert.equal(info['title'], 'Hiring Obstacles & Barriers Atlas');
    assert.equal(info['version'], '0.4.1');
    assert.match(info['license'].name, /MIT for software/);
    assert.match(info['license'].name, /CC BY-SA 4\.0 for content/);
    assert.equal(info['contact'].name, 'Hiring Obstacles & Barriers Atlas contributors', 'info.contact names who answers for the API');
    const withOrigin = openApiDocument(built.registry, 'https://atlas.example.org')['info'] as Record<string, any>;
    assert.deepEqual(
      withOrigin['contact'],
      { name: 'Hiring Obstacles & Barriers Atlas contributors', url: 'https://atlas.example.org/developers/' },
      'with the site’s origin, its developer page',
    );
    assert.deepEqual(
      (openapi['servers'] as Array<{ url: string }>).map((s) => s.url),
      ['/api/v1'],
    );
    const operationIds = new Set<string>();
    for (const route of API_ROUTES) {
      const op = openapi.paths[route.path]!.get as unknown as Record<string, any>;
      assert.ok(op, route.path);
      assert.equal(op['operationId'], route.operationId);
      operationIds.add(op['operationId']);
      assert.ok(op['summary']);
      assert.ok(op['responses']['404'], `${route.path} documents 404`);
      if (route.itemKind) {
        const param = op['parameters'][0];
        assert.equal(param.in, 'path');
        assert.equal(param.schema.pattern, `^${KIND_INFO[route.itemKind].prefix}-[0-9]{3,}$`);
        assert.match(param.example, new RegExp(param.schema.pattern));
      }
    }
    assert.equal(operationIds.size, API_ROUTES.length, 'operationIds are unique');
    for (const seed of [
      '/artifacts',
      '/artifacts/{id}',
      '/barriers',
      '/barriers/{id}',
      '/mechanisms',
      '/mechanisms/{id}',
      '/patterns',
      '/loops',
      '/interventions',
      '/graph',
    ]) {
      assert.ok(openapi.paths[seed], seed);
    }
  });

  test('the OpenAPI document passes @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openapi));
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  test('the OpenAPI document passes redocly lint (recommended rules) with no errors or warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoba-redocly-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, files.get('openapi.json')!);
      const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', file, '--format=json'], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', HOME: dir },
        cwd: dir,
      });
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
      assert.deepEqual(report.problems, []);
      assert.equal(report.totals.errors, 0);
      assert.equal(report.totals.warnings, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the published JSON Schemas are 2020-12 and validate every record of their kind', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
    for (const kind of KINDS) {
      const schema = parse(files.get(`schemas/${kind}.schema.json`)!);
      assert.equal(schema['$schema'], 'https://json-schema.org/draft/2020-12/schema');
      const validate = ajv.compile(schema);
      const collection = parse(files.get(`api/v1/${KIND_INFO[kind].dir}.json`)!) as { items: unknown[] };
      for (const item of collection.items) assert.ok(validate(item), `${kind}: ${JSON.stringify(validate.errors)}`);
      assert.equal(validate({ ...(collection.items[0] as object), surprise: true }), false, `${kind} rejects unknown keys`);
    }
  });

  test('host files: a rewrite for every extensionless URL, a JSON 404 for the rest, headers per rule', () => {
    const redirects = files.get('_redirects')!.toString();
    for (const f of built.site.files) {
      if (f.url?.startsWith('/api/v1/') && !f.url.endsWith('.json')) assert.ok(redirects.includes(`\n${f.url} /${f.path} 200\n`), f.url);
    }
    assert.match(redirects, /\n\/api\/v1\/\* \/problems\/not-found\.json 404\n$/);
    const headers = files.get('_headers')!.toString();
    assert.match(
      headers,
      /^\/api\/v1\/\*\n  Content-Type: application\/json; charset=utf-8\n  Access-Control-Allow-Origin: \*\n  Cache-Control: [^\n]*max-age/m,
    );
    assert.match(files.get('_nginx.conf')!.toString(), /location \^~ \/api\/v1\/ \{/);
  });

  test('the developer page lists the collections with links to their JSON, the OpenAPI and MCP snippets', () => {
    const page = files.get('developers/index.html')!.toString();
    for (const path of ['/api/v1/artifacts', '/api/v1/barriers', '/api/v1/mechanisms', '/api/v1/graph'])
      assert.ok(page.includes(`<a href="${path}">View JSON`), path);
    assert.ok(page.includes('href="/openapi.json"'));
    assert.ok(
      page.includes('&quot;mcpServers&quot;') && page.includes('&lt;checkout&gt;/dist/mcp.js') && page.includes('&quot;--dir&quot;'),
      'local MCP config',
    );
    assert.ok(page.includes('&quot;npx&quot;') && page.includes('&quot;-y&quot;'), 'hosted MCP config');
    assert.ok(page.includes('<code>/mcp</code>'), 'HTTP MCP endpoint');
    assert.match(page, /<html lang="en">/);
    assert.match(page, /hoba validate --strict/);
    assert.match(page, /<th scope="col">/);
  });
});

describe('pages', () => {
  let files: Map<string, Buffer>;
  let reg: Built['registry'];
  before(() => {
    files = new Map(sharedSite().site.files.map((f) => [f.path, f.bytes]));
    reg = loadAtlas(ROOT).registry;
  });

  test('a favicon is shipped, as SVG linked from every page and as /favicon.ico, with their types', () => {
    for (const page of ['index.html', 'developers/index.html', '404.html']) {
      assert.match(files.get(page)!.toString(), /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/, page);
    }
    assert.match(files.get('favicon.svg')!.toString(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 16 16">/);
    const ico = files.get('favicon.ico')!;
    // ICONDIR (reserved 0, type 1 = icon, 1 image), then the entry: 16 × 16, 32 bits, the image at 22.
    assert.deepEqual([...ico.subarray(0, 8)], [0, 0, 1, 0, 1, 0, 16, 16]);
    assert.equal(ico.readUInt16LE(12), 32);
    assert.equal(ico.readUInt32LE(14), ico.length - 22);
    assert.equal(ico.readUInt32LE(22), 40, 'a BITMAPINFOHEADER');
    assert.equal(headersForFile('favicon.ico')['Content-Type'], 'image/x-icon');
    assert.equal(headersForFile('favicon.svg')['Content-Type'], 'image/svg+xml');
    assert.equal(headersForFile('x.constructor')['Content-Type'], 'application/octet-stream', 'no prototype member is a type');
  });

  test('the home page says each sentence once', () => {
    const main = /<main id="main">([\s\S]*)<\/main>/.exec(files.get('index.html')!.toString())![1]!;
    const sentences = main
      .replace(/<[^>]+>/g, ' ')
      .split(/(?<=[.;])\s+/)
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter((s) => s.length > 20);
    assert.deepEqual(
      sentences.filter((s, i) => sentences.indexOf(s) !== i),
      [],
    );
  });

  test('the developer page explains an observation at a stage it is recorded at', () => {
    const [example, id, stage] = /hoba explain (A-\d+) --stage (\S+)/.exec(files.get('developers/index.html')!.toString()) ?? [];
    assert.ok(example, 'the example is there');
    assert.ok(
      reg.getOf('artifact', id!)?.stages.includes(stage as never),
      `${example}: ${id} is recorded at ${reg.getOf('artifact', id!)?.stages.join(', ')}`,
    );
  });
});

describe('deprecated entities', () => {
  test('keep resolving, with their status and successor', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-003', ['status'], 'deprecated').set('M-003', ['superseded_by'], 'M-004');
      // The mechanisms' API documents, from the route table as the build walks it (the rest of a whole
      // build, its pages, downloads and compressed copies, adds nothing here).
      const { registry, problems } = loadAtlas(copy.dir);
      assert.deepEqual(problems, [], 'a deprecated entity with a successor loads');
      const info = buildInfo(copy.dir);
      const documents = new Map(
        API_ROUTES.filter((r) => r.path.startsWith('/mechanisms')).flatMap((route) =>
          [...route.documents(registry, info)].map((d) => [fileOfUrl(urlOf(route, d.id)), d.body] as const),
        ),
      );
      const item = documents.get('api/v1/mechanisms/M-003.json');
      assert.ok(item, 'the deprecated item is still published');
      const body = item as { item: { status: string; superseded_by: string } };
      assert.equal(body.item.status, 'deprecated');
      assert.equal(body.item.superseded_by, 'M-004');
      const list = documents.get('api/v1/mechanisms.json') as { items: Array<{ id: string }> };
      assert.ok(
        list.items.some((m) => m.id === 'M-003'),
        'and listed',
      );
    } finally {
      copy.dispose();
    }
  });
});
