// The three servers of a built site, started on a free loopback port each, for suites that must get the
// same answers from all of them (http-attacks.test.ts, attacks-http.test.ts): `hoba serve`'s server in this
// process, nginx with the emitted _nginx.conf, and the worker under workerd with worker/workerd.capnp.
// (nginx.test.ts and workerd.test.ts start theirs the same way, for the contract suite.) Not a test file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createSiteServer } from '../src/serve/server.ts';
import { DIST } from './dist.ts';
import { freePort, ROOT, waitForPort } from './helpers.ts';

export interface Running {
  name: string;
  origin: string;
  stop(): Promise<void>;
}

export async function startServe(root: string): Promise<Running> {
  const server = createSiteServer({ root });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    name: 'hoba serve',
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** nginx from $HOBA_NGINX, else PATH, else the usual sbin directories (nginx.test.ts says how to install it). */
function findNginx(): string {
  const given = process.env['HOBA_NGINX'];
  if (given && existsSync(given)) return given;
  const dirs = [...(process.env['PATH'] ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  const found = dirs.map((d) => join(d, 'nginx')).find((p) => existsSync(p));
  if (!found)
    throw new Error(
      'nginx is not installed, and this suite needs it. Install it (Debian: apt-get install -y nginx) and run the tests again.',
    );
  return found;
}

export async function startNginx(root: string): Promise<Running> {
  const nginx = findNginx();
  const prefix = mkdtempSync(join(tmpdir(), 'hoba-nginx-'));
  mkdirSync(join(prefix, 'temp'));
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  const info = spawnSync(nginx, ['-V'], { encoding: 'utf8' });
  const confPath = /--conf-path=(\S+)/.exec(`${info.stdout}${info.stderr}`)?.[1];
  const mime = confPath && existsSync(join(dirname(confPath), 'mime.types')) ? `include ${join(dirname(confPath), 'mime.types')};` : '';
  writeFileSync(
    conf,
    `daemon off;
master_process off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  ${mime}
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    include ${root}/_nginx.conf;
  }
}
`,
  );
  const errorLog = () => (existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : '');
  const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(prefix, { recursive: true, force: true });
    throw new Error(`nginx rejects the configuration with the emitted snippet:\n${check.stderr}`);
  }
  const child = spawn(nginx, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await waitForPort(port, child, () => stderr + errorLog(), 'nginx', 10);
  } catch (err) {
    child.kill('SIGTERM');
    rmSync(prefix, { recursive: true, force: true });
    throw err;
  }
  return {
    name: 'nginx',
    origin: `http://127.0.0.1:${port}`,
    stop: () => stopChild(child).then(() => rmSync(prefix, { recursive: true, force: true })),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** The workerd binary, or why it cannot run on this machine (the only reason to leave it out). */
export async function workerdBinary(): Promise<{ binary: string } | { skip: string }> {
  let binary: string;
  try {
    const specifier = 'workerd';
    binary = ((await import(specifier)) as { default: string }).default;
  } catch (err) {
    const message = (err as Error).message.split('\n')[0] ?? '';
    if (/Cannot find (package|module) 'workerd'/.test(message)) throw new Error('the workerd package is not installed: run npm ci.');
    return { skip: `workerd has no binary for this platform: ${message}` };
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (version.error || version.status !== 0)
    return { skip: `the workerd binary cannot run here: ${version.error?.message ?? version.stderr.trim()}` };
  return { binary };
}

/** The worker (dist/worker.js, `npm run build`) under workerd with worker/workerd.capnp, as its header tells a user to run it. */
export async function startWorkerd(root: string): Promise<Running> {
  const found = await workerdBinary();
  if ('skip' in found) throw new Error(found.skip);
  if (!existsSync(join(DIST, 'worker.js'))) throw new Error('dist/worker.js is missing: run npm run build first.');
  const port = await freePort();
  const child = spawn(
    found.binary,
    ['serve', join(ROOT, 'worker', 'workerd.capnp'), '--directory-path', `site=${root}`, '--socket-addr', `http=127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitForPort(port, child, () => output, 'workerd', 30);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { name: 'worker under workerd', origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
