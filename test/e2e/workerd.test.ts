// The hosted variant on an edge runtime: the worker bundle (dist/worker.js, scripts/build-worker.mjs) and
// the built site, run by workerd (the open-source Workers runtime, npm package `workerd`) with the
// configuration users run (worker/workerd.capnp). The REST contract suite passes against it as against
// `hoba serve` and nginx; the MCP endpoint answers every request as `hoba-mcp --http` does, byte for byte
// (the reference already passes the MCP suites: mcp.test.ts, mcp-attacks.test.ts), and its own checks
// (tools, errors, Host/Origin, CORS, bodies) hold. The tests skip, saying why, only when the workerd
// binary cannot run on this machine; a missing package or bundle fails them with what to do.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { SchemaObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { headersForFile, METHOD_NOT_ALLOWED_FILE, NOT_FOUND_FILE, NOT_FOUND_PAGE, PREFLIGHT_HEADERS } from '../../src/publish/routes.ts';
import { contractSuite, http } from '../contract.ts';
import { sharedSite, type BuiltSite } from '../site-fixture.ts';
import { freePort, ROOT, TOOL_CALLS, waitForPort } from '../helpers.ts';
import { MCP, DIST } from '../dist.ts';

const WORKER = join(DIST, 'worker.js');
const CONFIG = join(ROOT, 'worker', 'workerd.capnp');
const WRANGLER = join(ROOT, 'worker', 'wrangler.jsonc');
const LIMIT = 1024 * 1024;
const HOSTED_TOOLS = Object.keys(TOOL_CALLS)
  .filter((t) => t !== 'get_registry_info')
  .sort();

