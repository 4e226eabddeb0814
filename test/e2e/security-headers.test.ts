// Security headers (issue #27, item 14): a Content-Security-Policy the pages pass, framing refused,
// no Referer to other sites, no sniffing, on every response of `hoba serve` (errors, redirects, 304s,
// preflights and /mcp included), `hoba-mcp --http`, and in `_headers` and `_nginx.conf`. The pages hold no
// inline script or style for the policy to refuse (the browser suite runs them with it on). The worker and
// nginx are checked on every answer of the HTTP attack suite (http-attacks.test.ts) and on every file by the
// contract suites.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { buildInMemory, type Built } from '../../src/workflows/build.ts';
import { headersFile, nginxSnippet } from '../../src/publish/host.ts';
import { CONTENT_SECURITY_POLICY, HEADER_RULES, SECURITY_HEADERS } from '../../src/publish/routes.ts';
import { serveMounts } from '../../src/workflows/mounts.ts';
import { createSiteServer } from '../../src/serve/server.ts';
import { http, rawHttp, statusOf } from '../contract.ts';
import { MCP } from '../dist.ts';
import { sharedSite, type BuiltSite } from '../site-fixture.ts';
import { ROOT } from '../helpers.ts';

let built: Built;
before(() => {
  built = buildInMemory(ROOT);
});

const missing = (headers: Record<string, string | string[] | undefined>) =>
  Object.entries(SECURITY_HEADERS)
    .filter(([name, value]) => headers[name.toLowerCase()] !== value)
    .map(([name]) => `${name}: ${String(headers[name.toLowerCase()] ?? 'missing')}`);

describe('the pages need nothing the policy refuses', () => {
  test('the policy allows the site only, and no framing', () => {
    assert.match(CONTENT_SECURITY_POLICY, /default-src 'none'/);
    assert.match(CONTENT_SECURITY_POLICY, /frame-ancestors 'none'/);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval|\*|data:|https?:/);
  });

  test('no page has an inline script or style, a style attribute, an event handler or a javascript: URL', () => {
    const pages = built.site.files.filter((f) => f.path.endsWith('.html'));
    assert.ok(pages.length > 300, `${pages.length} pages`);
    const wrong: string[] = [];
    for (const f of pages) {
      const html = f.bytes.toString('utf8');
      // A JSON-LD block is data, not a script: a policy does not govern it.
      for (const m of html.matchAll(/<script\b([^>]*)>/g)) {
        if (!/\bsrc="\/assets\/[^"]+\.js"/.test(m[1]!) && !/type="application\/ld\+json"/.test(m[1]!))
          wrong.push(`${f.path}: inline script ${m[0]}`);
      }
      if (/<style\b/.test(html)) wrong.push(`${f.path}: inline <style>`);
      if (/<[^>]+\sstyle=/.test(html)) wrong.push(`${f.path}: style attribute`);
      if (/<[^>]+\son[a-z]+=/.test(html)) wrong.push(`${f.path}: event handler attribute`);
      if (/javascript:/i.test(html)) wrong.push(`${f.path}: javascript: URL`);
      for (const m of html.matchAll(/<(?:link|script|img)\b[^>]*\s(?:href|src)="([^"]+)"/g)) {
        if (!m[1]!.startsWith('/') || m[1]!.startsWith('//'))
          if (!/rel="(?:canonical|license)"/.test(m[0])) wrong.push(`${f.path}: loads ${m[1]} from elsewhere`);
      }
    }
    assert.deepEqual(wrong.slice(0, 20), []);
  });
});

describe('the host files send them on every path', () => {
  test('_headers: a /* block with every security header, repeated in no other block', () => {
    const text = headersFile();
    const all = text.split('\n/*\n')[1]!.split('\n/')[0]!;
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      assert.ok(all.includes(`  ${name}: ${value}`), `${name} in /*`);
      assert.equal(text.split(`  ${name}:`).length - 1, 1, `${name} appears once`);
    }
  });

  test('_nginx.conf: at the server level and in every location that adds headers of its own (nginx does not inherit add_header there), errors included', () => {
    const text = nginxSnippet();
    const top = text.split('\nlocation ')[0]!;
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      assert.ok(top.includes(`add_header ${name} "${value}" always;`), `${name} at the server level`);
    for (const block of text.split('\nlocation ').slice(1)) {
      if (!block.includes('add_header')) continue;
      for (const part of block
        .split(/if \(\$request_method = OPTIONS\) \{/)
        .slice(1)
        .concat(block)) {
        for (const name of Object.keys(SECURITY_HEADERS))
          assert.ok(part.includes(`add_header ${name} `), `${name} in location ${block.split('\n')[0]}`);
      }
    }
    assert.equal(HEADER_RULES.length, text.split('\nlocation ').filter((b) => /^(=|\^~) /.test(b)).length);
  });
});

