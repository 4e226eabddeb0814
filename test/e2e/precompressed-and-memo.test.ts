// The behaviour the HTTP doors benchmark's figures rest on (bench/http.ts; its smoke run is in
// bench-smoke.test.ts): precompressed variants (deterministic, sent only when accepted and only when they are
// the file compressed), ETags and 304s per encoding, and the hosted MCP endpoint's shared server and
// answer memo giving every client its own answer under its own id, however many ask at once.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openCheckoutAtlas } from '../../src/mcp/atlas.ts';
import { createMcpHttpHandler } from '../../src/mcp/http.ts';
import { compressedVariants, isCompressible, MIN_COMPRESS_BYTES } from '../../src/publish/compress.ts';
import { nginxSnippet } from '../../src/publish/host.ts';
import { acceptedEncodings, createSiteServer } from '../../src/serve/server.ts';
import { http } from '../contract.ts';
import { sharedSite, writableSite, type BuiltSite } from '../site-fixture.ts';
import { ROOT } from '../helpers.ts';

describe('precompressed variants', () => {
  let site: BuiltSite;
  before(() => {
    site = sharedSite();
  });

  test('every served text file of 1 KiB or more has a .gz and a .br that decompress to it; nothing else has one', () => {
    const paths = new Set(site.site.files.map((f) => f.path));
    let compressed = 0;
    for (const f of site.site.files) {
      if (/\.(gz|br)$/.test(f.path)) {
        const original = site.site.files.find((o) => o.path === f.path.slice(0, -3));
        assert.ok(original && isCompressible(original), `${f.path} belongs to a compressible file`);
        assert.equal(f.url, undefined, `${f.path} has no URL of its own`);
        assert.ok(
          (f.path.endsWith('.gz') ? gunzipSync(f.bytes) : brotliDecompressSync(f.bytes)).equals(original.bytes),
          `${f.path} decompresses to ${original.path}`,
        );
        continue;
      }
      const expected =
        f.url !== undefined && f.bytes.length >= MIN_COMPRESS_BYTES && /\.(json|html|svg|txt|js|css|xml|ndjson|csv|graphml)$/.test(f.path);
      assert.equal(paths.has(`${f.path}.gz`) && paths.has(`${f.path}.br`), expected, f.path);
      if (expected) compressed++;
    }
    assert.ok(compressed > 100, 'the API documents are compressed');
    assert.ok(!paths.has('_nginx.conf.gz') && !paths.has('favicon.ico.gz'), 'host files and the icon are not');
  });

  test('compression is deterministic: same bytes every time, a gzip header with no name, time or platform', () => {
    const files = site.site.files.filter((f) => !/\.(gz|br)$/.test(f.path));
    const again = compressedVariants(files);
    for (const v of again) assert.ok(v.bytes.equals(site.file(v.path)), v.path);
    const gz = site.file('api/v1/graph.json.gz');
    assert.deepEqual([...gz.subarray(0, 4)], [0x1f, 0x8b, 8, 0], 'deflate, no flags (no file name, no comment)');
    assert.equal(gz.readUInt32LE(4), 0, 'MTIME 0');
    assert.equal(gz[9], 255, 'OS unknown, whatever the platform');
  });

  test('the nginx snippet sends the .gz files (gzip_static, gzip_vary) and names the brotli_static line', () => {
    const snippet = nginxSnippet();
    assert.match(snippet, /^gzip_static on;$/m);
    assert.match(snippet, /^gzip_vary on;$/m);
    assert.match(snippet, /^# brotli_static on;$/m);
    assert.ok(site.file('_nginx.conf').equals(Buffer.from(snippet)));
  });

  test('Accept-Encoding: q-values, *, x-gzip, refusals; br first at equal weight', () => {
    assert.deepEqual(acceptedEncodings(undefined), []);
    assert.deepEqual(acceptedEncodings(''), []);
    assert.deepEqual(acceptedEncodings('gzip, deflate, br'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('gzip;q=1.0, br;q=0.5'), ['gzip', 'br']);
    assert.deepEqual(acceptedEncodings('br;q=0, gzip'), ['gzip']);
    assert.deepEqual(acceptedEncodings('*'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('*;q=0.1, gzip;q=0'), ['br']);
    assert.deepEqual(acceptedEncodings('X-GZIP'), ['gzip']);
    assert.deepEqual(acceptedEncodings('identity'), []);
    assert.deepEqual(acceptedEncodings('deflate;q=abc, gzip;q=x'), []);
  });

  describe('through hoba serve', () => {
    // A copy: one test edits a file of the site on disk.
    let copy: ReturnType<typeof writableSite>;
    let server: Server;
    let origin: string;
    before(async () => {
      copy = writableSite();
      server = createSiteServer({ root: copy.root });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      server.close();
      server.closeAllConnections();
      copy.dispose();
    });

    test('each encoding has its ETag; If-None-Match gets 304 for the representation it names only', async () => {
      const path = '/api/v1/mechanisms/M-001';
      const plain = await http(origin, path);
      const gz = await http(origin, path, { headers: { 'Accept-Encoding': 'gzip' } });
      const br = await http(origin, path, { headers: { 'Accept-Encoding': 'br' } });
      assert.deepEqual(
        [plain.headers['content-encoding'], gz.headers['content-encoding'], br.headers['content-encoding']],
        [undefined, 'gzip', 'br'],
      );
      const tags = [plain, gz, br].map((r) => String(r.headers['etag']));
      assert.equal(new Set(tags).size, 3, 'three ETags');
      for (const [encoding, tag] of [
        [undefined, tags[0]],
        ['gzip', tags[1]],
        ['br', tags[2]],
      ] as const) {
        const headers: Record<string, string> = { 'If-None-Match': tag! };
        if (encoding) headers['Accept-Encoding'] = encoding;
        const r = await http(origin, path, { headers });
        assert.equal(r.status, 304, `${encoding ?? 'identity'}`);
        assert.equal(r.body.length, 0);
        assert.equal(r.headers['etag'], tag);
        assert.match(String(r.headers['vary']), /Accept-Encoding/);
      }
      // The gzip ETag does not validate the identity answer.
      const other = await http(origin, path, { headers: { 'If-None-Match': tags[1]! } });
      assert.equal(other.status, 200);
      assert.ok(other.body.equals(site.file('api/v1/mechanisms/M-001.json')));
      const head = await http(origin, path, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
      assert.equal(head.body.length, 0);
      assert.equal(head.headers['content-length'], String(site.file('api/v1/mechanisms/M-001.json.gz').length));
    });

    test('an error document is sent compressed too, with its status', async () => {
      const r = await http(origin, '/api/v1/mechanisms/M-999', { headers: { 'Accept-Encoding': 'gzip' } });
      assert.equal(r.status, 404);
      const body = r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;
      assert.ok(body.equals(site.file('problems/not-found.json')));
    });

    test('a file edited on disk is served as it now is, and its stale variants are not sent', async () => {
      const path = '/api/v1/mechanisms/M-002';
      const before = await http(origin, path, { headers: { 'Accept-Encoding': 'gzip, br' } });
      assert.equal(before.headers['content-encoding'], 'br');
      const edited = Buffer.from('{"edited": true}\n');
      writeFileSync(join(copy.root, 'api', 'v1', 'mechanisms', 'M-002.json'), edited);
      const after = await http(origin, path, { headers: { 'Accept-Encoding': 'gzip, br' } });
      assert.equal(after.status, 200);
      assert.equal(after.headers['content-encoding'], undefined, 'the .br and .gz no longer match the file');
      assert.ok(after.body.equals(edited));
      assert.notEqual(after.headers['etag'], before.headers['etag']);
      assert.equal(after.headers['vary'], undefined);
    });
  });
});

describe('the hosted MCP endpoint under concurrency', () => {
  const servers: Server[] = [];
  const start = async (memoMb?: string): Promise<URL> => {
    const saved = process.env['HOBA_MCP_CACHE_MB'];
    if (memoMb === undefined) delete process.env['HOBA_MCP_CACHE_MB'];
    else process.env['HOBA_MCP_CACHE_MB'] = memoMb;
    const handle = createMcpHttpHandler(() => openCheckoutAtlas(ROOT), { bindHost: '127.0.0.1' });
    // The budget is read when the shared server is built: in the background, from now.
    const server = createServer((req, res) => void handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    await post(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), { jsonrpc: '2.0', id: 0, method: 'ping' });
    if (saved === undefined) delete process.env['HOBA_MCP_CACHE_MB'];
    else process.env['HOBA_MCP_CACHE_MB'] = saved;
    servers.push(server);
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  };
  after(() => {
    for (const s of servers) {
      s.close();
      s.closeAllConnections();
    }
  });

  const IDS = ['M-001', 'M-002', 'M-004', 'A-001', 'A-009', 'B-001', 'P-001', 'L-001'];
  const QUERIES = ['ghosted after final interview', 'salary lowered', 'rejected within minutes', 'role reposted'];
  /** Many requests at once, every one with the same JSON-RPC id 1 or "x", each asking for something else. */
  const calls = () =>
    Array.from({ length: 160 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i % 3 === 0 ? 'x' : 1,
      method: 'tools/call',
      params:
        i % 2 === 0
          ? { name: 'get_node', arguments: { id: IDS[i % IDS.length] } }
          : { name: 'search_registry', arguments: { query: QUERIES[i % QUERIES.length] } },
    }));

  test('every client gets its own answer under its own id, memo on or off, and both say the same', async () => {
    const [memo, direct] = [await start(), await start('0')];
    const answers = await Promise.all(
      [memo, direct].map((url) => Promise.all(calls().map((c) => post(url, c).then((a) => ({ call: c, ...a }))))),
    );
    for (const [i, { call, status, body }] of answers[0]!.entries()) {
      assert.equal(status, 200);
      const answer = JSON.parse(body) as { id: unknown; result: { isError?: boolean; structuredContent: Record<string, unknown> } };
      assert.equal(answer.id, call.id, `request ${i}: its own id`);
      assert.notEqual(answer.result.isError, true, body.slice(0, 200));
      const args = call.params.arguments as { id?: string; query?: string };
      if (args.id)
        assert.equal((answer.result.structuredContent['node'] as { id: string }).id, args.id, `request ${i}: the node it asked for`);
      else assert.ok(JSON.stringify(answer.result.structuredContent).length > 50, `request ${i}: search results`);
      assert.equal(body, answers[1]![i]!.body, `request ${i}: the memo answers exactly what the server does`);
    }
  });

  test('a batch with repeated ids is answered in order; tool errors are answered and not kept', async () => {
    const url = await start();
    const batch = [
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_node', arguments: { id: 'M-001' } } },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_node', arguments: { id: 'M-002' } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 'z', method: 'tools/call', params: { name: 'get_node', arguments: { id: 'M-999' } } },
    ];
    for (let round = 0; round < 2; round++) {
      const { status, body } = await post(url, batch);
      assert.equal(status, 200);
      const answers = JSON.parse(body) as Array<{
        id: unknown;
        result: { isError?: boolean; structuredContent?: { node: { id: string } } };
      }>;
      assert.deepEqual(
        answers.map((a) => a.id),
        [7, 7, 'z'],
        'one answer per request, none for the notification',
      );
      assert.deepEqual(
        answers.slice(0, 2).map((a) => a.result.structuredContent!.node.id),
        ['M-001', 'M-002'],
      );
      assert.equal(answers[2]!.result.isError, true);
    }
  });
});

/** One POST of a JSON-RPC body to the MCP endpoint. */
function post(url: URL, body: unknown): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(text);
  });
}