/** The workerd binary, or why it cannot run here (the only reason to skip). */
async function findWorkerd(): Promise<{ binary: string; version: string } | { skip: string }> {
  let binary: string;
  try {
    // The package's main export is the path of its platform binary (an optional dependency).
    const specifier = 'workerd';
    binary = ((await import(specifier)) as { default: string }).default;
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    if (/Cannot find (package|module) 'workerd'/.test(message ?? '')) {
      throw new Error(
        'the workerd package is not installed, and these tests need it. Run npm ci (it is a pinned devDependency) and run the tests again.',
      );
    }
    return { skip: `workerd has no binary for this platform (${process.platform}-${process.arch}): ${message}` };
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (version.error || version.status !== 0) {
    return {
      skip: `the workerd binary (${binary}) cannot run here: ${version.error?.message ?? `exit ${version.status}: ${version.stderr.trim()}`}`,
    };
  }
  return { binary, version: version.stdout.trim() };
}

const workerd = await findWorkerd();
const skip = 'skip' in workerd ? workerd.skip : undefined;
// The emulation of Workers Static Assets (workerd's `assets` service, what wrangler's `assets` config
// becomes) arrived in workerd 2026-11-17, the version pinned (1.20261117.1, the newest whose binaries the
// registry has for every platform the lock file names). An older workerd is a failure here, not a skip.
if ('version' in workerd) {
  const date = workerd.version.match(/\d{4}-\d{2}-\d{2}/)?.[0] ?? '';
  if (date < '2026-11-17')
    throw new Error(
      `${workerd.version} has no Workers Static Assets service (it arrived in workerd 2026-11-17): run npm ci to install the pinned workerd.`,
    );
}
const assetsSkip = skip;

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** workerd serving `root` with worker/workerd.capnp, as its header comment tells a user to run it. */
function startWorkerd(root: string): Promise<{ origin: string; stop(): Promise<void> }> {
  return runWorkerd(async (port) => ['serve', CONFIG, '--directory-path', `site=${root}`, '--socket-addr', `http=127.0.0.1:${port}`]);
}

/** The Cloudflare deployment's settings (worker/wrangler.jsonc; its comments are whole lines). */
function wranglerConfig(): { compatibility_date: string; compatibility_flags: string[]; assets: Record<string, unknown> } {
  return JSON.parse(readFileSync(WRANGLER, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as ReturnType<typeof wranglerConfig>;
}

/**
 * workerd serving `root` as Cloudflare serves a Worker's static assets (workerd's `assets` service, with
 * the settings of worker/wrangler.jsonc; experimental in workerd), bound as ASSETS the way Cloudflare
 * binds it: the production path of the worker's file access, which the `disk` service only stands in for.
 */
async function startWorkerdWithAssets(root: string): Promise<{ origin: string; stop(): Promise<void> }> {
  const wrangler = wranglerConfig();
  const { directory: _directory, binding: _binding, run_worker_first: _first, ...settings } = wrangler.assets;
  const dir = mkdtempSync(join(tmpdir(), 'hoba-workerd-'));
  const flags = wrangler.compatibility_flags.map((f) => JSON.stringify(f)).join(', ');
  const started = await runWorkerd(async (port) => {
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "hoba", worker = .hoba),
    (name = "assets", assets = (path = ${JSON.stringify(root)}, config = ${JSON.stringify(JSON.stringify(settings))}, userWorker = "hoba")),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "hoba")],
);
const hoba :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ${JSON.stringify(relative(dir, WORKER))})],
  compatibilityDate = ${JSON.stringify(wrangler.compatibility_date)},
  compatibilityFlags = [${flags}],
  bindings = [(name = "ASSETS", service = (name = "assets", entrypoint = "AssetWorker"))],
);
`,
    );
    return ['serve', '--experimental', join(dir, 'config.capnp')];
  }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    origin: started.origin,
    stop: async () => {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function runWorkerd(argsFor: (port: number) => Promise<string[]>): Promise<{ origin: string; stop(): Promise<void> }> {
  if ('skip' in workerd) throw new Error(workerd.skip);
  if (!existsSync(WORKER))
    throw new Error('dist/worker.js is missing: run npm run build first (scripts/build-worker.mjs bundles the worker).');
  const port = await freePort();
  const child = spawn(workerd.binary, await argsFor(port), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitForPort(port, child, () => output, 'workerd', 30);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

/**
 * A suite, or, when it cannot run here, one test skipped with the reason: a skipped describe() is reported
 * as a passing suite, and the summary would count no skip at all.
 */
function suite(name: string, skipReason: string | undefined, fn: () => void): void {
  if (skipReason) test(name, { skip: skipReason }, () => {});
  else describe(name, fn);
}

if (skip) {
  test('the worker under workerd', { skip }, () => {});
} else {
  contractSuite('the worker under workerd (worker/workerd.capnp)', (site) => startWorkerd(site.root));
}

suite(
  'the worker with Workers Static Assets as its ASSETS (workerd’s emulation, the settings of worker/wrangler.jsonc)',
  assetsSkip,
  () => {
    let site: BuiltSite;
    let origin: string;
    let stop: (() => Promise<void>) | undefined;
    before(async () => {
      site = sharedSite();
      ({ origin, stop } = await startWorkerdWithAssets(site.root));
    });
    after(async () => {
      await stop?.();
    });

    test('the deployment configurations agree: the same compatibility date and flags', () => {
      const wrangler = wranglerConfig();
      const capnp = readFileSync(CONFIG, 'utf8');
      assert.match(capnp, new RegExp(`compatibilityDate = "${wrangler.compatibility_date}"`));
      assert.match(capnp, new RegExp(`compatibilityFlags = \\[${wrangler.compatibility_flags.map((f) => `"${f}"`).join(', ')}\\]`));
    });

    test('files answer 200 with their bytes and headers, then 304 to their ETag; precompressed variants go to clients that accept them', async () => {
      const files: Array<[url: string, file: string]> = [
        ['/api/v1/', 'api/v1/index.json'],
        ['/api/v1/graph', 'api/v1/graph.json'],
        ['/api/v1/artifacts/A-001', 'api/v1/artifacts/A-001.json'],
        ['/openapi.json', 'openapi.json'],
        ['/', 'index.html'],
        ['/developers/', 'developers/index.html'],
        [`/${NOT_FOUND_FILE}`, NOT_FOUND_FILE],
      ];
      for (const [url, file] of files) {
        for (let round = 0; round < 2; round++) {
          // The second round is answered from what the isolate keeps, revalidated with the binding.
          const r = await http(origin, url);
          assert.equal(r.status, 200, `${url} (round ${round})`);
          assert.ok(r.body.equals(site.file(file)), `${url}: the built file`);
          for (const [header, value] of Object.entries(headersForFile(file)))
            assert.equal(r.headers[header.toLowerCase()], value, `${url}: ${header}`);
          const again = await http(origin, url, { headers: { 'If-None-Match': String(r.headers['etag']) } });
          assert.equal(again.status, 304, url);
        }
      }
      const gz = await http(origin, '/api/v1/graph', { headers: { 'Accept-Encoding': 'gzip' } });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.ok(gz.body.equals(site.file('api/v1/graph.json.gz')), 'the built .gz, as it is');
      assert.ok(gunzipSync(gz.body).equals(site.file('api/v1/graph.json')));
    });

    test('errors, redirects, methods and preflights as hoba serve answers them', async () => {
      const missing = await http(origin, '/api/v1/artifacts/A-999');
      assert.equal(missing.status, 404);
      assert.ok(missing.body.equals(site.file(NOT_FOUND_FILE)));
      for (const path of ['/nope', '/_headers', '/_redirects', '/_nginx.conf']) {
        const page = await http(origin, path);
        assert.equal(page.status, 404, path);
        assert.ok(page.body.equals(site.file(NOT_FOUND_PAGE)), path);
      }
      for (const [path, location] of [
        ['/developers', '/developers/'],
        ['//developers', '/developers/'],
        ['/api/v1', '/api/v1/'],
      ]) {
        const r = await http(origin, path!);
        assert.equal(r.status, 301, path);
        assert.equal(new URL(String(r.headers['location']), origin).pathname, location, path);
      }
      const post = await http(origin, '/api/v1/graph', { method: 'POST' });
      assert.equal(post.status, 405);
      assert.ok(post.body.equals(site.file(METHOD_NOT_ALLOWED_FILE)));
      const preflight = await http(origin, '/api/v1/graph', {
        method: 'OPTIONS',
        headers: { Origin: 'http://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
      });
      assert.equal(preflight.status, 204);
      for (const [header, value] of Object.entries(PREFLIGHT_HEADERS)) assert.equal(preflight.headers[header.toLowerCase()], value, header);
      assert.equal((await http(origin, '/%zz')).status, 400);
    });

    test('/mcp answers beside the site, with no Host checks where no bind address is given (a public deployment)', async () => {
      const body = rpc(1, 'tools/list');
      const r = await send(new URL('/mcp', origin), { headers: JSON_HEADERS, body, host: 'hoba.example.org' });
      assert.equal(r.status, 200, r.body.slice(0, 200));
      assert.deepEqual(
        (JSON.parse(r.body) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name).sort(),
        HOSTED_TOOLS,
      );
    });
  },
);

// ---------------------------------------------------------------------------------------------------
// MCP

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (Host too; none at all when host is null). */
function send(
  url: URL,
  options: { method?: string; path?: string; headers?: Record<string, string | number>; host?: string | null; body?: string | Buffer[] },
): Promise<Answer> {
  const { method = 'POST', path = url.pathname, host, body } = options;
  const headers: Record<string, string | number> = { ...options.headers };
  if (host !== undefined && host !== null) headers['host'] = host;
  if (typeof body === 'string' && headers['content-length'] === undefined) headers['content-length'] = Buffer.byteLength(body);
  return new Promise((done, fail) => {
    const req = request({ hostname: '127.0.0.1', port: url.port, path, method, headers, agent: false, setHost: host !== null }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    // The server may answer (413) and close before the whole body is written: that answer is what counts.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : fail(err)));
    if (Array.isArray(body)) {
      for (const chunk of body) if (!req.destroyed) req.write(chunk);
      req.end();
    } else req.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (id: number | string, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const ping = (id: number | string = 1) => rpc(id, 'ping');

/** A request to the endpoint, described once and sent to both servers. */
interface Case {
  name: string;
  method?: string;
  headers?: Record<string, string>;
  host?: string | null;
  body?: string;
}

/** What must be the same in two answers: the status, the headers a client acts on, the body. */
function comparable(answer: Answer) {
  const header = (name: string) => answer.headers[name];
  return {
    status: answer.status,
    'content-type': header('content-type'),
    'cache-control': header('cache-control'),
    allow: header('allow'),
    'access-control-allow-origin': header('access-control-allow-origin'),
    body: answer.body,
  };
}

async function startReference(): Promise<{ url: URL; stop(): Promise<void> }> {
  if (!existsSync(MCP)) throw new Error('dist/mcp.js is missing: run npm run build first.');
  const child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
    if (m) return { url: new URL(m[1]!), stop: () => stopChild(child) };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`hoba-mcp --http did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