describe('hoba serve and hoba-mcp --http send them on every answer', () => {
  let site: BuiltSite;
  let origin: string;
  const server = () => createSiteServer({ root: site.root, mounts: serveMounts({ checkout: ROOT, host: '127.0.0.1' }) });
  let stop: () => Promise<void>;
  before(async () => {
    site = sharedSite();
    const s = server();
    s.listen(0, '127.0.0.1');
    await once(s, 'listening');
    origin = `http://127.0.0.1:${(s.address() as { port: number }).port}`;
    stop = () => new Promise((done) => (s.close(() => done()), s.closeAllConnections()));
  });
  after(async () => {
    await stop?.();
  });

  test('files, errors, redirects, 304s, 412s, preflights, malformed requests and /mcp', async () => {
    const etag = String((await http(origin, '/api/v1/graph')).headers['etag']);
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const cases: Array<[string, number, Parameters<typeof http>[2]?]> = [
      ['/', 200],
      ['/developers/', 200],
      ['/api/v1/graph', 200],
      ['/assets/site.css', 200],
      ['/favicon.ico', 200],
      ['/api/v1/graph', 304, { headers: { 'If-None-Match': etag } }],
      ['/api/v1/graph', 412, { headers: { 'If-Match': '"other"' } }],
      ['/developers', 301],
      ['/nope', 404],
      ['/api/v1/nope', 404],
      ['/api/v1/graph.json.gz', 404],
      ['/_nginx.conf', 404],
      ['/.hoba-site.json', 404],
      ['/', 405, { method: 'POST' }],
      ['/%zz', 400],
      [
        '/api/v1/graph',
        204,
        { method: 'OPTIONS', headers: { Origin: 'http://elsewhere.example', 'Access-Control-Request-Method': 'GET' } },
      ],
      ['/mcp', 405, { method: 'GET' }],
    ];
    const wrong: string[] = [];
    for (const [path, status, options] of cases) {
      const r = await http(origin, path, options);
      if (r.status !== status) wrong.push(`${options?.method ?? 'GET'} ${path}: status ${r.status}, expected ${status}`);
      for (const m of missing(r.headers)) wrong.push(`${options?.method ?? 'GET'} ${path} (${r.status}): ${m}`);
    }
    const mcp = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(mcp.status, 200);
    for (const m of missing(Object.fromEntries(mcp.headers))) wrong.push(`POST /mcp: ${m}`);
    assert.deepEqual(wrong, []);
  });

  test('what Node’s parser refuses: an unknown method is a 405 (the site’s document), a malformed request a 400, too-large headers a 431, each with the headers', async () => {
    const port = Number(new URL(origin).port);
    for (const [request, status] of [
      ['FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 405],
      ['FOO /%zz HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      const raw = await rawHttp(`http://127.0.0.1:${port}`, request);
      assert.equal(statusOf(raw), status, JSON.stringify(raw.slice(0, 80)));
      const head = raw.split('\r\n\r\n')[0]!.toLowerCase();
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        assert.ok(head.includes(`${name.toLowerCase()}: ${value.toLowerCase()}`), `${status}: ${name}`);
      if (status === 405) assert.match(raw, /"status": 405/);
    }
  });

  test('hoba-mcp --http: its answers and its 404 elsewhere', async () => {
    const child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(line);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`hoba-mcp exited (${code})`)));
      });
      const ok = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(ok.status, 200);
      assert.deepEqual(missing(Object.fromEntries(ok.headers)), []);
      const elsewhere = await fetch(url.replace(/\/mcp$/, '/elsewhere'));
      assert.equal(elsewhere.status, 404);
      assert.deepEqual(missing(Object.fromEntries(elsewhere.headers)), []);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});
