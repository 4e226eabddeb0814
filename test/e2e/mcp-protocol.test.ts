// The MCP server as a protocol peer, and sized for an assistant (issue 29): the revisions it accepts over
// HTTP (the 2025 ones through initialize, 2026-07-28 stateless with its per-request `_meta` envelope,
// server/discover and cache fields), every revision the pinned SDK supports; capabilities that say what
// the server does (no list_changed notifications); completions for the prompt's fixed-value arguments;
// resources/list in pages; "exactly one of" stated as oneOf; get_methodology's table of contents and
// section enum; explain_observation summaries within 8 KB for every scenario, artifact and account.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer, SUPPORTED_PROTOCOL_VERSIONS, createMcpHandler } from '@modelcontextprotocol/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { METHODOLOGY_SECTIONS } from '../../src/analysis/methodology.ts';
import { openCheckoutAtlas, toolAtlas } from '../../src/mcp/atlas.ts';
import { createMcpHttpHandler } from '../../src/mcp/http.ts';
import { RESOURCES_PAGE, createMcpServer } from '../../src/mcp/server.ts';
import { SUMMARY_BUDGET, TOOLS } from '../../src/mcp/tools.ts';
import { STAGES } from '../../src/model/vocab.ts';
import { contentHash } from '../../src/registry/hash.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { ROOT } from '../helpers.ts';

const registry = loadAtlas(ROOT).registry;
const atlas = toolAtlas({ registry, index: () => undefined, from: 'content', problems: [], content_hash: contentHash(ROOT) }, ROOT);
const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

