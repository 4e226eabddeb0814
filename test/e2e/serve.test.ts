// `hoba serve`: the contract suite through the server, the server's own guarantees, and the command.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createSiteServer, type Mount } from '../../src/serve/server.ts';
import { BAD_PATHS, contractSuite, http } from '../contract.ts';
import { sharedSite, writableSite, type BuiltSite } from '../site-fixture.ts';
import { AtlasCopy } from '../helpers.ts';
import { CLI, hoba } from '../dist.ts';

async function listen(site: BuiltSite, mounts: Mount[] = []) {
  const server = createSiteServer({ root: site.root, mounts });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

contractSuite('hoba serve', (site) => listen(site));

describe('the server itself', () => {
  test('malformed and traversal paths are refused with 400 (a double-encoded one is just not found)', async () => {
    const site = sharedSite();
    const { origin, stop } = await listen(site);
    try {
      for (const path of BAD_PATHS) {
        const r = await http(origin, path);
        const expected = path.includes('%25') ? 404 : 400;
        assert.equal(r.status, expected, path.slice(0, 60));
        assert.equal(r.headers['content-type'], expected === 400 ? 'application/problem+json; charset=utf-8' : 'text/html; charset=utf-8');
      }
    } finally {
      await stop();
    }
  });

  test('a symbolic link inside the root that points outside it is not followed', async () => {
    const site = writableSite();
    symlinkSync(join(site.parent, 'secret.txt'), join(site.root, 'leak.txt'));
    symlinkSync(join(site.parent, 'site-private'), join(site.root, 'api', 'v1', 'private'));
    const { origin, stop } = await listen(site);
    try {
      for (const path of ['/leak.txt', '/api/v1/private/secret.txt']) {
        const r = await http(origin, path);
        assert.equal(r.status, 404, path);
        assert.ok(!r.body.toString().includes(site.secret), path);
      }
    } finally {
      await stop();
      site.dispose();
    }
  });

  test('mounts answer their path with every method; a failing mount is a 500, not a crash', async () => {
    const site = sharedSite();
    const mounts: Mount[] = [
      { path: '/mcp', handle: (req, res) => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`mounted ${req.method}`) },
      { path: '/broken', handle: () => Promise.reject(new Error('boom')) },
    ];
    const { origin, stop } = await listen(site, mounts);
    try {
      const post = await http(origin, '/mcp', { method: 'POST' });
      assert.equal(post.status, 200);
      assert.equal(post.body.toString(), 'mounted POST');
      assert.equal((await http(origin, '/broken')).status, 500);
      assert.equal((await http(origin, '/api/v1/graph')).status, 200, 'still serving');
      assert.equal((await http(origin, '/mcp/other', { method: 'POST' })).status, 405, 'a mount owns its exact path only');
    } finally {
      await stop();
    }
  });
});

