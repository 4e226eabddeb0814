// The contract suite: what any server of the built site must answer, whether `hoba serve` or nginx with
// the emitted snippet. It walks the route table's files, so a route added there is checked here too.
// (Not a *.test.ts file: serve.test.ts and nginx.test.ts run it against their servers.)
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test as nodeTest } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { API_ROUTES, headersForFile, METHOD_NOT_ALLOWED_FILE, PREFLIGHT_HEADERS, type ApiRoute } from '../src/publish/routes.ts';
import { sharedSite, type BuiltSite } from './site-fixture.ts';

export type { BuiltSite } from './site-fixture.ts';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One raw HTTP request: the path is sent exactly as given (no URL normalisation, unlike fetch). */
export function http(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { Connection: 'close', ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Sends raw bytes on one TCP connection and collects everything the server sends back until it closes the
 * connection (or `timeoutMs` passes: then whatever came so far). With `halfClose` the client ends its side
 * right after writing, as `nc -N` and some health checkers do.
 */
export function rawHttp(origin: string, text: string | Buffer, options: { halfClose?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname.replace(/^\[|\]$/g, ''), () => {
      socket.write(text);
      if (options.halfClose) socket.end();
    });
    const timer = setTimeout(() => socket.destroy(), options.timeoutMs ?? 5000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A server may close while the client still writes (an unread body): keep what was answered.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

/** The status code of a raw HTTP response (0 when there was no response). */
export function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
}

/** Ajv (JSON Schema 2020-12) over the components of an OpenAPI document. */
export function openApiValidator(openapi: { components: unknown }): (schemaName: string) => ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  // The components live under the OpenAPI document's own keys: declare `components` as a keyword so the
  // document's $refs (#/components/schemas/…) resolve as they are.
  ajv.addVocabulary(['components']);
  ajv.addSchema({ $id: 'https://hoba.test/openapi.json', components: openapi.components } as object);
  return (name) => {
    const validate = ajv.getSchema(`https://hoba.test/openapi.json#/components/schemas/${name}`);
    if (!validate) throw new Error(`no schema ${name}`);
    return validate;
  };
}

/** Requests that try to leave the site root or are malformed; none may succeed. */
export const BAD_PATHS = [
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
  '/%00',
  '/index.html%00.json',
  '/api/v1/artifacts/A-001%00',
  '/%',
  '/%zz',
  `/${'a'.repeat(3000)}`,
  `/api/v1/artifacts/${'A'.repeat(3000)}`,
];

/**
 * Registers the contract tests on the shared built site. `start` builds nothing itself: it serves
 * `site.root` (read-only) and returns the origin (http://host:port) and how to stop.
 */
export function contractSuite(name: string, start: (site: BuiltSite) => Promise<{ origin: string; stop(): Promise<void> }>): void {
  describe(`contract: ${name}`, () => {
    let site: BuiltSite;
    let origin: string;
    let stop: () => Promise<void>;
    let schemaOf: (name: string) => ValidateFunction;
    let openapi: OpenApi;
    const get = (path: string, options?: Parameters<typeof http>[2]) => http(origin, path, options);

    // A server that cannot start (nginx missing, say) fails every test with its reason: a failed
    // before() hook would only cancel them, which summaries do not count as failures.
    let startError: unknown;
    const test = (name: string, fn: () => Promise<void>) =>
      nodeTest(name, async () => {
        if (startError) throw startError;
        await fn();
      });

    before(async () => {
      site = sharedSite();
      try {
        ({ origin, stop } = await start(site));
      } catch (err) {
        startError = err;
      }
      openapi = JSON.parse(site.file('openapi.json').toString()) as OpenApi;
      schemaOf = openApiValidator(openapi);
    });
    after(async () => {
      await stop?.();
    });

    test('every file the route table writes answers 200 at its URL, with its bytes and headers', async () => {
      const served = site.site.files.filter((f) => f.url !== undefined);
      assert.ok(served.length > 150, 'the whole mirror is checked');
      for (const f of served) {
        const r = await get(f.url!);
        assert.equal(r.status, 200, f.url);
        assert.ok(r.body.equals(f.bytes), `${f.url}: body is the built file`);
        const expected = headersForFile(f.path);
        for (const [header, value] of Object.entries(expected)) assert.equal(r.headers[header.toLowerCase()], value, `${f.url}: ${header}`);
        assert.ok(r.headers['etag'], `${f.url}: ETag`);
      }
    });

    test('every seed path of the interface contract answers 200 JSON with registry_version', async () => {
      const seeds = [
        '/artifacts',
        '/artifacts/A-001',
        '/barriers',
        '/barriers/B-001',
        '/mechanisms',
        '/mechanisms/M-001',
        '/patterns',
        '/loops',
        '/interventions',
        '/graph',
      ];
      for (const seed of seeds) {
        const r = await get(`/api/v1${seed}`);
        assert.equal(r.status, 200, seed);
        assert.equal(r.headers['content-type'], 'application/json; charset=utf-8', seed);
        assert.equal(r.headers['access-control-allow-origin'], '*', seed);
        assert.match(String(r.headers['cache-control']), /max-age=\d+/, seed);
        assert.ok(r.headers['etag'], seed);
        assert.match(String(r.headers['access-control-expose-headers']), /(^|,\s*)ETag(\s*,|$)/i, `${seed}: ETag readable from script`);
        const body = JSON.parse(r.body.toString()) as { registry_version: string };
        assert.match(body.registry_version, /^\d+\.\d+\.\d+$/);
        const route = API_ROUTES.find((x) => new RegExp(`^${x.path.replace('{id}', '[A-Z]-\\d+')}$`).test(seed)) as ApiRoute;
        const schema = schemaOf(responseSchemaName(openapi, route));
        assert.ok(schema(body), `${seed}: ${JSON.stringify(schema.errors)}`);
      }
    });

    test('the base URL with a trailing slash is the discovery document', async () => {
      const r = await get('/api/v1/');
      assert.equal(r.status, 200);
      assert.ok(r.body.equals(site.file('api/v1/index.json')));
      assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    });

    test('unknown, malformed and wrong-kind IDs get a 404 problem document, never HTML', async () => {
      const unknown = [
        '/api/v1/artifacts/A-999',
        '/api/v1/artifacts/A-0001x',
        '/api/v1/mechanisms/A-001',
        '/api/v1/barriers/B-1',
        '/api/v1/patterns/P-999',
        '/api/v1/loops/L-999',
        '/api/v1/interventions/I-999',
        '/api/v1/sources/E-999',
        '/api/v1/graph/nodes',
        '/api/v1/artifacts/',
        '/api/v1/nothing',
        '/api/v1/artifacts.xml',
      ];
      const validate = schemaOf('Problem');
      for (const path of unknown) {
        const r = await get(path);
        assert.equal(r.status, 404, path);
        assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8', path);
        assert.equal(r.headers['access-control-allow-origin'], '*', path);
        const body = JSON.parse(r.body.toString()) as { status: number };
        assert.ok(validate(body), `${path}: ${JSON.stringify(validate.errors)}`);
        assert.equal(body.status, 404);
      }
    });

    test('unknown pages get the 404 page; host configuration is not served', async () => {
      for (const path of ['/nope', '/developers/nope.html', '/_headers', '/_redirects', '/_nginx.conf']) {
        const r = await get(path);
        assert.equal(r.status, 404, path);
        assert.match(String(r.headers['content-type']), /^text\/html/, path);
        assert.doesNotMatch(r.body.toString(), /hoba build|Access-Control/, `${path} does not leak host configuration`);
      }
    });

    test('a directory without its trailing slash redirects to it', async () => {
      const r = await get('/developers');
      assert.equal(r.status, 301);
      assert.match(String(r.headers['location']), /\/developers\/$/);
      const base = await get('/api/v1');
      assert.equal(base.status, 301);
      assert.match(String(base.headers['location']), /\/api\/v1\/$/);
    });

    test('a redirect stays on the same origin, whatever slashes the path starts with', async () => {
      // A Location of //developers/ is a link to the host "developers": resolve it as a browser does.
      for (const [path, target] of [
        ['//developers', '/developers/'],
        ['///developers', '/developers/'],
        ['//api', '/api/'],
        ['//api/v1', '/api/v1/'],
      ] as const) {
        const r = await get(path);
        assert.equal(r.status, 301, path);
        const location = new URL(String(r.headers['location']), `${origin}${path}`);
        assert.equal(location.origin, origin, `${path} redirects to ${String(r.headers['location'])}`);
        assert.equal(location.pathname, target, path);
      }
    });

    test('a client that half-closes after its request still gets the whole answer', async () => {
      // File routes, an error document, an API 404 and a malformed path.
      const cases: Array<[path: string, status: number, file?: string]> = [
        ['/api/v1/graph', 200, 'api/v1/graph.json'],
        ['/developers/', 200, 'developers/index.html'],
        ['/api/v1/artifacts/A-999', 404],
        ['/nope', 404],
        ['/%zz', 400],
      ];
      for (const [path, status, file] of cases) {
        const raw = await rawHttp(origin, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, { halfClose: true });
        assert.equal(statusOf(raw), status, `${path}: ${JSON.stringify(raw.slice(0, 80))}`);
        if (file) assert.ok(raw.endsWith(site.file(file).toString('latin1')), `${path}: the whole body`);
      }
    });

    test('HEAD answers the same headers as GET and no body', async () => {
      for (const path of ['/api/v1/mechanisms', '/api/v1/artifacts/A-001', '/openapi.json', '/developers/']) {
        const [g, h] = [await get(path), await get(path, { method: 'HEAD' })];
        assert.equal(h.status, 200, path);
        assert.equal(h.body.length, 0, path);
        for (const header of ['content-type', 'etag', 'cache-control', 'content-length'])
          assert.equal(h.headers[header], g.headers[header], `${path} ${header}`);
      }
      const missing = await get('/api/v1/artifacts/A-999', { method: 'HEAD' });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.length, 0);
    });

    test('only GET and HEAD are answered: anything else is 405 with Allow and a problem body', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        // OPTIONS is a CORS preflight where any origin may read (the next test), a 405 on the pages.
        const paths =
          method === 'OPTIONS' ? ['/', '/nope', '/developers/'] : ['/api/v1/artifacts', '/api/v1/artifacts/A-001', '/', '/nope'];
        for (const path of paths) {
          const r = await get(path, { method });
          assert.equal(r.status, 405, `${method} ${path}`);
          assert.equal(r.headers['allow'], 'GET, HEAD', `${method} ${path}`);
          assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8', `${method} ${path}`);
          assert.ok(r.body.equals(site.file(METHOD_NOT_ALLOWED_FILE)), `${method} ${path}`);
        }
      }
    });

    test('a CORS preflight on any path that any origin may read is answered 204 with the allowed methods and headers', async () => {
      const paths = [
        '/api/v1/graph',
        '/api/v1/artifacts',
        '/api/v1/artifacts/A-001',
        '/api/v1/artifacts/A-999',
        '/api/v1/',
        '/openapi.json',
        '/schemas/artifact.schema.json',
        '/problems/not-found.json',
      ];
      for (const path of paths) {
        const r = await get(path, {
          method: 'OPTIONS',
          headers: {
            Origin: 'http://elsewhere.example',
            'Access-Control-Request-Method': 'GET',
            'Access-Control-Request-Headers': 'if-none-match',
          },
        });
        assert.equal(r.status, 204, path);
        assert.equal(r.body.length, 0, path);
        for (const [header, value] of Object.entries(PREFLIGHT_HEADERS))
          assert.equal(r.headers[header.toLowerCase()], value, `${path}: ${header}`);
        assert.match(String(r.headers['access-control-allow-methods']), /\bGET\b/);
        assert.match(String(r.headers['access-control-allow-headers']), /\bIf-None-Match\b/i);
        assert.ok(Number(r.headers['access-control-max-age']) > 0, path);
      }
    });

    test('a matching If-None-Match gets 304 Not Modified, readable cross-origin', async () => {
      const first = await get('/api/v1/graph');
      const again = await get('/api/v1/graph', { headers: { 'If-None-Match': String(first.headers['etag']) } });
      assert.equal(again.status, 304);
      assert.equal(again.body.length, 0);
      // A browser checks CORS on the 304 too, and the script reads its ETag.
      assert.equal(again.headers['etag'], first.headers['etag']);
      assert.equal(again.headers['access-control-allow-origin'], '*');
      assert.match(String(again.headers['access-control-expose-headers']), /\bETag\b/i);
      const other = await get('/api/v1/graph', { headers: { 'If-None-Match': '"something-else"' } });
      assert.equal(other.status, 200);
    });

    test('precompressed variants go to clients that accept them, with Vary and their own ETag, and decompress to the file', async () => {
      for (const [path, file] of [
        ['/api/v1/mechanisms/M-001', 'api/v1/mechanisms/M-001.json'],
        ['/api/v1/mechanisms', 'api/v1/mechanisms.json'],
        ['/openapi.json', 'openapi.json'],
        ['/developers/', 'developers/index.html'],
      ] as const) {
        const bytes = site.file(file);
        assert.ok(site.file(`${file}.gz`).length < bytes.length, `${file}.gz is written and smaller`);
        const plain = await get(path);
        assert.equal(plain.headers['content-encoding'], undefined, `${path}: no encoding unless asked`);
        assert.ok(plain.body.equals(bytes), path);
        assert.match(String(plain.headers['vary']), /Accept-Encoding/i, `${path}: Vary on the identity answer too`);
        const gz = await get(path, { headers: { 'Accept-Encoding': 'gzip' } });
        assert.equal(gz.status, 200, path);
        assert.equal(gz.headers['content-encoding'], 'gzip', path);
        assert.match(String(gz.headers['vary']), /Accept-Encoding/i, path);
        assert.ok(gz.body.equals(site.file(`${file}.gz`)), `${path}: the built .gz file, as it is`);
        assert.ok(gunzipSync(gz.body).equals(bytes), `${path}: decompresses to the file`);
        assert.equal(Number(gz.headers['content-length']), gz.body.length, path);
        assert.notEqual(gz.headers['etag'], plain.headers['etag'], `${path}: each encoding has its own ETag`);
        for (const [header, value] of Object.entries(headersForFile(file)))
          assert.equal(gz.headers[header.toLowerCase()], value, `${path}: ${header}`);
        const again = await get(path, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': String(gz.headers['etag']) } });
        assert.equal(again.status, 304, `${path}: revalidates with the gzip ETag`);
        // A host without a brotli module answers br clients with gzip; either way the bytes decompress to the file.
        const br = await get(path, { headers: { 'Accept-Encoding': 'br, gzip' } });
        const encoding = br.headers['content-encoding'];
        assert.ok(encoding === 'br' || encoding === 'gzip', `${path}: ${String(encoding)}`);
        assert.ok(
          (encoding === 'br' ? brotliDecompressSync(br.body) : gunzipSync(br.body)).equals(bytes),
          `${path}: br answer decompresses to the file`,
        );
        const refused = await get(path, { headers: { 'Accept-Encoding': 'gzip;q=0, identity' } });
        assert.equal(refused.headers['content-encoding'], undefined, `${path}: q=0 refuses gzip`);
        assert.ok(refused.body.equals(bytes), path);
      }
    });

    test('path traversal and malformed paths never reach a file outside the root', async () => {
      for (const path of BAD_PATHS) {
        const r = await get(path);
        assert.ok([400, 404, 414].includes(r.status), `${path.slice(0, 60)}: status ${r.status}`);
        assert.ok(!r.body.toString().includes(site.secret), `${path.slice(0, 60)}: secret leaked`);
        assert.ok(!r.body.toString().includes('root:'), `${path.slice(0, 60)}: /etc/passwd leaked`);
      }
      const alive = await get('/api/v1/index.json');
      assert.equal(alive.status, 200, 'still serving after the bad requests');
    });

    test('the developer page links to every collection, and every link leads somewhere', async () => {
      const page = (await get('/developers/')).body.toString();
      for (const collection of [
        '/api/v1/artifacts',
        '/api/v1/barriers',
        '/api/v1/mechanisms',
        '/api/v1/graph',
        '/api/v1/patterns',
        '/api/v1/loops',
        '/api/v1/interventions',
      ]) {
        assert.ok(page.includes(`href="${collection}"`), `${collection} is linked`);
      }
      assert.ok(page.includes('href="/openapi.json"'));
      const links = [...page.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
      assert.ok(links.length > 20);
      for (const link of new Set(links)) {
        const r = await get(link);
        assert.equal(r.status, 200, link);
      }
      const home = (await get('/')).body.toString();
      assert.ok(home.includes('href="/developers/"'), 'the home page links to the developer page');
    });
  });
}

/** The component name of the 200 response schema the OpenAPI document gives a route. */
export function responseSchemaName(openapi: OpenApi, route: ApiRoute): string {
  const ref = openapi.paths[route.path]?.get.responses['200']?.content?.['application/json']?.schema?.$ref;
  if (!ref) throw new Error(`the OpenAPI document has no 200 schema for ${route.path}`);
  return ref.replace('#/components/schemas/', '');
}

export interface OpenApi {
  components: unknown;
  paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> } }>;
}
