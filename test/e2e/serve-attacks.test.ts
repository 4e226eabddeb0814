// HTTP attacks against a spawned `hoba serve`, over raw sockets on 127.0.0.1: traversal in every encoding,
// symbolic links out of the root, over-long URLs and headers, huge and malformed bodies, unknown methods,
// half-closing, slow and many clients. Each class must get a clean answer (or a closed connection where
// Node refuses to parse), never a file outside the root; afterwards the server still answers correctly
// and its memory stays bounded. Bounded in count; no timed assertions. (The /mcp endpoint has its own.)
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, symlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { http, rawHttp, statusOf } from '../contract.ts';
import { writableSite } from '../site-fixture.ts';
import { ROOT } from '../helpers.ts';
import { CLI } from '../dist.ts';

const HEAD = 'Host: 127.0.0.1\r\nConnection: close\r\n';
const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\n${HEAD}${headers}\r\n`;

/** Resident memory of a process, in MiB, from /proc. */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  assert.ok(kb, `no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

/** A client that sends its request one byte at a time, `delayMs` apart, then reads the answer. */
function dribble(origin: string, text: string, delayMs: number): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1');
    let sent = 0;
    const next = () => {
      if (socket.destroyed) return;
      socket.write(text[sent]!);
      if (++sent < text.length) setTimeout(next, delayMs);
    };
    socket.once('connect', next);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/**
 * Sends a request on a keep-alive connection and returns the first complete answer (by its Content-Length,
 * or whatever came before the server closed). Keep-alive as browsers and curl send it: then the server
 * reads and discards a body it does not want after answering, instead of closing on unread data.
 */
function exchange(origin: string, text: string | Buffer, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve) => {
    let raw = Buffer.alloc(0);
    const socket = connect(Number(new URL(origin).port), '127.0.0.1', () => socket.write(text));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(raw.toString('latin1'));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (c: Buffer) => {
      raw = Buffer.concat([raw, c]);
      const end = raw.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(raw.subarray(0, end).toString('latin1'))?.[1];
      if (end >= 0 && length !== undefined && raw.length >= end + 4 + Number(length)) done();
    });
    socket.on('error', () => {});
    socket.on('close', done);
  });
}