/** Starts `hoba serve --port 0` and waits for the URLs it prints. */
async function startServe(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 20_000;
  while (!stdout.includes('Press Ctrl-C') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  const origin = /Serving the atlas at (http:\/\/(?:127\.0\.0\.1|\[::1\]):\d+)\//.exec(stdout)?.[1];
  assert.ok(origin, `hoba serve did not start:\n${stdout}\n${stderr}`);
  return {
    origin,
    stdout: () => stdout,
    stop: async () => {
      child.kill('SIGINT');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

describe('hoba serve', () => {
  test('builds the site when there is none, prints the URLs, serves the seed paths and stops cleanly', async () => {
    const copy = new AtlasCopy();
    try {
      const served = await startServe(['--dir', copy.dir]);
      assert.match(served.stdout(), /Building _site\/ \(no site built yet\)|Building .*_site\/ \(no site built yet\)/);
      assert.match(served.stdout(), /content sha256 [0-9a-f]{64}/);
      assert.match(served.stdout(), /developer page\s+http:\/\/127\.0\.0\.1:\d+\/developers\//);
      for (const path of ['/api/v1/artifacts', '/api/v1/mechanisms/M-001', '/api/v1/graph', '/developers/', '/openapi.json']) {
        assert.equal((await http(served.origin, path)).status, 200, path);
      }
      assert.equal(await served.stop(), 0);
      assert.ok(existsSync(join(copy.dir, '_site', 'api', 'v1', 'index.json')));
    } finally {
      copy.dispose();
    }
  });

  test('rebuilds first only when the content changed since the last build', async () => {
    const copy = new AtlasCopy();
    try {
      assert.equal(hoba(['build', '--dir', copy.dir]).status, 0);
      // A hostname (not only an address) is accepted for --host.
      const unchanged = await startServe(['--dir', copy.dir, '--host', 'localhost']);
      assert.doesNotMatch(unchanged.stdout(), /Building/);
      await unchanged.stop();

      copy.set('M-001', ['title'], 'A genuine skill or experience gap (retitled)');
      const changed = await startServe(['--dir', copy.dir]);
      assert.match(changed.stdout(), /Building .*\(the content changed since the last build\)/);
      const body = JSON.parse((await http(changed.origin, '/api/v1/mechanisms/M-001')).body.toString()) as { item: { title: string } };
      assert.equal(body.item.title, 'A genuine skill or experience gap (retitled)');
      await changed.stop();
    } finally {
      copy.dispose();
    }
  });

  test('--json prints the URLs and the rebuild as JSON once listening', async () => {
    const copy = new AtlasCopy();
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--json', '--dir', copy.dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const deadline = Date.now() + 20_000;
      while (!stdout.endsWith('}\n') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const info = JSON.parse(stdout) as { url: string; api: string; rebuilt: { reason: string; files: number } | null };
      assert.equal(info.rebuilt?.reason, 'no site built yet');
      assert.ok(info.rebuilt!.files > 150);
      assert.equal((await http(info.url, '/api/v1/graph')).status, 200);
      assert.equal((await http(info.api, '/api/v1/')).status, 200);
    } finally {
      child.kill('SIGINT');
      if (child.exitCode === null) await once(child, 'exit');
      copy.dispose();
    }
  });

  test('a bad host or a port in use is refused before any build', async () => {
    const copy = new AtlasCopy();
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    try {
      const { port } = blocker.address() as AddressInfo;
      const site = join(copy.dir, '_site');
      for (const [args, status, message] of [
        [['--host', '256.1.1.1'], 2, /cannot listen on 256\.1\.1\.1: not an address of this machine/],
        [['--host', '127.0.0.1', '--port', String(port)], 1, /already in use/],
      ] as const) {
        const r = hoba(['serve', '--dir', copy.dir, ...args]);
        assert.equal(r.status, status, args.join(' '));
        assert.match(r.stderr, message);
        assert.doesNotMatch(r.stdout, /Building/, `${args.join(' ')}: no build before the refusal`);
        assert.ok(!existsSync(site), `${args.join(' ')}: no site written`);
      }
    } finally {
      blocker.close();
      copy.dispose();
    }
  });

  test('--help tells what is answered, the MCP endpoint included', () => {
    const help = hoba(['serve', '--help']).stdout;
    assert.match(help, /POST \/mcp/);
    assert.match(help, /CORS preflight/);
    assert.doesNotMatch(help, /GET and HEAD only/);
  });

  test('a bad port is a usage error; a port in use says so', async () => {
    const bad = hoba(['serve', '--port', 'eighty']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--port must be a number/);
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    try {
      const { port } = blocker.address() as AddressInfo;
      const busy = await new Promise<{ status: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], { env: { ...process.env, NO_COLOR: '1' } });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (status) => done({ status, stderr }));
      });
      assert.equal(busy.status, 1);
      assert.match(busy.stderr, /already in use\. Pass another --port/);
      assert.doesNotMatch(busy.stderr, /\n\s+at /);
    } finally {
      blocker.close();
    }
  });
});
