// The HTTP attack suite: requests that try to read outside the site, through a symbolic link, at the URL
// of a precompressed variant, with unusual methods, byte ranges, conditional and encoding headers. Every
// server of the built site (`hoba serve`, the worker under workerd, nginx with the emitted snippet) must
// answer each one alike: the same status, the same body (decoded) where there is one, the security headers
// on every answer, and never a byte from outside the root. http-attacks.test.ts runs the catalogue;
// attacks-http.test.ts runs it with many generated requests. Not a test file.
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SECURITY_HEADERS } from '../src/publish/routes.ts';
import type { Rng } from './helpers.ts';
import type { Running } from './servers.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends one request exactly as written (path, method and headers untouched) and reads the answer until the server closes. */
function send(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks), method === 'HEAD'));
    });
  });
}

function parse(raw: Buffer, head: boolean): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  const [first = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = raw.subarray(end + 4);
  if (head) body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(first)?.[1] ?? 0), headers, body };
}

function unchunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** One attack: a request, with headers that may name the ETag the server gave the same URL (conditional requests). */
export interface Attack {
  cls: 'traversal' | 'symlinks' | 'precompressed' | 'headers' | 'methods' | 'ranges' | 'conditional';
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Headers made from the server's own ETag of this path (fetched first, with the same Accept-Encoding). */
  withEtag?: (etag: string) => Record<string, string>;
}

const TEXT = 'Accept-Encoding';

/** What the suite plants in the site root before the servers start: links out of the root and within it. */
export function plantLinks(root: string, parent: string): void {
  const link = (target: string, at: string) => symlinkSync(target, join(root, at));
  link('/etc', 'etc');
  link('/etc', 'api/v1/etc');
  link('../secret.txt', 'secret.html');
  link(join(parent, 'secret.txt'), 'api/v1/mechanisms/M-900.json');
  link(join(parent, 'site-private'), 'private');
  link('developers', 'developers-link');
  link('A-001.json', 'api/v1/artifacts/A-900.json');
  link('../../../index.html', 'api/v1/index-link.html');
  mkdirSync(join(root, 'linked-dir'));
  writeFileSync(join(root, 'linked-dir', 'ok.txt'), 'a real file in a real directory\n');
  link('../secret.txt', 'linked-dir/secret.txt');
}

const PAGES = [
  '/',
  '/developers/',
  '/api/v1/mechanisms/M-001',
  '/api/v1/mechanisms',
  '/openapi.json',
  '/schemas/artifact.schema.json',
  '/assets/site.css',
  '/problems/not-found.json',
];