async function inMemory(): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(atlas, 'local').connect(serverSide);
  const client = new Client({ name: 'hoba-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('what the server offers, sized for an assistant (in memory)', () => {
  let client: Client;
  before(async () => (client = await inMemory()));
  after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

  test('no list ever changes while a server runs, and the capabilities say so (listChanged: false)', () => {
    const caps = client.getServerCapabilities()!;
    assert.equal(caps.tools?.listChanged, false);
    assert.equal(caps.resources?.listChanged, false);
    assert.equal(caps.prompts?.listChanged, false);
    assert.ok(caps.completions, 'completions are offered');
  });

  test('every prompt argument with fixed values completes: the stages for analyse-observation’s stage', async () => {
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((p) => p.name === 'analyse-observation')!;
    assert.deepEqual(prompt.arguments?.map((a) => a.name).sort(), ['observation', 'stage']);
    const complete = async (name: string, value: string) =>
      (await client.complete({ ref: { type: 'ref/prompt', name: prompt.name }, argument: { name, value } })).completion.values;
    assert.deepEqual(await complete('stage', ''), [...STAGES]);
    assert.deepEqual(
      await complete('stage', 'te'),
      STAGES.filter((s) => s.startsWith('te')),
    );
    assert.ok((await complete('stage', 'te')).length > 0);
    assert.deepEqual(await complete('stage', 'zzz'), []);
    // The observation is the person's own words: nothing to offer.
    assert.deepEqual(await complete('observation', 'no re'), []);
  });

  test('resources/list comes in pages: the methodology, then every entity once, each page small', async () => {
    // One page at a time, as a client that does not walk them all sees them (the SDK's listResources() walks every page).
    type Page = { resources: Array<{ uri: string }>; nextCursor?: string };
    const page = (cursor?: string) =>
      client.request({ method: 'resources/list', params: cursor === undefined ? {} : { cursor } }) as Promise<Page>;
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const got = await page(cursor);
      assert.ok(got.resources.length <= RESOURCES_PAGE);
      assert.ok(bytes(got) < 20 * 1024, `a page is ${bytes(got)} bytes`);
      uris.push(...got.resources.map((r) => r.uri));
      cursor = got.nextCursor;
      pages++;
    } while (cursor !== undefined);
    assert.deepEqual(uris.slice(0, 2), ['hoba://methodology', 'hoba://methodology.json']);
    assert.deepEqual(
      uris.slice(2),
      registry.entities.map((e) => `hoba://${e.kind}/${e.id}`),
    );
    assert.equal(pages, Math.ceil(uris.length / RESOURCES_PAGE));
    assert.ok(pages > 1);
    assert.deepEqual(
      (await client.listResources()).resources.map((r) => r.uri),
      uris,
      'a client that walks every page gets them all',
    );
    for (const cursor of ['nope', '0', '-1', String(uris.length), '1e3']) {
      await assert.rejects(
        page(cursor),
        (err: { code?: number; message: string }) => err.code === -32602 && /cursor/.test(err.message),
        `cursor ${cursor}`,
      );
    }
    // Every listed entity reads, and the template still completes IDs.
    const templates = await client.listResourceTemplates();
    assert.deepEqual(
      templates.resourceTemplates.map((t) => t.uriTemplate),
      ['hoba://{kind}/{id}'],
    );
  });

  test('"exactly one of" is a oneOf in explain_observation’s input schema, "at least one of" an anyOf', async () => {
    const { tools } = await client.listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema as Record<string, unknown>;
    const explainSchema = schema('explain_observation');
    // The person's words and the message they received are one way in, given alone or together.
    assert.deepEqual(explainSchema['oneOf'], [
      { required: ['artifacts'] },
      { required: ['scenario'] },
      { anyOf: [{ required: ['text'] }, { required: ['message'] }] },
    ]);
    assert.match(tools.find((t) => t.name === 'explain_observation')!.description!, /exactly one of/);
    const validate = new Ajv2020({ strict: false }).compile(explainSchema);
    assert.ok(validate({ artifacts: ['A-009'] }));
    assert.ok(validate({ text: 'no reply after the final interview', stage: 'team' }));
    assert.ok(validate({ message: 'Unfortunately we have decided not to move forward.' }));
    assert.ok(validate({ text: 'they said no', message: 'Unfortunately we have decided not to move forward.' }));
    assert.ok(!validate({}), 'none');
    assert.ok(!validate({ artifacts: ['A-009'], text: 'no reply' }), 'two');
    // The tool says the same in words when a client does not read the schema.
    assert.match((await call('explain_observation', { artifacts: ['A-009'], scenario: 'S-001' })).content[0]!.text!, /exactly one of/);
    const mechanisms = schema('find_compatible_mechanisms');
    assert.deepEqual(mechanisms['anyOf'], [{ required: ['artifacts'] }, { required: ['stage'] }, { required: ['barriers'] }]);
    assert.ok(!new Ajv2020({ strict: false }).compile(mechanisms)({}));
  });

  test('get_methodology: with no section a table of contents under 4 KB; section is an enum of real sections, each answering', async () => {
    const toc = await call('get_methodology', {});
    assert.notEqual(toc.isError, true);
    assert.ok(bytes(toc.content[0]!.text!) < 4 * 1024, `the table of contents is ${bytes(toc.content[0]!.text!)} bytes`);
    const contents = toc.structuredContent as {
      sections: Array<{ id: string; title: string; body?: string }>;
      contents: string;
      legal_notice: string;
    };
    assert.deepEqual(
      contents.sections.map((s) => s.id),
      [...METHODOLOGY_SECTIONS],
    );
    assert.ok(
      contents.sections.every((s) => s.title && s.body === undefined),
      'titles, no bodies',
    );
    assert.ok(contents.legal_notice);
    const { tools } = await client.listTools();
    const section = (tools.find((t) => t.name === 'get_methodology')!.inputSchema as { properties: Record<string, { enum?: string[] }> })
      .properties['section']!;
    const vocabularies = Object.keys(
      (await call('get_methodology', { section: 'vocabularies' })).structuredContent!['vocabularies'] as object,
    );
    // "facets" is a section and a vocabulary: it names the section (the facets vocabulary is in "vocabularies").
    assert.deepEqual(section.enum, [...new Set(['all', ...METHODOLOGY_SECTIONS, 'vocabularies', ...vocabularies])]);
    assert.ok(vocabularies.includes('verdicts'), 'the description names "verdicts": it is a value');
    for (const value of section.enum!) {
      const r = await call('get_methodology', { section: value });
      assert.notEqual(r.isError, true, `${value}: ${r.content[0]?.text}`);
      const out = r.structuredContent as { sections: Array<{ id: string; body: string }>; vocabularies?: Record<string, unknown> };
      if (METHODOLOGY_SECTIONS.includes(value))
        assert.deepEqual(
          out.sections.map((s) => s.id),
          [value],
        );
      else if (value === 'all') assert.equal(out.sections.length, METHODOLOGY_SECTIONS.length);
      else if (value !== 'vocabularies' && value !== 'all') assert.deepEqual(Object.keys(out.vocabularies!), [value]);
      assert.ok(out.sections.every((s) => s.body.length > 0));
    }
    const bad = await call('get_methodology', { section: 'nope' });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]!.text!, /hoba/, 'the error lists the sections');
  });
});