suite('MCP over HTTP: the worker under workerd', skip, () => {
  let site: BuiltSite;
  let worker: URL;
  let reference: URL;
  const stops: Array<() => Promise<void>> = [];

  before(async () => {
    site = sharedSite();
    const started = await startWorkerd(site.root);
    stops.push(started.stop);
    worker = new URL('/mcp', started.origin);
    const ref = await startReference();
    stops.push(ref.stop);
    reference = ref.url;
  });
  after(async () => {
    for (const stop of stops) await stop();
  });

  /** Sends a case to both servers and asserts the same answer; returns the worker's. */
  async function same(c: Case): Promise<Answer> {
    const options = () => ({
      method: c.method ?? 'POST',
      headers: c.headers ?? JSON_HEADERS,
      ...(c.body !== undefined ? { body: c.body } : {}),
      ...(c.host !== undefined ? { host: c.host } : {}),
    });
    const [fromWorker, fromReference] = [await send(worker, options()), await send(reference, options())];
    assert.deepEqual(comparable(fromWorker), comparable(fromReference), `${c.name}: the worker answers as hoba-mcp --http`);
    return fromWorker;
  }

  test('an SDK client lists the nine hosted tools and calls each; every result validates against its output schema', async () => {
    const client = new Client({ name: 'hoba-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(worker));
    try {
      const tools = (await client.listTools()).tools;
      assert.deepEqual(tools.map((t) => t.name).sort(), HOSTED_TOOLS);
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      for (const t of tools) {
        const result = (await client.callTool({ name: t.name, arguments: TOOL_CALLS[t.name]! })) as {
          isError?: boolean;
          content: Array<{ text?: string }>;
          structuredContent?: Record<string, unknown>;
        };
        assert.notEqual(result.isError, true, `${t.name}: ${result.content[0]?.text}`);
        const validate = ajv.compile(t.outputSchema as SchemaObject);
        assert.ok(validate(result.structuredContent), `${t.name}: ${ajv.errorsText(validate.errors)}`);
        assert.match(String(result.structuredContent!['registry_version']), /^\d+\.\d+\.\d+$/);
      }
    } finally {
      await client.close();
    }
  });

  test('initialize, tools/list, every tool call, resources and prompts: the same answers as hoba-mcp --http, byte for byte', async () => {
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hoba-test', version: '1.0.0' } };
    const cases: Case[] = [
      { name: 'initialize', body: rpc(1, 'initialize', init) },
      { name: 'tools/list', body: rpc(2, 'tools/list') },
      ...HOSTED_TOOLS.map((name, i) => ({
        name: `tools/call ${name}`,
        body: rpc(10 + i, 'tools/call', { name, arguments: TOOL_CALLS[name] }),
      })),
      {
        name: 'explain_observation in full',
        body: rpc(30, 'tools/call', { name: 'explain_observation', arguments: { artifacts: ['A-009'], detail: 'full' } }),
      },
      {
        name: 'explain_observation in plain words',
        body: rpc(31, 'tools/call', {
          name: 'explain_observation',
          arguments: { text: 'no reply for three weeks after the final interview' },
        }),
      },
      {
        // An account of six words or more is read by the situation reader, in the Worker as in hoba-mcp.
        name: 'search_registry on an account',
        body: rpc(32, 'tools/call', {
          name: 'search_registry',
          arguments: { query: 'no reply for three weeks after the final interview' },
        }),
      },
      { name: 'resources/list', body: rpc(40, 'resources/list') },
      { name: 'resources/templates/list', body: rpc(41, 'resources/templates/list') },
      { name: 'resources/read', body: rpc(42, 'resources/read', { uri: 'hoba://mechanism/M-001' }) },
      { name: 'resources/read methodology', body: rpc(43, 'resources/read', { uri: 'hoba://methodology' }) },
      { name: 'prompts/list', body: rpc(44, 'prompts/list') },
      {
        name: 'prompts/get',
        body: rpc(45, 'prompts/get', {
          name: 'analyse-observation',
          arguments: { observation: 'ghosted after the final interview', stage: 'team' },
        }),
      },
      { name: 'a string id', body: rpc('abc', 'tools/list') },
      { name: 'a batch', body: `[${ping(1)},${rpc(2, 'tools/call', { name: 'get_node', arguments: { id: 'M-001' } })}]` },
    ];
    for (const c of cases) {
      const answer = await same(c);
      assert.equal(answer.status, 200, `${c.name}: ${answer.body.slice(0, 200)}`);
      assert.ok(!('error' in (JSON.parse(answer.body) as object)), `${c.name}: ${answer.body.slice(0, 200)}`);
      if (c.name === 'search_registry on an account') {
        const hits = (JSON.parse(answer.body) as { result: { structuredContent: { results: Array<{ read?: unknown }> } } }).result
          .structuredContent.results;
        assert.ok(
          hits.some((h) => h.read !== undefined),
          answer.body.slice(0, 400),
        );
      }
    }
  });

  test('errors are the same: unknown IDs, bad arguments, unknown resources and methods, malformed prompt arguments', async () => {
    const cases: Case[] = [
      { name: 'unknown mechanism', body: rpc(1, 'tools/call', { name: 'get_node', arguments: { id: 'M-099' } }) },
      { name: 'unknown artifact', body: rpc(2, 'tools/call', { name: 'explain_observation', arguments: { artifacts: ['A-999'] } }) },
      {
        name: 'bad stage',
        body: rpc(3, 'tools/call', { name: 'explain_observation', arguments: { artifacts: ['A-009'], stage: 'lunch' } }),
      },
      { name: 'bad depth', body: rpc(4, 'tools/call', { name: 'traverse_graph', arguments: { id: 'M-001', depth: 9 } }) },
      {
        name: 'two inputs',
        body: rpc(5, 'tools/call', { name: 'explain_observation', arguments: { artifacts: ['A-009'], text: 'silence' } }),
      },
      { name: 'a local-only tool', body: rpc(6, 'tools/call', { name: 'get_registry_info', arguments: {} }) },
      { name: 'unknown tool', body: rpc(7, 'tools/call', { name: 'no_such_tool', arguments: {} }) },
      { name: 'unknown resource', body: rpc(8, 'resources/read', { uri: 'hoba://mechanism/M-999' }) },
      {
        name: 'non-string prompt argument',
        body: rpc(9, 'prompts/get', { name: 'analyse-observation', arguments: { observation: ['x'] } }),
      },
      { name: 'unknown method', body: rpc(10, 'no/such/method') },
    ];
    for (const c of cases) await same(c);
    const unknown = JSON.parse((await same(cases[0]!)).body) as { result: { isError: boolean; content: Array<{ text: string }> } };
    assert.equal(unknown.result.isError, true);
    assert.match(unknown.result.content[0]!.text, /Did you mean M-0\d\d/);
    const resource = JSON.parse((await same(cases[7]!)).body) as { error: { code: number; data?: unknown } };
    assert.deepEqual([resource.error.code, resource.error.data], [-32602, { uri: 'hoba://mechanism/M-999' }]);
  });

  test('Host and Origin (DNS rebinding): the same refusals and the same loopback names pass', async () => {
    const port = worker.port;
    const refusedHosts = [
      '127.attacker.example',
      '127.0.0.1.evil.example',
      '127.0.0.1.nip.io',
      `127.0.0.1.nip.io:${port}`,
      '127.1.evil.example',
      'localhost.evil.example',
      '127.0.0.1@evil.example',
      'evil.example',
      '128.0.0.1',
      '0.0.0.0',
      '::1',
      '[::ffff:127.0.0.1]',
      '127.8.9.10',
    ];
    for (const host of refusedHosts) {
      const answer = await same({ name: `Host: ${host}`, body: ping(), host });
      assert.equal(answer.status, 403, `Host: ${host}`);
      assert.match(answer.body, /DNS rebinding/);
    }
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${port}`,
      '127.1',
      '0x7f.1',
      '2130706433',
      'localhost',
      `LOCALHOST:${port}`,
      '[::1]',
      `[::1]:${port}`,
    ]) {
      assert.equal((await same({ name: `Host: ${host}`, body: ping(), host })).status, 200, `Host: ${host}`);
    }
    for (const origin of [
      'http://127.attacker.example',
      `http://127.0.0.1.evil.example:${port}`,
      'https://127.0.0.1.nip.io',
      'http://localhost.evil.example',
      'http://evil.example',
      'null',
      'file://',
      'https://127.0.0.2',
    ]) {
      const answer = await same({ name: `Origin: ${origin}`, body: ping(), headers: { ...JSON_HEADERS, origin } });
      assert.equal(answer.status, 403, `Origin: ${origin}`);
    }
    for (const origin of ['http://localhost:3000', `http://127.0.0.1:${port}`, 'http://[::1]:8080', 'https://127.1']) {
      assert.equal(
        (await same({ name: `Origin: ${origin}`, body: ping(), headers: { ...JSON_HEADERS, origin } })).status,
        200,
        `Origin: ${origin}`,
      );
    }
  });

  test('CORS: /mcp is not readable cross-origin; a preflight is refused as by hoba serve', async () => {
    const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
    const foreign = await same({
      name: 'preflight from elsewhere',
      method: 'OPTIONS',
      headers: { ...preflight, origin: 'http://evil.example' },
    });
    assert.equal(foreign.status, 403);
    const local = await same({
      name: 'preflight from a loopback origin',
      method: 'OPTIONS',
      headers: { ...preflight, origin: 'http://localhost:3000' },
    });
    assert.equal(local.status, 405);
    const answered = await same({
      name: 'a POST from a loopback origin',
      body: ping(),
      headers: { ...JSON_HEADERS, origin: 'http://localhost:3000' },
    });
    assert.equal(answered.status, 200);
    for (const answer of [foreign, local, answered])
      assert.equal(answer.headers['access-control-allow-origin'], undefined, 'no CORS grant on /mcp');
  });

  test('methods, content types, Accept, malformed bodies and batches: the same refusals', async () => {
    const cases: Case[] = [
      ...['GET', 'DELETE', 'PUT', 'PATCH'].map((method) => ({ name: method, method, headers: { accept: 'text/event-stream' } })),
      { name: 'HEAD', method: 'HEAD', headers: {} },
      ...['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx'].map((type) => ({
        name: type,
        body: ping(),
        headers: { ...JSON_HEADERS, 'content-type': type },
      })),
      { name: 'no Content-Type', body: ping(), headers: { accept: JSON_HEADERS.accept } },
      { name: 'a charset', body: ping(), headers: { ...JSON_HEADERS, 'content-type': 'application/json; charset=utf-8' } },
      ...['application/json', 'text/event-stream', '*/*', 'text/html', ''].map((accept) => ({
        name: `Accept: ${accept}`,
        body: ping(),
        headers: { ...JSON_HEADERS, accept },
      })),
      { name: 'no Accept', body: ping(), headers: { 'content-type': 'application/json' } },
      ...['{not json', '', '\u0000', '{"jsonrpc":"2.0","id":1,"method":"ping"'].map((body) => ({
        name: `not JSON: ${JSON.stringify(body)}`,
        body,
      })),
      ...[
        '{"jsonrpc":"2.0","id":7}',
        '{"jsonrpc":"1.0","id":"a","method":"ping"}',
        '{"id":3,"method":"ping"}',
        '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
        '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        'null',
        '42',
      ].map((body) => ({ name: `not a message: ${body}`, body })),
      { name: 'empty batch', body: '[]' },
      { name: 'bad batch element', body: `[${ping(1)},5]` },
      { name: 'initialize in a batch', body: `[${rpc(1, 'initialize', {})},${ping(2)}]` },
      { name: 'a batch over 100', body: `[${Array.from({ length: 101 }, (_, i) => ping(i)).join(',')}]` },
      { name: 'notifications only', body: '[{"jsonrpc":"2.0","method":"notifications/initialized"}]' },
      { name: 'an unsupported protocol version', body: ping(), headers: { ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' } },
    ];
    const statuses = new Map<string, number>();
    for (const c of cases) statuses.set(c.name, (await same(c)).status);
    assert.deepEqual(
      [
        statuses.get('GET'),
        statuses.get('HEAD'),
        statuses.get('text/plain'),
        statuses.get('Accept: */*'),
        statuses.get('empty batch'),
        statuses.get('notifications only'),
      ],
      [405, 405, 415, 406, 400, 202],
    );
  });

  test('bodies over 1 MiB get 413, declared or streamed, and are read to their end first; a body of exactly 1 MiB is read', async () => {
    const declared = await send(worker, { headers: JSON_HEADERS, body: 'x'.repeat(LIMIT + 1) });
    assert.equal(declared.status, 413);
    assert.match(declared.body, /1048576 bytes/);
    assert.equal(
      (await send(worker, { headers: JSON_HEADERS, body: Array.from({ length: 24 }, () => Buffer.alloc(64 * 1024, 0x20)) })).status,
      413,
      'chunked',
    );
    const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"';
    const exact = `${head}${'a'.repeat(LIMIT - head.length - 4)}"}}}`;
    assert.equal(Buffer.byteLength(exact), LIMIT);
    assert.equal((await send(worker, { headers: JSON_HEADERS, body: exact })).status, 200);
    for (const framing of ['declared', 'chunked'] as const) {
      const socket = connect(Number(worker.port), '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (b: Buffer) => received.push(b));
      const closed = new Promise<void>((done) => socket.on('close', () => done()));
      socket.on('error', () => undefined);
      const length = framing === 'declared' ? `Content-Length: ${LIMIT + 1 + 16}` : 'Transfer-Encoding: chunked';
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${worker.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${length}\r\nConnection: close\r\n\r\n`,
      );
      if (framing === 'chunked') socket.write(`${(LIMIT + 1).toString(16)}\r\n`);
      socket.write(Buffer.alloc(LIMIT + 1, 0x20));
      if (framing === 'chunked') socket.write('\r\n');
      await new Promise((done) => setTimeout(done, 300));
      assert.equal(Buffer.concat(received).length, 0, `${framing}: nothing is answered while the body is still coming`);
      socket.end(framing === 'chunked' ? '10\r\n                \r\n0\r\n\r\n' : ' '.repeat(16));
      await closed;
      assert.match(Buffer.concat(received).toString('latin1'), /^HTTP\/1\.1 413 /, framing);
    }
  });

  test('the endpoint is /mcp exactly: other paths are the site’s (405 for a POST, 404 for a GET)', async () => {
    for (const path of ['/mcp/', '/MCP', '/mcp%00']) {
      const post = await send(worker, { path, headers: JSON_HEADERS, body: ping() });
      assert.ok(post.status === 405 || post.status === 400, `POST ${path}: ${post.status}`);
      const get = await send(worker, { path, method: 'GET' });
      assert.ok(get.status === 404 || get.status === 400, `GET ${path}: ${get.status}`);
    }
    assert.equal((await send(worker, { path: '/mcp?x=1', headers: JSON_HEADERS, body: ping() })).status, 200, 'a query string is ignored');
  });

  test('where the runtime itself answers, it refuses rather than serves: no Host or an empty one is a 400', async () => {
    // node:http refuses a request without Host (400) but hands an empty Host to the endpoint (403); workerd
    // refuses both before the worker runs. Over-long URLs and headers, which node:http refuses with 431,
    // workerd passes on (Cloudflare's edge caps them at 16 KiB and 32 KiB before a worker runs).
    assert.equal((await send(worker, { headers: JSON_HEADERS, body: ping(), host: null })).status, 400);
    const socket = connect(Number(worker.port), '127.0.0.1');
    socket.end('POST /mcp HTTP/1.1\r\nHost: \r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    let got = '';
    for await (const chunk of socket) got += (chunk as Buffer).toString('latin1');
    assert.match(got.split('\r\n', 1)[0]!, / 400 /);
    assert.equal((await send(worker, { path: `/mcp?${'a'.repeat(20_000)}`, headers: JSON_HEADERS, body: ping() })).status, 200);
  });

  test('it stays up and answering through rounds of hostile requests', async () => {
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        send(worker, { headers: JSON_HEADERS, body: 'x'.repeat(LIMIT + 1) }),
        send(worker, { headers: JSON_HEADERS, body: `[${Array.from({ length: 20 }, (_, i) => ping(i)).join(',')}]` }),
        send(worker, { headers: JSON_HEADERS, body: '{not json' }),
        send(worker, { headers: JSON_HEADERS, body: ping(), host: '127.0.0.1.nip.io' }),
        send(worker, { headers: { ...JSON_HEADERS, origin: 'http://127.attacker.example' }, body: ping() }),
        send(worker, {
          headers: JSON_HEADERS,
          body: rpc(1, 'tools/call', { name: 'search_registry', arguments: { query: 'q'.repeat(LIMIT / 2) } }),
        }),
        send(worker, {
          headers: JSON_HEADERS,
          body: rpc(1, 'tools/call', { name: 'explain_observation', arguments: { artifacts: ['A-001', 'A-009'] } }),
        }),
        send(worker, { method: 'GET' }),
      ]);
      for (const a of answers) assert.ok(a.status < 500, `no 5xx: ${a.status} ${a.body.slice(0, 200)}`);
    }
    assert.equal((await send(worker, { headers: JSON_HEADERS, body: ping() })).status, 200, 'still answering');
  });
});
