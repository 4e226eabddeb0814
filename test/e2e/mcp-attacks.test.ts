// Attacks on the MCP endpoint over HTTP, as issue #10 found them and as a hostile page or a careless client
// would try them, against both doors: `hoba-mcp --http` and /mcp mounted in `hoba serve`. DNS-rebinding
// Host and Origin forms, oversized and malformed bodies, wrong content types, batches, other methods,
// Accept variants, unknown paths, a stalled client; and the server stays up with bounded memory. Every
// request goes to 127.0.0.1; every answer must be JSON-RPC (or an empty 202), never a 5xx.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../helpers.ts';
import { CLI, MCP } from '../dist.ts';

const LIMIT = 1024 * 1024;
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const ping = (id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
type RpcError = { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } };

/** One request with exactly these headers (Host too; none at all when host is null). */
function send(
  url: URL,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string | number>;
    host?: string | null;
    body?: string | Buffer | Buffer[];
  },
): Promise<Answer> {
  const { method = 'POST', path = url.pathname, host, body } = options;
  const headers: Record<string, string | number> = { ...options.headers };
  if (host !== undefined && host !== null) headers['host'] = host;
  const chunked = Array.isArray(body);
  if (body !== undefined && !chunked && headers['content-length'] === undefined) headers['content-length'] = Buffer.byteLength(body);
  return new Promise((done, fail) => {
    const req = request({ hostname: '127.0.0.1', port: url.port, path, method, headers, agent: false, setHost: host !== null }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    // The server may answer (413) and close before the whole body is written: that answer is what counts.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : fail(err)));
    if (chunked) {
      for (const chunk of body) if (!req.destroyed) req.write(chunk);
      req.end();
    } else req.end(body);
  });
}

/** The status line the server answers to exactly these bytes (what node:http would not send). */
async function rawStatusLine(url: URL, bytes: string): Promise<string> {
  const socket = connect(Number(url.port), '127.0.0.1');
  socket.end(bytes);
  let got = '';
  for await (const chunk of socket) got += (chunk as Buffer).toString('latin1');
  return got.split('\r\n', 1)[0]!;
}

const post = (url: URL, body: string | Buffer | Buffer[], headers: Record<string, string> = {}, host?: string | null) =>
  send(url, { headers: { ...JSON_HEADERS, ...headers }, body, ...(host !== undefined ? { host } : {}) });

/** The JSON-RPC error of an answer (asserting that it is one, with a message for a person and no stack). */
function rpcError(answer: Answer): RpcError['error'] & { id: RpcError['id'] } {
  assert.match(String(answer.headers['content-type']), /^application\/json/, answer.body);
  const body = JSON.parse(answer.body) as RpcError;
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(typeof body.error?.code, 'number', answer.body);
  assert.ok(body.error.message.length > 10, answer.body);
  assert.doesNotMatch(body.error.message, /\n\s+at /, 'no stack trace');
  return { ...body.error, id: body.id };
}

async function startedBy(child: ChildProcess, pattern: RegExp): Promise<URL> {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = pattern.exec(out);
    if (m) return new URL(m[1]!);
    if (child.exitCode !== null || Date.now() > deadline) assert.fail(`no ${pattern} in:\n${out}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

interface Target {
  name: string;
  child?: ChildProcess;
  url?: URL;
  start(): Promise<void>;
}

const site = mkdtempSync(join(tmpdir(), 'hoba-mcp-attacks-'));
const TARGETS: Target[] = [
  {
    name: 'hoba-mcp --http',
    async start() {
      this.child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      this.url = await startedBy(this.child, /(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    },
  },
  {
    name: 'hoba serve, /mcp',
    async start() {
      this.child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--out', join(site, '_site')], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.url = await startedBy(this.child, /MCP \(HTTP\)\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    },
  },
];
after(() => rmSync(site, { recursive: true, force: true }));

for (const target of TARGETS) {
  describe(`MCP over HTTP under attack: ${target.name}`, () => {
    let url: URL;
    before(async () => {
      await target.start();
      url = target.url!;
    });
    after(async () => {
      if (target.child && target.child.exitCode === null) {
        target.child.kill('SIGTERM');
        await once(target.child, 'exit');
      }
    });

    test('Host names that merely start with 127. (DNS rebinding) are refused; real loopback names pass', async () => {
      const port = url.port;
      const refused = [
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
        // A loopback address, but neither a loopback name nor the address the server is bound to: the
        // SDK's check (validateHostHeader) takes an allowlist of names, and this server's is those.
        '127.8.9.10',
      ];
      for (const host of refused) {
        const answer = await post(url, ping(), {}, host);
        assert.equal(answer.status, 403, `Host: ${host}`);
        assert.match(rpcError(answer).message, /DNS rebinding/);
      }
      assert.equal((await post(url, ping(), {}, null)).status, 400, 'no Host header at all (node:http refuses HTTP/1.1 without one)');
      assert.match(
        await rawStatusLine(
          url,
          `POST ${url.pathname} HTTP/1.1\r\nHost: \r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
        ),
        / 403 /,
        'an empty Host',
      );
      // URL parsing writes numeric IPv4 forms (127.1, 0x7f.1, 2130706433) as 127.0.0.1: they are loopback
      // addresses, and no DNS name can take that form, so they pass.
      const allowed = [
        '127.0.0.1',
        `127.0.0.1:${port}`,
        '127.1',
        '0x7f.1',
        '2130706433',
        'localhost',
        `LOCALHOST:${port}`,
        '[::1]',
        `[::1]:${port}`,
      ];
      for (const host of allowed) {
        const answer = await post(url, ping(), {}, host);
        assert.equal(answer.status, 200, `Host: ${host}: ${answer.body}`);
      }
    });

    test('Origins that merely start with 127. are refused, and so are null and file origins; loopback origins pass', async () => {
      // https://127.0.0.2: another service on this machine, not a loopback name (the SDK's validateOriginHeader, with the loopback names).
      const refused = [
        'http://127.attacker.example',
        `http://127.0.0.1.evil.example:${url.port}`,
        'https://127.0.0.1.nip.io',
        'http://localhost.evil.example',
        'http://evil.example',
        'null',
        'file://',
        'https://127.0.0.2',
      ];
      for (const origin of refused) {
        const answer = await post(url, ping(), { origin });
        assert.equal(answer.status, 403, `Origin: ${origin}`);
        assert.match(rpcError(answer).message, /Origin/);
      }
      for (const origin of ['http://localhost:3000', `http://127.0.0.1:${url.port}`, 'http://[::1]:8080', 'https://127.1']) {
        assert.equal((await post(url, ping(), { origin })).status, 200, `Origin: ${origin}`);
      }
    });

    test('bodies over 1 MiB get 413, declared or streamed; a body of exactly 1 MiB is read', async () => {
      const declared = await post(url, 'x'.repeat(LIMIT + 1));
      assert.equal(declared.status, 413);
      assert.match(rpcError(declared).message, /1048576 bytes/);
      const streamed = await post(
        url,
        Array.from({ length: 24 }, () => Buffer.alloc(64 * 1024, 0x20)),
      );
      assert.equal(streamed.status, 413, 'a chunked body without Content-Length');
      const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"';
      const exact = `${head}${'a'.repeat(LIMIT - head.length - 4)}"}}}`;
      assert.equal(Buffer.byteLength(exact), LIMIT);
      assert.equal((await post(url, exact)).status, 200);
    });

    test('an oversized body is read to its end before the 413, so the client is not reset while sending', async () => {
      // Answering and closing while the client is still uploading makes the client's kernel see a reset,
      // which can discard the 413 before the client reads it (fetch then fails with no status). So the
      // server reads on, up to its drain limit, and answers once the body has arrived.
      for (const framing of ['declared', 'chunked'] as const) {
        const socket = connect(Number(url.port), '127.0.0.1');
        const received: Buffer[] = [];
        socket.on('data', (b: Buffer) => received.push(b));
        const closed = new Promise<void>((done) => socket.on('close', () => done()));
        socket.on('error', () => undefined);
        const length = framing === 'declared' ? `Content-Length: ${LIMIT + 1 + 16}` : 'Transfer-Encoding: chunked';
        socket.write(
          `POST ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${length}\r\nConnection: close\r\n\r\n`,
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

    test('malformed bodies: -32700 for what is not JSON, -32600 (with the id when it is known) for JSON that is not a message', async () => {
      for (const body of ['{not json', '', '\u0000', Buffer.from([0xff, 0xfe, 0x7b]), '{"jsonrpc":"2.0","id":1,"method":"ping"']) {
        const answer = await post(url, body);
        assert.equal(answer.status, 400, JSON.stringify(String(body)));
        assert.deepEqual([rpcError(answer).code, rpcError(answer).id], [-32700, null]);
      }
      const cases: Array<[string, string | number | null]> = [
        ['{"jsonrpc":"2.0","id":7}', 7],
        ['{"jsonrpc":"1.0","id":"a","method":"ping"}', 'a'],
        ['{"id":3,"method":"ping"}', 3],
        ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', null],
        ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
        ['{"jsonrpc":"2.0","id":2,"method":5}', 2],
        ['{"__proto__":{"jsonrpc":"2.0"},"id":4,"method":"ping"}', 4],
        ['null', null],
        ['42', null],
        ['"ping"', null],
        [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, null],
      ];
      for (const [body, id] of cases) {
        const answer = await post(url, body);
        assert.equal(answer.status, 400, body.slice(0, 80));
        assert.deepEqual([rpcError(answer).code, rpcError(answer).id], [-32600, id], body.slice(0, 80));
      }
    });

    test('wrong content types get 415 with a JSON-RPC body; application/json with a charset is fine', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
        const answer = await post(url, ping(), { 'content-type': type });
        assert.equal(answer.status, 415, type);
        assert.match(rpcError(answer).message, /Content-Type/);
      }
      const none = await send(url, { headers: { accept: JSON_HEADERS.accept }, body: ping() });
      assert.equal(none.status, 415, 'no Content-Type');
      assert.equal((await post(url, ping(), { 'content-type': 'application/json; charset=utf-8' })).status, 200);
    });

    test('batches: an empty one is an Invalid Request with id null; a good one is answered; a bad element is refused', async () => {
      const empty = await post(url, '[]');
      assert.equal(empty.status, 400);
      assert.deepEqual([rpcError(empty).code, rpcError(empty).id], [-32600, null]);
      const good = await post(url, `[${ping(1)},${ping(2)}]`);
      assert.equal(good.status, 200);
      assert.deepEqual((JSON.parse(good.body) as Array<{ id: number }>).map((r) => r.id).sort(), [1, 2]);
      const bad = await post(url, `[${ping(1)},5]`);
      assert.equal(bad.status, 400);
      assert.equal(rpcError(bad).code, -32600);
      assert.match(rpcError(bad).message, /element 1/);
      const notifications = await post(url, '[{"jsonrpc":"2.0","method":"notifications/initialized"}]');
      assert.equal(notifications.status, 202, 'notifications only: accepted, nothing to answer');
    });

    test('GET, DELETE and other methods get 405 with Allow: POST', async () => {
      for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
        const answer = await send(url, { method, headers: { accept: 'text/event-stream' } });
        assert.equal(answer.status, 405, method);
        assert.equal(answer.headers['allow'], 'POST');
        assert.match(rpcError(answer).message, /POST only/);
      }
      const head = await send(url, { method: 'HEAD' });
      assert.equal(head.status, 405);
      assert.equal(head.body, '');
    });

    test('a client that does not accept both JSON and event streams gets 406 saying exactly what to send', async () => {
      for (const accept of ['application/json', 'text/event-stream', '*/*', 'text/html', '']) {
        const answer = await post(url, ping(), { accept });
        assert.equal(answer.status, 406, `Accept: ${accept}`);
        assert.match(rpcError(answer).message, /Accept: application\/json, text\/event-stream/);
      }
      const none = await send(url, { headers: { 'content-type': 'application/json' }, body: ping() });
      assert.equal(none.status, 406, 'no Accept header');
      for (const accept of ['application/json, text/event-stream', 'text/event-stream, application/json;q=0.9']) {
        assert.equal((await post(url, ping(), { accept })).status, 200, `Accept: ${accept}`);
      }
    });

    test('resources/read of an unknown ID and prompts/get with a non-string argument are the client’s errors, not -32603', async () => {
      const resource = await post(
        url,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'hoba://mechanism/M-999' } }),
      );
      const notFound = JSON.parse(resource.body) as RpcError & { error: { data?: unknown } };
      assert.equal(notFound.error.code, -32602, resource.body);
      assert.deepEqual(notFound.error.data, { uri: 'hoba://mechanism/M-999' });
      const prompt = await post(
        url,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'prompts/get',
          params: { name: 'analyse-observation', arguments: { observation: ['x'] } },
        }),
      );
      const invalid = JSON.parse(prompt.body) as RpcError;
      assert.equal(invalid.error.code, -32602, prompt.body);
      assert.match(invalid.error.message, /arguments\.observation: expected string/);
    });

    test('over-long URLs and headers are refused without harm; a stalled client does not hold up others', async () => {
      assert.equal((await send(url, { path: `${url.pathname}?${'a'.repeat(20_000)}`, headers: JSON_HEADERS, body: ping() })).status, 431);
      assert.equal((await post(url, ping(), { 'x-padding': 'p'.repeat(20_000) })).status, 431);
      // Headers and half a body, then nothing: the server must go on answering everyone else.
      const stalled = connect(Number(url.port), '127.0.0.1');
      await once(stalled, 'connect');
      stalled.write(
        `POST ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
      );
      try {
        assert.equal((await post(url, ping())).status, 200);
      } finally {
        stalled.destroy();
      }
    });

    test('the server stays up and its memory stays bounded over repeated rounds of attacks', async () => {
      const pid = target.child!.pid!;
      const round = async () => {
        const answers = await Promise.all([
          post(url, 'x'.repeat(LIMIT + 1)),
          post(
            url,
            Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 0x20)),
          ),
          post(url, `[${Array.from({ length: 20 }, (_, i) => ping(i)).join(',')}]`),
          post(url, '{not json'),
          post(url, '[]'),
          post(url, ping(), {}, '127.0.0.1.nip.io'),
          post(url, ping(), { origin: 'http://127.attacker.example' }),
          post(url, ping(), { accept: 'application/json' }),
          post(
            url,
            JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'search_registry', arguments: { query: 'q'.repeat(LIMIT / 2) } },
            }),
          ),
          post(
            url,
            JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'explain_observation', arguments: { artifacts: ['A-001', 'A-009'] } },
            }),
          ),
          send(url, { method: 'GET' }),
        ]);
        for (const a of answers) assert.ok(a.status < 500, `no 5xx: ${a.status} ${a.body.slice(0, 200)}`);
      };
      await round();
      await round();
      const warm = rssKiB(pid);
      for (let i = 0; i < 8; i++) await round();
      const later = rssKiB(pid);
      assert.equal(target.child!.exitCode, null, 'still running');
      assert.equal((await post(url, ping())).status, 200, 'still answering');
      // Each round sends about 4 MiB; a leak of what a round reads would show as tens of MiB here.
      assert.ok(later - warm < 64 * 1024, `RSS grew from ${warm} KiB to ${later} KiB over 8 rounds`);
    });

    if (target.name === 'hoba-mcp --http') {
      test('other paths get 404 with a JSON-RPC body that says where the endpoint is; a query string is ignored', async () => {
        for (const path of ['/mcp/', '/MCP', '/', '/mcp/../mcp', '/%6Dcp', '/mcp%00']) {
          const answer = await send(url, { path, headers: JSON_HEADERS, body: ping() });
          assert.equal(answer.status, 404, path);
          assert.match(rpcError(answer).message, /POST to \/mcp/);
        }
        assert.equal((await send(url, { path: '/mcp?x=1', headers: JSON_HEADERS, body: ping() })).status, 200);
      });
    }
  });
}