describe('explain_observation summaries keep to 8 KB, whatever is asked', () => {
  const explain = TOOLS.find((t) => t.name === 'explain_observation')!;
  const summary = (args: Record<string, unknown>) => JSON.stringify(explain.run(atlas, explain.arguments().parse(args)));
  const within = (what: string, args: Record<string, unknown>) => {
    const size = bytes(summary(args));
    assert.ok(size <= SUMMARY_BUDGET, `${what}: ${size} bytes`);
    return size;
  };

  test('every scenario, every observation alone, and runs of 2, 3, 5 and 10 observations at once', () => {
    assert.equal(SUMMARY_BUDGET, 8 * 1024);
    for (const s of registry.all('scenario')) within(s.id, { scenario: s.id });
    const ids = registry
      .all('artifact')
      .filter((a) => a.status === 'active')
      .map((a) => a.id);
    for (const id of ids) within(id, { artifacts: [id] });
    for (const n of [2, 3, 5, 10])
      for (let i = 0; i + n <= ids.length; i += n - 1) within(ids.slice(i, i + n).join('+'), { artifacts: ids.slice(i, i + n) });
  });

  test('plain words: long accounts, and every account of the situation reader’s corpus', () => {
    const story =
      'I applied for a job and after the final interview they went silent, then the recruiter said budget was cut and the role was reposted two weeks later, and they also asked about my age and my gap. ';
    within('a long account', { text: story.repeat(12).slice(0, 2000).trim() });
    const dir = join(ROOT, 'quality', 'reader');
    const accounts = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.yaml'))
          .flatMap((f) => parse(readFileSync(join(dir, f), 'utf8')) as Array<{ id: string; text?: string }>)
          .filter((a) => typeof a.text === 'string' && a.text.trim().length > 0)
      : [];
    for (const a of accounts) {
      try {
        within(a.id, { text: a.text!.slice(0, 2000) });
      } catch (err) {
        // An account whose words match nothing is a tool error ("nothing to explain"), not a summary.
        if (!(err instanceof Error) || !/size|bytes/.test(err.message)) continue;
        throw err;
      }
    }
  });

  test('a cut summary says what it cut and where the rest is; detail "full" has it', () => {
    const ids = registry
      .all('artifact')
      .filter((a) => a.status === 'active')
      .map((a) => a.id)
      .slice(0, 10);
    const cut = JSON.parse(summary({ artifacts: ids })) as {
      truncated_lists: Array<{ list: string; shown: number; total: number; more: string }>;
      agency: { verdict: unknown };
    };
    assert.ok(cut.truncated_lists.length > 0);
    for (const t of cut.truncated_lists) assert.match(t.more, /detail "full"|get_diagnostic_probes|find_patterns/, t.list);
    const full = explain.run(atlas, explain.arguments().parse({ artifacts: ids, detail: 'full' })) as {
      behind: { non_inferences: unknown[] };
    };
    const ni = cut.truncated_lists.find((t) => t.list === 'behind.non_inferences');
    if (ni) assert.equal(ni.total, full.behind.non_inferences.length);
    assert.ok(cut.agency.verdict, 'the verdict is never cut');
  });
});

/** The pinned SDK's own answer to server/discover: the modern revisions it can serve. */
async function sdkModernRevisions(): Promise<string[]> {
  let revisions: string[] = [];
  const entry = createMcpHandler(() => new McpServer({ name: 'bare', version: '1.0.0' }), { legacy: 'reject' });
  const client = new Client({ name: 'probe', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const fetchThroughEntry = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await entry.fetch(new Request(input, init));
    const text = await response.clone().text();
    const discovered = /"supportedVersions":(\[[^\]]*\])/.exec(text);
    if (discovered) revisions = JSON.parse(discovered[1]!) as string[];
    return response;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL('http://bare.invalid/mcp'), { fetch: fetchThroughEntry }));
  await client.close();
  await entry.close();
  assert.ok(revisions.length > 0, 'the SDK answered server/discover with its revisions');
  return revisions;
}