/** Opens a connection and waits until it is established. */
async function open(origin: string): Promise<Socket> {
  const socket = connect(Number(new URL(origin).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.on('error', () => {});
  return socket;
}

describe('HTTP attacks against hoba serve', () => {
  let site: ReturnType<typeof writableSite>;
  let child: ChildProcess;
  let origin: string;
  let rssAtStart: number;
  const graph = () => site.file('api/v1/graph.json');

  /** Asserts an answer is a clean 4xx that leaks nothing from outside the root. */
  const refused = (raw: string, what: string) => {
    const status = statusOf(raw);
    assert.ok(status >= 400 && status < 500, `${what}: status ${status} (${JSON.stringify(raw.slice(0, 60))})`);
    assert.ok(!raw.includes(site.secret), `${what}: the secret outside the root leaked`);
    assert.ok(!/root:[^:]*:0:0:/.test(raw), `${what}: /etc/passwd leaked`);
  };

  before(async () => {
    site = writableSite();
    // The site is up to date with ROOT's content, so serve does not rebuild it.
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--dir', ROOT, '--out', site.root], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 30_000;
    while (!out.includes('Press Ctrl-C') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const found = /Serving the atlas at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
    assert.ok(found, `hoba serve did not start:\n${out}`);
    origin = found;
    // Links out of the root, planted after any rebuild: a file, a directory, a chain, and /etc/passwd.
    symlinkSync(join(site.parent, 'secret.txt'), join(site.root, 'leak.txt'));
    symlinkSync(join(site.parent, 'site-private'), join(site.root, 'api', 'v1', 'private'));
    symlinkSync(join(site.root, 'leak.txt'), join(site.root, 'chain.txt'));
    symlinkSync('/etc/passwd', join(site.root, 'developers', 'passwd.html'));
    symlinkSync('/etc', join(site.root, 'schemas', 'etc'));
    for (let i = 0; i < 20; i++) assert.equal((await http(origin, '/api/v1/graph')).status, 200);
    rssAtStart = rssMiB(child.pid!);
  });

  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGINT');
      await once(child, 'exit');
    }
    site?.dispose();
  });

  test('path traversal in every encoding is refused and never reaches a file outside the root', async () => {
    const targets = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2e%2Fsecret.txt',
      '/.%2e/secret.txt',
      '/%2e./secret.txt',
      '/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/api/v1/artifacts/..%2f..%2f..%2f..%2fsecret.txt',
      '/%252e%252e/secret.txt',
      '/%252e%252e%252fsecret.txt',
      '/%25252e%25252e%25252fsecret.txt',
      '/%c0%ae%c0%ae/secret.txt',
      '/%c0%ae%c0%ae%c0%afsecret.txt',
      '/%e0%80%ae%e0%80%ae/secret.txt',
      '/%c1%9c..%c1%9csecret.txt',
      '/%ef%bc%8e%ef%bc%8e/secret.txt',
      '/%u002e%u002e/secret.txt',
      '/..\\secret.txt',
      '/\\..\\secret.txt',
      '/%5c..%5csecret.txt',
      '/..%5c..%5csecret.txt',
      '/..%255csecret.txt',
      '/.%2e%5c.%2e/secret.txt',
      '/..;/secret.txt',
      '/....//secret.txt',
      '//../secret.txt',
      '/./../secret.txt',
      '/api/./../../secret.txt',
      '/..%2fsite-private%2fsecret.txt',
      '/%2fetc%2fpasswd',
      '//etc/passwd',
      '/api/v1/artifacts/%2f%2fetc%2fpasswd',
      '/%00../secret.txt',
      '/secret.txt%00.json',
      'http://127.0.0.1/../secret.txt',
      '../secret.txt',
      '*',
    ];
    for (const target of targets) refused(await rawHttp(origin, get(target)), target);
  });

  test('symbolic links inside the root that point out of it are not followed', async () => {
    for (const path of ['/leak.txt', '/chain.txt', '/api/v1/private/secret.txt', '/developers/passwd.html', '/schemas/etc/passwd']) {
      const raw = await rawHttp(origin, get(path));
      assert.equal(statusOf(raw), 404, path);
      refused(raw, path);
    }
  });

  test('over-long URLs and headers get a clean 4xx', async () => {
    const cases: Array<[string, string]> = [
      ['a 3 000-character path', get(`/${'a'.repeat(3000)}`)],
      ['a 20 000-character path', get(`/${'a'.repeat(20_000)}`)],
      ['a 20 000-character query', get(`/api/v1/graph?${'q'.repeat(20_000)}`)],
      ['a 20 000-character header', get('/api/v1/graph', `X-Big: ${'a'.repeat(20_000)}\r\n`)],
      ['3 000 headers', get('/api/v1/graph', Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join(''))],
    ];
    for (const [what, text] of cases) refused(await rawHttp(origin, text), what);
    // A header far past the limit: the parser stops at 16 KB and the server answers 431 and closes while the
    // client is still sending, so the client's kernel may see a reset and drop the 431 before it is read
    // (the bytes cannot be drained: they are not a body). Either way it is refused, and nothing leaks.
    const huge = await rawHttp(origin, get('/', `X-Huge: ${'b'.repeat(1 << 20)}\r\n`));
    if (huge !== '') refused(huge, 'a 1 MB header');
    assert.equal(statusOf(await rawHttp(origin, get('/api/v1/graph'))), 200, 'the server still answers');
  });

  test('huge and malformed bodies on GET and on POST to static paths get a clean answer', async () => {
    const body = (size: number) => Buffer.alloc(size, 97);
    const request = (head: string, payload?: Buffer) => (payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    const KEEP = 'Host: 127.0.0.1\r\n';
    const cases: Array<[string, string | Buffer, number]> = [
      ['GET with a 4 MB body', request(`GET /api/v1/graph HTTP/1.1\r\n${KEEP}Content-Length: 4000000\r\n\r\n`, body(4_000_000)), 200],
      ['POST with an 8 MB body', request(`POST /api/v1/graph HTTP/1.1\r\n${KEEP}Content-Length: 8000000\r\n\r\n`, body(8_000_000)), 405],
      [
        'POST with 6 MB chunked',
        request(
          `POST / HTTP/1.1\r\n${KEEP}Transfer-Encoding: chunked\r\n\r\n`,
          Buffer.from(`100000\r\n${'a'.repeat(0x100000)}\r\n`.repeat(6)),
        ),
        405,
      ],
      [
        'POST announcing 100 GB, sending little',
        request(`POST /developers/ HTTP/1.1\r\n${HEAD}Content-Length: 100000000000\r\n\r\n`, body(1000)),
        405,
      ],
      ['Content-Length: abc', `POST /api/v1/graph HTTP/1.1\r\n${HEAD}Content-Length: abc\r\n\r\n`, 400],
      ['Content-Length: -1', `GET /api/v1/graph HTTP/1.1\r\n${HEAD}Content-Length: -1\r\n\r\n`, 400],
      ['an overflowing Content-Length', `POST /api/v1/graph HTTP/1.1\r\n${HEAD}Content-Length: 99999999999999999999999\r\n\r\n`, 400],
      ['two Content-Lengths', `POST /api/v1/graph HTTP/1.1\r\n${HEAD}Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`, 400],
      [
        'Content-Length with Transfer-Encoding',
        `POST /api/v1/graph HTTP/1.1\r\n${HEAD}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        400,
      ],
      ['a bad chunk size on GET', `GET /api/v1/graph HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`, 400],
      ['an unknown Transfer-Encoding', `POST /api/v1/graph HTTP/1.1\r\n${HEAD}Transfer-Encoding: gzip\r\n\r\nxxxx`, 400],
    ];
    for (const [what, text, status] of cases) {
      // The answer comes without waiting for the body.
      const raw = await exchange(origin, text);
      assert.equal(statusOf(raw), status, `${what}: ${JSON.stringify(raw.slice(0, 60))}`);
      if (status === 200) assert.ok(raw.endsWith(graph().toString('latin1')), `${what}: the whole document`);
    }
  });

  test('unknown and unusual methods are refused, never served', async () => {
    for (const method of ['FOO', 'get', 'PROPFIND', 'TRACE', 'MKCOL', 'PURGE', 'LOCK', 'SEARCH', 'PRI']) {
      const raw = await rawHttp(origin, `${method} /api/v1/graph HTTP/1.1\r\n${HEAD}\r\n`);
      refused(raw, method);
      assert.ok(!raw.includes('"nodes"'), `${method}: the document was served`);
    }
    // CONNECT is a proxy tunnel: Node closes the connection when nothing handles it. No answer is fine.
    const tunnel = await rawHttp(origin, `CONNECT 127.0.0.1:22 HTTP/1.1\r\n${HEAD}\r\n`);
    assert.ok(
      statusOf(tunnel) === 0 || (statusOf(tunnel) >= 400 && statusOf(tunnel) < 500),
      `CONNECT: ${JSON.stringify(tunnel.slice(0, 60))}`,
    );
    // An upgrade request nobody handles is an ordinary request.
    assert.equal(statusOf(await rawHttp(origin, get('/api/v1/graph', 'Upgrade: websocket\r\nConnection: Upgrade\r\n'))), 200);
  });

  test('a client that half-closes after its request, or after pipelining two, gets every answer', async () => {
    for (const path of ['/api/v1/graph', '/developers/', '/api/v1/artifacts/A-999']) {
      const raw = await rawHttp(origin, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, { halfClose: true });
      assert.equal(statusOf(raw), path.endsWith('A-999') ? 404 : 200, `${path}: ${JSON.stringify(raw.slice(0, 60))}`);
    }
    const pipelined = `GET /api/v1/graph HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/v1/artifacts/A-999 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const raw = await rawHttp(origin, pipelined, { halfClose: true });
    assert.equal(statusOf(raw), 200, JSON.stringify(raw.slice(0, 60)));
    assert.match(raw, /\r\n\r\n[\s\S]*HTTP\/1\.1 404 Not Found\r\n/, 'the second answer follows the first');
  });

  test('slow clients (headers byte by byte, bodies never read) do not block anyone else', async () => {
    const request = get('/api/v1/index.json');
    let slowDone = 0;
    const slow = Array.from({ length: 20 }, () =>
      dribble(origin, request, 30).then((raw) => {
        slowDone++;
        return raw;
      }),
    );
    // Readers that ask for the largest document and never read it.
    const stalled = await Promise.all(Array.from({ length: 20 }, () => open(origin)));
    for (const s of stalled) {
      s.pause();
      s.write(`GET /api/v1/graph HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    }
    for (let i = 0; i < 5; i++) {
      const r = await http(origin, '/api/v1/graph');
      assert.equal(r.status, 200);
      assert.ok(r.body.equals(graph()));
    }
    assert.equal(slowDone, 0, 'the normal clients were answered while the slow ones were still sending');
    for (const raw of await Promise.all(slow)) assert.equal(statusOf(raw), 200, 'a slow client that finishes is answered too');
    for (const s of stalled) s.destroy();
  });

  test('many connections at once are all answered; idle ones do not block new ones', async () => {
    const ids = ['A-001', 'B-001', 'M-001', 'M-004'];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rawHttp(
          origin,
          get(i % 2 ? `/api/v1/${['artifacts', 'barriers', 'mechanisms', 'mechanisms'][i % 4]}/${ids[i % 4]}` : '/api/v1/graph'),
          { timeoutMs: 20_000 },
        ),
      ),
    );
    answers.forEach((raw, i) => {
      assert.equal(statusOf(raw), 200, `connection ${i}`);
    });
    const idle = await Promise.all(Array.from({ length: 300 }, () => open(origin)));
    try {
      const r = await http(origin, '/api/v1/graph');
      assert.equal(r.status, 200);
      assert.ok(r.body.equals(graph()));
    } finally {
      for (const s of idle) s.destroy();
    }
  });

  test('afterwards the server is up, answers correctly, and its memory stayed bounded', async () => {
    assert.equal(child.exitCode, null, 'hoba serve is still running');
    const r = await http(origin, '/api/v1/graph');
    assert.equal(r.status, 200);
    assert.ok(r.body.equals(graph()));
    assert.equal((await http(origin, '/api/v1/artifacts/A-999')).status, 404);
    const rss = rssMiB(child.pid!);
    // Generous: the attacks sent tens of megabytes; none of it may be kept.
    assert.ok(rss < rssAtStart + 200, `RSS grew from ${rssAtStart.toFixed(0)} MiB to ${rss.toFixed(0)} MiB`);
  });
});