/** The catalogue: every class of the issue, each request chosen to probe one rule. */
export function catalogue(): Attack[] {
  const a: Attack[] = [];
  const get = (cls: Attack['cls'], path: string, headers?: Record<string, string>) =>
    a.push({ cls, method: 'GET', path, ...(headers ? { headers } : {}) });
  for (const path of [
    '/../secret.txt',
    '/../../../../../../etc/passwd',
    '/api/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2e%2e/etc/passwd',
    '/%2e%2e%2fsecret.txt',
    '/api/v1/artifacts/..%2f..%2f..%2f..%2fsecret.txt',
    '/..%2fsite-private%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/..%5csecret.txt',
    '/%5c..%5csecret.txt',
    '/.%2e/secret.txt',
    '/%2e./secret.txt',
    '/api/v1/%2e%2e/%2e%2e/%2e%2e/secret.txt',
    '/./index.html',
    '/developers/./',
    '/developers/../',
    '/api/v1/mechanisms/M-001/..',
    '/%00',
    '/index.html%00.json',
    '/developers/#x',
    '/developers/%23x',
    '/api/v1/artifacts/A-001%00',
    '/%',
    '/%zz',
    '/%c0%ae%c0%ae/secret.txt',
    '//etc/passwd',
    '/.git/config',
    '/.hoba-site.json',
    '/_nginx.conf',
    '/_headers',
  ])
    get('traversal', path);
  for (const path of [
    '/etc/passwd',
    '/api/v1/etc/passwd',
    '/secret.html',
    '/api/v1/mechanisms/M-900',
    '/api/v1/mechanisms/M-900.json',
    '/private/secret.txt',
    '/developers-link/',
    '/developers-link',
    '/api/v1/artifacts/A-900',
    '/api/v1/index-link.html',
    '/linked-dir/ok.txt',
    '/linked-dir/secret.txt',
  ])
    get('symlinks', path);
  for (const path of [
    '/api/v1/mechanisms/M-001.json.gz',
    '/api/v1/mechanisms/M-001.json.br',
    '/api/v1/mechanisms.json.gz',
    '/openapi.json.gz',
    '/openapi.json.br',
    '/developers/index.html.gz',
    '/developers/index.html.br',
    '/index.html.gz',
    '/assets/site.css.gz',
    '/schemas/artifact.schema.json.gz',
    '/api/v1/mechanisms/M-001.gz',
    '/api/v1/mechanisms/M-001.json.gz.gz',
  ]) {
    get('precompressed', path);
    get('precompressed', path, { [TEXT]: 'gzip, br' });
  }
  a.push(
    { cls: 'precompressed', method: 'HEAD', path: '/api/v1/graph.json.gz' },
    {
      cls: 'precompressed',
      method: 'OPTIONS',
      path: '/api/v1/graph.json.gz',
      headers: { Origin: 'http://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    },
  );
  for (const path of PAGES) {
    for (const enc of ['gzip', 'gzip;q=0', 'identity;q=0, gzip', '*', 'x-gzip', 'GZIP', 'br, gzip', 'gzip;q=abc', 'deflate', ''])
      get('headers', path, enc === '' ? {} : { [TEXT]: enc });
    get('headers', path, { 'X-Forwarded-For': '10.0.0.1', Referer: 'http://evil.example/', 'User-Agent': '<script>alert(1)</script>' });
  }
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'FOO'])
    for (const path of ['/', '/api/v1/mechanisms/M-001', '/nope', '/api/v1/nope']) a.push({ cls: 'methods', method, path });
  for (const path of ['/', '/developers/', '/api/v1/mechanisms/M-001', '/api/v1/nope', '/openapi.json', '/nope']) {
    a.push(
      { cls: 'methods', method: 'OPTIONS', path },
      {
        cls: 'methods',
        method: 'OPTIONS',
        path,
        headers: {
          Origin: 'http://elsewhere.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'if-none-match',
        },
      },
    );
    a.push({ cls: 'methods', method: 'HEAD', path });
  }
  for (const path of ['/api/v1/mechanisms/M-001', '/developers/', '/openapi.json']) {
    for (const range of ['bytes=0-9', 'bytes=-5', 'bytes=0-0,2-2,4-4', 'bytes=999999999-', 'bytes=x-y', 'lines=1-2', 'bytes=0-'])
      get('ranges', path, { Range: range });
    a.push({ cls: 'ranges', method: 'GET', path, headers: { Range: 'bytes=0-9' }, withEtag: (etag) => ({ 'If-Range': etag }) });
    a.push({ cls: 'ranges', method: 'GET', path, headers: { Range: 'bytes=0-9', 'If-Range': 'Wed, 21 Oct 2015 07:28:00 GMT' } });
  }
  for (const path of ['/api/v1/mechanisms/M-001', '/developers/', '/openapi.json', '/assets/site.css']) {
    for (const enc of [undefined, 'gzip']) {
      const base: Record<string, string> = enc ? { [TEXT]: enc } : {};
      const c = (withEtag: (etag: string) => Record<string, string>) =>
        a.push({ cls: 'conditional', method: 'GET', path, headers: base, withEtag });
      c((etag) => ({ 'If-None-Match': etag }));
      c((etag) => ({ 'If-None-Match': `W/${etag}` }));
      c((etag) => ({ 'If-None-Match': `"other", ${etag}` }));
      c(() => ({ 'If-None-Match': '*' }));
      c(() => ({ 'If-None-Match': '"other"' }));
      c((etag) => ({ 'If-Match': etag }));
      c(() => ({ 'If-Match': '*' }));
      c(() => ({ 'If-Match': '"other"' }));
      c((etag) => ({ 'If-Match': `W/${etag}` }));
      c(() => ({ 'If-Modified-Since': 'Fri, 01 Jan 2100 00:00:00 GMT' }));
      c(() => ({ 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' }));
      c(() => ({ 'If-Modified-Since': 'not a date' }));
      c(() => ({ 'If-Unmodified-Since': 'Fri, 01 Jan 2100 00:00:00 GMT' }));
      c(() => ({ 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' }));
      c((etag) => ({ 'If-None-Match': etag, 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' }));
      a.push({ cls: 'conditional', method: 'HEAD', path, headers: base, withEtag: (etag) => ({ 'If-None-Match': etag }) });
    }
  }
  return a;
}

/** Generated requests for the long run: paths and headers recombined at random from the catalogue's parts. */
export function generated(r: Rng, count: number): Attack[] {
  const all = catalogue();
  const paths = [...new Set(all.map((x) => x.path))];
  const headerSets = all.flatMap((x) => (x.headers ? [x.headers] : []));
  const methods = ['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'FOO'];
  const out: Attack[] = [];
  for (let i = 0; i < count; i++) {
    const base = r.pick(all);
    const mix = r.next();
    const path =
      mix < 0.3
        ? r.pick(paths)
        : mix < 0.5
          ? `${r.pick(paths)}${r.pick(['.gz', '.br', '/', '%2f..', '/..', '%00', '?q=1', '/./', '%2e', '%23x'])}`
          : mix < 0.6
            ? r.pick(paths).replace(/\//g, () => r.pick(['/', '//', '/./', '%2f']))
            : base.path;
    const headers = { ...(r.next() < 0.5 ? r.pick(headerSets) : {}), ...(r.next() < 0.3 ? r.pick(headerSets) : {}) };
    out.push({
      cls: base.cls,
      method: r.next() < 0.7 ? base.method : r.pick(methods),
      path,
      headers,
      ...(base.withEtag && r.next() < 0.5 ? { withEtag: base.withEtag } : {}),
    });
  }
  return out;
}

/** What an answer is, for comparing servers: the status, and for the answers with a body of the site (200,
 * 404, 405) the SHA-256 of the body decoded (brotli or gzip as the server chose: a server without brotli
 * sends gzip, and both decode to the file). Errors the servers phrase in their own way (400, 412) compare by
 * status. */
function outcome(r: RawResponse): string {
  if (![200, 404, 405].includes(r.status) || r.body.length === 0) return String(r.status);
  let body = r.body;
  try {
    if (r.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    else if (r.headers['content-encoding'] === 'br') body = brotliDecompressSync(body);
  } catch {
    return `${r.status} undecodable ${r.headers['content-encoding']}`;
  }
  return `${r.status} ${createHash('sha256').update(body).digest('hex').slice(0, 12)}`;
}

/** What must hold of every answer, whatever the server: nothing from outside the root, and the security headers. */
function violations(r: RawResponse, secret: string): string[] {
  const out: string[] = [];
  const text = r.body.toString('latin1');
  if (text.includes(secret)) out.push('a file from outside the root leaked');
  if (/root:[^:]*:0:0:/.test(text)) out.push('/etc/passwd leaked');
  if (r.status === 0) out.push('no answer');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (r.status !== 0 && r.headers[name.toLowerCase()] !== value) out.push(`${name}: ${r.headers[name.toLowerCase()] ?? 'missing'}`);
  }
  return out;
}

/**
 * Where a server cannot answer as the others do, and why: the only exceptions to "the same answers". Each is
 * asserted as it is (the answer named here, not any answer), so that a change shows.
 */
const KNOWN_DIFFERENCES: ReadonlyArray<{ server: string; applies(x: Attack, r: RawResponse): boolean; why: string }> = [
  {
    server: 'worker under workerd',
    applies: (x, r) =>
      !KNOWN_METHODS.includes(x.method) && r.status === 501 && Object.keys(r.headers).every((h) => !h.startsWith('content-security')),
    why: 'a method the runtime’s HTTP parser does not know (FOO) is refused by workerd itself with 501, before the worker runs',
  },
  {
    server: 'worker under workerd',
    applies: (x, r) => !x.path.startsWith('/') && r.status === 400 && r.headers['content-security-policy'] === undefined,
    why: 'a request target that is not a path (no leading /) is refused by workerd itself with 400, before the worker runs (the others answer 400 too, with the security headers)',
  },
  {
    server: 'nginx',
    applies: (x, r) => /^[^?]*#/.test(x.path) && (r.status === 404 || r.status === 400),
    why: 'a raw # in the request target (which clients never send: it is not allowed there, RFC 9112 §3.2) is part of the path to nginx, so not found (or malformed, when a dot segment follows it); serve and the worker (whose runtime drops it) read it as the start of a fragment',
  },
  {
    server: 'nginx',
    applies: (x, r) => sends(x, 'If-Unmodified-Since') && !sends(x, 'If-Match') && r.status === 412,
    why: 'an If-Unmodified-Since before the file’s modification time gets 412: nginx compares it with the file’s time, which the others do not have (they send no Last-Modified and ignore it, RFC 9110 §13.1.4)',
  },
  {
    server: 'nginx',
    applies: (x, r) => sends(x, 'If-None-Match') && sends(x, 'If-Modified-Since') && r.status === 200,
    why: 'If-None-Match with an If-Modified-Since other than the file’s time gets 200: nginx requires both to hold, where RFC 9110 §13.1.3 ignores If-Modified-Since beside If-None-Match (as the others do); browsers send nginx its own Last-Modified, which holds',
  },
];

/** Whether an attack sends a header (given, or made from the ETag). */
const sends = (x: Attack, name: string) => name in (x.headers ?? {}) || name in (x.withEtag?.('"e"') ?? {});

/** Methods every server's HTTP parser knows (Node's llhttp, nginx, workerd's kj-http). */
const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'CONNECT'];

/** An attack as a line for reports. */
const describeAttack = (x: Attack) =>
  `${x.cls}: ${x.method} ${x.path}${x.headers && Object.keys(x.headers).length ? ` ${JSON.stringify(x.headers)}` : ''}${x.withEtag ? ` +${Object.keys(x.withEtag('"e"')).join(',')}` : ''}`;

/** Runs an attack against a server: its answer (fetching the server's own ETag first when it needs one). */
async function run(origin: string, x: Attack): Promise<RawResponse> {
  let headers = x.headers ?? {};
  if (x.withEtag) {
    const accept = x.headers?.[TEXT];
    const first = await send(origin, 'GET', x.path, accept !== undefined ? { [TEXT]: accept } : {});
    headers = { ...headers, ...x.withEtag(first.headers['etag'] ?? '"none"') };
  }
  return send(origin, x.method, x.path, headers);
}

/** Runs attacks against every server; returns what failed: violations, and answers unlike `hoba serve`'s. */
export async function attackAll(
  servers: Running[],
  attacks: Attack[],
  secret: string,
): Promise<{ failures: string[]; byClass: Map<string, number>; known: Map<string, number> }> {
  const failures: string[] = [];
  const byClass = new Map<string, number>();
  const known = new Map<string, number>();
  for (const x of attacks) {
    byClass.set(x.cls, (byClass.get(x.cls) ?? 0) + 1);
    const all = await Promise.all(servers.map(async (s) => ({ s, r: await run(s.origin, x) })));
    // A documented difference (KNOWN_DIFFERENCES) takes that server out of this request's comparison.
    const answers = all.filter(({ s, r }) => {
      const d = KNOWN_DIFFERENCES.find((k) => k.server === s.name && k.applies(x, r));
      if (d) known.set(`${s.name}: ${d.why}`, (known.get(`${s.name}: ${d.why}`) ?? 0) + 1);
      return !d;
    });
    for (const { s, r } of answers)
      for (const v of violations(r, secret)) failures.push(`${describeAttack(x)} → ${s.name} ${r.status}: ${v}`);
    const reference = answers[0] && outcome(answers[0].r);
    for (const { s, r } of answers.slice(1)) {
      if (outcome(r) !== reference) failures.push(`${describeAttack(x)} → ${answers[0]!.s.name} ${reference}, ${s.name} ${outcome(r)}`);
    }
  }
  return { failures, byClass, known };
}