describe('MCP over HTTP: every protocol revision the SDK supports', () => {
  let server: Server;
  let url: URL;
  /** The raw answers, as the endpoint wrote them. */
  const seen: Array<{ request: string; status: number; body: string }> = [];
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (init?.method === 'POST') seen.push({ request: String(init.body), status: response.status, body: await response.clone().text() });
    return response;
  };
  before(async () => {
    const handle = createMcpHttpHandler(() => openCheckoutAtlas(ROOT), { bindHost: '127.0.0.1' });
    server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  after(() => {
    server.close();
    server.closeAllConnections();
  });

  test('revision 2026-07-28: a pinned SDK client discovers the server, lists and calls tools, reads resources; lists and reads carry ttlMs and cacheScope', async () => {
    seen.length = 0;
    const client = new Client({ name: 'hoba-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording }));
    try {
      assert.equal(client.getNegotiatedProtocolVersion?.() ?? '2026-07-28', '2026-07-28');
      const { tools } = await client.listTools();
      assert.equal(tools.length, 9);
      const r = (await client.callTool({ name: 'explain_observation', arguments: { artifacts: ['A-009'] } })) as ToolResult;
      assert.notEqual(r.isError, true);
      const resource = await client.readResource({ uri: 'hoba://artifact/A-009' });
      assert.equal((JSON.parse((resource.contents[0] as { text: string }).text) as { node: { id: string } }).node.id, 'A-009');
      const page = (await client.request({ method: 'resources/list', params: {} })) as { nextCursor?: string };
      assert.ok(page.nextCursor, 'paginated on this revision too');
    } finally {
      await client.close();
    }
    const discover = seen.find((s) => s.request.includes('"server/discover"'));
    assert.ok(discover, 'the client sent server/discover');
    assert.equal(discover.status, 200, discover.body);
    assert.ok((JSON.parse(discover.body) as { result: { supportedVersions: string[] } }).result.supportedVersions.includes('2026-07-28'));
    for (const method of ['tools/list', 'resources/read', 'resources/list']) {
      const answer = seen.find((s) => s.request.includes(`"method":"${method}"`));
      assert.ok(answer, method);
      assert.equal(answer.status, 200, `${method}: ${answer.body}`);
      const result = (JSON.parse(answer.body) as { result: { ttlMs?: number; cacheScope?: string } }).result;
      assert.equal(result.ttlMs, 3_600_000, `${method} says how long it may be kept`);
      assert.equal(result.cacheScope, 'public', method);
    }
    // The per-request envelope: every modern request names its revision in _meta.
    assert.ok(seen.filter((s) => !s.request.includes('"initialize"')).every((s) => s.request.includes('2026-07-28')));
  });

  test('the answers to a revision 2026-07-28 request are kept and given again under the next request’s id', async () => {
    seen.length = 0;
    for (let i = 0; i < 2; i++) {
      const client = new Client({ name: 'hoba-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording }));
      await client.listTools();
      await client.close();
    }
    const lists = seen.filter((s) => s.request.includes('"tools/list"')).map((s) => JSON.parse(s.body) as { id: unknown; result: unknown });
    assert.equal(lists.length, 2);
    assert.deepEqual(lists[0]!.result, lists[1]!.result);
  });

  test('a request naming 2026-07-28 without its envelope, or with a revision nobody serves, is refused in words', async () => {
    const post = (body: unknown, version: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify(body),
      });
    const bare = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, '2026-07-28');
    assert.equal(bare.status, 400);
    assert.match(((await bare.json()) as { error: { message: string } }).error.message, /_meta|envelope/);
    const legacyUnknown = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, '1999-01-01');
    assert.equal(legacyUnknown.status, 400);
    assert.match(((await legacyUnknown.json()) as { error: { message: string } }).error.message, /1999-01-01/);
  });

  test('every revision the pinned SDK supports is accepted: a test that fails when the SDK grows past the endpoint', async () => {
    const modern = await sdkModernRevisions();
    assert.ok(modern.includes('2026-07-28'));
    for (const version of modern) {
      const client = new Client({ name: 'hoba-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: version } } });
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        assert.equal((await client.listTools()).tools.length, 9, version);
      } finally {
        await client.close();
      }
    }
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      assert.equal(init.status, 200, version);
      assert.equal(
        ((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
        version,
        `${version} is negotiated as asked`,
      );
      const list = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'mcp-protocol-version': version },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      assert.equal(list.status, 200, `tools/list under MCP-Protocol-Version ${version}`);
    }
  });
});
