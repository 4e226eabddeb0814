#!/usr/bin/env node
// HTTP doors benchmark (issue #14): the hosted MCP endpoint (`hoba-mcp --http` and /mcp of `hoba serve`)
// against a bare node:http handler returning the same bytes, and `hoba serve` against nginx (one worker
// process, the emitted _nginx.conf, the same files), each pair measured in the same run, alternated so
// that machine noise hits both alike. autocannon (programmatic) is the client, in this process; every
// server is a child process. A benchmark, not a test: it prints tables, never asserts a timing.
//
//   node --import tsx bench/http.ts [--quick|--smoke] [--duration 3] [--rounds 2] [--soak 30] [--connections 16]
//                                   [--only mcp|serve] [--memo-off] [--profile <dir>] [--site <dir>]
//
// --memo-off adds hoba-mcp --http without its answer memo (HOBA_MCP_CACHE_MB=0) to the MCP rows.
// --quick runs every row for a fraction of a second (the smoke test's mode: it proves the script runs,
// not how fast anything is). --smoke sends each row a request per connection, not a load (the test
// suite's mode: test/e2e/bench-smoke.test.ts checks that it runs and exits 0). --site <dir> serves a site
// `hoba build` wrote for this checkout instead of building one. --profile <dir> re-runs the MCP loads (hoba-mcp --http, with and without its
// memo, and /mcp of hoba serve) and the static routes under `node --cpu-prof` and prints the functions
// that take the time (bench/synth/profile.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { buildInMemory } from '../src/workflows/build.ts';
import { writeSite } from '../src/publish/build.ts';
import { summariseProfile } from './synth/profile.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// ── autocannon (no type declarations ship with it) ──────────────────────────────────────────────────

interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeout?: number;
  /** Requests to send in all, instead of running for `duration` seconds. */
  amount?: number;
  /** Requests each connection cycles through (instead of method, headers and body). */
  requests?: Array<{ method: string; path: string; headers?: Record<string, string>; body?: string }>;
}
interface CannonResult {
  /** Seconds from the first request to the last answer. */
  duration: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number; average: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
const autocannon = require('autocannon') as (options: CannonOptions) => Promise<CannonResult>;

// ── options ─────────────────────────────────────────────────────────────────────────────────────────

const USAGE =
  'usage: node --import tsx bench/http.ts [--quick|--smoke] [--duration 3] [--rounds 2] [--soak 30] [--connections 16] [--only mcp|serve] [--memo-off] [--profile <dir>] [--site <dir>]';
const OPTIONS = {
  quick: { type: 'boolean', default: false },
  smoke: { type: 'boolean', default: false },
  duration: { type: 'string' },
  rounds: { type: 'string' },
  soak: { type: 'string' },
  connections: { type: 'string', default: '16' },
  only: { type: 'string' },
  profile: { type: 'string' },
  site: { type: 'string' },
  'memo-off': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const;
function options() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const values = options();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const SMOKE = values.smoke;
const QUICK = values.quick || SMOKE;
/** Seconds per measured run, warm-up runs, alternated rounds, the 64-connection soak, RSS rounds. */
const DURATION = Number(values.duration ?? (QUICK ? 0.3 : 3));
const WARMUP = QUICK ? 0.1 : 1;
const ROUNDS = Number(values.rounds ?? (QUICK ? 1 : 2));
const SOAK = Number(values.soak ?? (QUICK ? 0.5 : 30));
const RSS_ROUNDS = SMOKE ? 1 : QUICK ? 2 : 5;
const CONNECTIONS = SMOKE ? 2 : Number(values.connections);
const SOAK_CONNECTIONS = 64;
for (const [name, n] of [
  ['duration', DURATION],
  ['rounds', ROUNDS],
  ['soak', SOAK],
  ['connections', CONNECTIONS],
] as const) {
  if (!(n > 0)) {
    console.error(`--${name} must be a positive number.\n${USAGE}`);
    process.exit(2);
  }
}

// ── child processes ─────────────────────────────────────────────────────────────────────────────────

interface Child {
  name: string;
  url: URL;
  process: ChildProcess;
  stop(): Promise<void>;
}

const children = new Set<Child>();

/** Starts `node <args>` and waits for a URL matching `pattern` on its output. */
async function startChild(
  name: string,
  args: string[],
  pattern: RegExp,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Child> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  let match: RegExpExecArray | null;
  for (match = pattern.exec(out); !match; match = pattern.exec(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const started: Child = {
    name,
    url: new URL(match[1]!),
    process: child,
    stop: async () => {
      children.delete(started);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
  children.add(started);
  return started;
}

process.on('exit', () => {
  for (const c of children) c.process.kill('SIGKILL');
});

/** Resident memory of a process, in MiB, from /proc. */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

// ── one HTTP exchange, counted on the wire ──────────────────────────────────────────────────────────

interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Status line and headers, in bytes, as sent. */
  headerBytes: number;
}

/** One request on its own connection; the response is read raw, so the counts are what crossed the wire. */
function exchange(url: URL, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: { Connection: 'close', ...options.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // Status line + each header line + the blank line.
          const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
          for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          const headerBytes = Buffer.byteLength(lines.join('\r\n') + '\r\n\r\n', 'latin1');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), headerBytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

// ── load ────────────────────────────────────────────────────────────────────────────────────────────

interface Load {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: number;
  /** Server CPU time (user + system) per request, in µs, when the server's process is known. */
  cpuUs?: number;
}

/** `load` from `connections` connections for `duration` seconds; an array of loads alternates on each connection. */
async function cannon(origin: URL, load: Load | Load[], connections: number, duration: number): Promise<Measured> {
  const loads = Array.isArray(load) ? load : [load];
  const first = loads[0]!;
  const r = await autocannon({
    url: new URL(first.path, origin).href,
    connections,
    duration,
    method: first.method ?? 'GET',
    ...(first.headers !== undefined ? { headers: first.headers } : {}),
    ...(first.body !== undefined ? { body: first.body } : {}),
    timeout: 10,
    // --smoke: one request per connection, whatever the duration (no load, only the path through); the
    // run ends at the first sample after them (autocannon samples once a second unless told otherwise).
    ...(SMOKE ? { amount: connections, sampleInt: 20 } : {}),
    ...(loads.length > 1
      ? {
          requests: loads.map((l) => ({
            method: l.method ?? 'GET',
            path: l.path,
            ...(l.headers !== undefined ? { headers: l.headers } : {}),
            ...(l.body !== undefined ? { body: l.body } : {}),
          })),
        }
      : {}),
  });
  return {
    rps: r.requests.total / (r.duration > 0 ? r.duration : duration),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The median run (by throughput) of `runs`, with errors summed over all of them. */
function summarise(runs: Measured[]): Measured {
  const rps = median(runs.map((r) => r.rps));
  const pick = runs.reduce((best, r) => (Math.abs(r.rps - rps) < Math.abs(best.rps - rps) ? r : best));
  const sum = (k: 'errors' | 'timeouts' | 'non2xx' | 'requests') => runs.reduce((n, r) => n + r[k], 0);
  const cpu = runs.map((r) => r.cpuUs).filter((x): x is number => x !== undefined);
  return {
    ...pick,
    rps,
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    non2xx: sum('non2xx'),
    requests: sum('requests'),
    ...(cpu.length ? { cpuUs: median(cpu) } : {}),
  };
}

/** Runs the same load against every subject, alternating, ROUNDS times; one warm-up each first. */
/** CPU time (user + system) a process has used, in seconds, from /proc (clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Runs the same load against every subject, alternating, ROUNDS times; one warm-up each first. Beside
 * throughput, each server's CPU time per request: steadier than throughput on a shared machine, since
 * another process's load slows a server down without making its requests cost more.
 */
async function compare(
  subjects: Array<{ url: URL; load: Load; pid?: number | undefined }>,
  connections = CONNECTIONS,
): Promise<Measured[]> {
  if (!SMOKE) for (const s of subjects) await cannon(s.url, s.load, connections, WARMUP);
  const runs: Measured[][] = subjects.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of subjects.entries()) {
      const before = s.pid ? cpuSeconds(s.pid) : NaN;
      const r = await cannon(s.url, s.load, connections, DURATION);
      if (s.pid) r.cpuUs = ((cpuSeconds(s.pid) - before) * 1e6) / r.requests;
      runs[i]!.push(r);
    }
  }
  return runs.map(summarise);
}

// ── tables ──────────────────────────────────────────────────────────────────────────────────────────

const f = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
const pct = (a: number, b: number) => `${f((a / b) * 100)}%`;
const errs = (m: Measured) => `${m.errors + m.timeouts}${m.non2xx ? ` (+${m.non2xx} non-2xx)` : ''}`;

function table(title: string, header: string[], rows: string[][]): void {
  console.log(`\n### ${title}\n`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

const checks: string[] = [];
const check = (ok: boolean, text: string) => checks.push(`${ok ? '✔' : '✖'} ${text}`);

// ── the servers ─────────────────────────────────────────────────────────────────────────────────────

const work = mkdtempSync(join(tmpdir(), 'hoba-bench-http-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** A bare node:http server answering every request with fixed bytes and headers, after reading the body. */
async function startBare(name: string, body: Buffer, headers: Record<string, string>): Promise<Child> {
  const bodyFile = join(work, `${name.replace(/\W+/g, '-')}.body`);
  writeFileSync(bodyFile, body);
  const script = `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const body = readFileSync(${JSON.stringify(bodyFile)});
const headers = { ...${JSON.stringify(headers)}, 'Content-Length': String(body.length) };
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => { res.writeHead(200, headers); res.end(body); });
});
server.listen(0, '127.0.0.1', () => console.log('bare at http://127.0.0.1:' + server.address().port + '/'));
`;
  return startChild(name, ['--input-type=module', '-e', script], /bare at (http:\/\/\S+)/);
}

/** nginx from $HOBA_NGINX, PATH or /usr/sbin, as test/e2e/nginx.test.ts finds it. */
function findNginx(): string | undefined {
  const given = process.env['HOBA_NGINX'];
  if (given) return existsSync(given) ? given : undefined;
  return [...(process.env['PATH'] ?? '').split(':'), '/usr/sbin', '/usr/local/sbin']
    .map((d) => join(d, 'nginx'))
    .find((p) => existsSync(p));
}

/** nginx with one worker (master_process off: a single process), the emitted snippet and the site. */
async function startNginx(nginx: string, root: string): Promise<Child & { brotli: boolean }> {
  const prefix = join(work, 'nginx');
  mkdirSync(join(prefix, 'temp'), { recursive: true });
  const info = spawnSync(nginx, ['-V'], { encoding: 'utf8' });
  const built = `${info.stdout}${info.stderr}`;
  const confPath = /--conf-path=(\S+)/.exec(built)?.[1];
  const mime =
    confPath && existsSync(join(dirname(confPath), 'mime.types'))
      ? `include ${join(dirname(confPath), 'mime.types')};`
      : 'types { text/html html; application/json json; }';
  // A brotli_static module, when the installation has one (Debian: libnginx-mod-http-brotli-static): then it
  // is loaded, by absolute path (this server runs under its own prefix), and the snippet's line enabled.
  const prefixDir = /--prefix=(\S+)/.exec(built)?.[1] ?? '/usr/share/nginx';
  const enabled = confPath ? join(dirname(confPath), 'modules-enabled') : '';
  const brotliModule = (enabled && existsSync(enabled) ? readdirSync(enabled) : [])
    .map((name) => /load_module\s+(\S+brotli_static\S*\.so)\s*;/.exec(readFileSync(join(enabled, name), 'utf8'))?.[1])
    .map((so) => (so === undefined ? undefined : so.startsWith('/') ? so : join(prefixDir, so)))
    .find((so) => so !== undefined && existsSync(so));
  const port = await freePort();
  const snippet = readFileSync(join(root, '_nginx.conf'), 'utf8');
  const brotli = brotliModule !== undefined;
  writeFileSync(join(prefix, 'snippet.conf'), brotli ? snippet.replace(/^# ?(brotli_static on;)/m, '$1') : snippet);
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
${brotli ? `load_module ${brotliModule};` : ''}
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  ${mime}
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    include ${prefix}/snippet.conf;
  }
}
`,
  );
  const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx rejects the configuration:\n${check.stderr}`);
  // nginx prints nothing when it starts: announce the URL from a shell once the port answers.
  const child = spawn(nginx, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = new URL(`http://127.0.0.1:${port}/`);
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`nginx did not start: ${readFileSync(join(prefix, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const started: Child & { brotli: boolean } = {
    name: 'nginx',
    url,
    process: child,
    brotli,
    stop: async () => {
      children.delete(started);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
  children.add(started);
  return started;
}

function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      done(true);
    }).on('error', () => done(false));
  });
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

// ── MCP ─────────────────────────────────────────────────────────────────────────────────────────────

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const toolCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
const MCP_LOADS: Array<{ name: string; body: string }> = [
  { name: 'tools/call get_node M-001', body: toolCall('get_node', { id: 'M-001' }) },
  { name: 'tools/call search_registry', body: toolCall('search_registry', { query: 'ghosted after final interview' }) },
];

async function mcpLoad(url: URL, body: string): Promise<{ load: Load; answer: Exchange }> {
  const load: Load = { method: 'POST', path: url.pathname, headers: MCP_HEADERS, body };
  const answer = await exchange(url, { method: 'POST', headers: MCP_HEADERS, body });
  if (answer.status !== 200) throw new Error(`${url.href} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
  const parsed = JSON.parse(answer.body.toString()) as { result?: { isError?: boolean } };
  if (!parsed.result || parsed.result.isError)
    throw new Error(`${url.href}: the tool call failed: ${answer.body.toString().slice(0, 300)}`);
  return { load, answer };
}

/**
 * The servers as they ship: the built entry points in dist/ (npm run build; npm run bench builds first), not
 * the source through tsx, whose module hooks keep a thread of their own in the process.
 */
function built(entry: string): string {
  const file = join(ROOT, 'dist', entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first (npm run bench does).`);
  return file;
}

/** hoba-mcp --http, on the checkout's content; `env` HOBA_MCP_CACHE_MB=0 turns the answer memo off. */
function startMcpHttp(profileDir?: string, env: NodeJS.ProcessEnv = {}): Promise<Child> {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  return startChild(
    'hoba-mcp --http',
    [...profile, built('mcp.js'), '--http', '--port', '0', '--dir', ROOT],
    /(http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    { env },
  );
}

function startServe(site: string, profileDir?: string): Promise<Child> {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  return startChild(
    'hoba serve',
    [...profile, built('cli.cjs'), 'serve', '--port', '0', '--dir', ROOT, '--out', site],
    /Serving the atlas at (http:\/\/127\.0\.0\.1:\d+\/)/,
  );
}

async function benchMcp(serve: Child): Promise<void> {
  const mcp = await startMcpHttp();
  // With --memo-off, also the same server without its answer memo: every request goes through the SDK and
  // the analysis (what the memo saves; not a target, so not in every run).
  const cold = values['memo-off'] ? await startMcpHttp(undefined, { HOBA_MCP_CACHE_MB: '0' }) : undefined;
  const mounted = new URL('/mcp', serve.url);
  const rows: string[][] = [];
  for (const { name, body } of MCP_LOADS) {
    const ours = await mcpLoad(mcp.url, body);
    const viaServe = await mcpLoad(mounted, body);
    const uncached = cold ? await mcpLoad(cold.url, body) : undefined;
    // The same content behind each door, so the same bytes (unless the content changed between their starts).
    for (const other of uncached ? [viaServe, uncached] : [viaServe])
      if (!other.answer.body.equals(ours.answer.body))
        console.log(`\n(note: ${name}: the doors answer different bytes; was the content edited meanwhile?)`);
    const bare = await startBare(`bare ${name}`, ours.answer.body, { 'Content-Type': String(ours.answer.headers['content-type']) });
    try {
      const [b, m, s, c] = await compare([
        { url: bare.url, load: { ...ours.load, path: '/' }, pid: bare.process.pid },
        { url: mcp.url, load: ours.load, pid: mcp.process.pid },
        { url: mounted, load: viaServe.load, pid: serve.process.pid },
        ...(cold && uncached ? [{ url: cold.url, load: uncached.load, pid: cold.process.pid }] : []),
      ]);
      const doors = [
        ['hoba-mcp --http', m!],
        ['hoba serve /mcp', s!],
        ...(c ? [['hoba-mcp --http, memo off (HOBA_MCP_CACHE_MB=0)', c] as const] : []),
      ] as const;
      for (const [door, r] of doors) {
        rows.push([
          door,
          name,
          f(r.rps),
          f(b!.rps),
          pct(r.rps, b!.rps),
          f(r.cpuUs ?? NaN),
          f(r.p50, 1),
          f(r.p99, 1),
          f(r.max),
          errs(r),
          f(ours.answer.body.length),
        ]);
        if (r !== c)
          check(
            r.rps >= 0.5 * b!.rps,
            `${door}, ${name}, ${CONNECTIONS} connections: ${pct(r.rps, b!.rps)} of bare node:http (target ≥ 50%); CPU per request ${f(r.cpuUs ?? NaN)} µs against ${f(b!.cpuUs ?? NaN)} µs`,
          );
      }
      rows.push([
        'bare node:http (baseline)',
        name,
        f(b!.rps),
        '',
        '',
        f(b!.cpuUs ?? NaN),
        f(b!.p50, 1),
        f(b!.p99, 1),
        f(b!.max),
        errs(b!),
        f(ours.answer.body.length),
      ]);
    } finally {
      await bare.stop();
    }
  }
  await cold?.stop();
  table(
    `Hosted MCP over HTTP: ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION} s alternated, median`,
    ['door', 'request', 'req/s', 'baseline req/s', 'ratio', 'server CPU µs/req', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'body bytes'],
    rows,
  );

  // 64 connections held for SOAK seconds, each alternating both requests: errors, tail latency, the slowest.
  const MIXED = MCP_LOADS.map((l) => l.name.replace('tools/call ', '')).join(' / ');
  const mixed = (url: URL): Load[] => MCP_LOADS.map(({ body }) => ({ method: 'POST', path: url.pathname, headers: MCP_HEADERS, body }));
  const soakRows: string[][] = [];
  for (const [door, url] of [
    ['hoba-mcp --http', mcp.url],
    ['hoba serve /mcp', mounted],
  ] as const) {
    const r = await cannon(url, mixed(url), SOAK_CONNECTIONS, SOAK);
    soakRows.push([door, MIXED, f(r.rps), f(r.p50, 1), f(r.p99, 1), f(r.max), f(r.errors), f(r.timeouts), f(r.non2xx)]);
    check(
      r.errors + r.timeouts + r.non2xx === 0 && r.p99 <= 50 && r.max <= 1000,
      `${door}, ${MIXED}, ${SOAK_CONNECTIONS} connections for ${SOAK} s: ${r.errors + r.timeouts + r.non2xx} errors, p99 ${f(r.p99, 1)} ms, max ${f(r.max)} ms (targets 0, ≤ 50 ms, ≤ 1000 ms)`,
    );
  }
  table(
    `Hosted MCP, ${SOAK_CONNECTIONS} connections for ${SOAK} s, each alternating the two requests`,
    ['door', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'timeouts', 'non-2xx'],
    soakRows,
  );

  // Memory over repeated rounds of the same load.
  const rssRows: string[][] = [];
  for (const [door, child, url] of [
    ['hoba-mcp --http', mcp, mcp.url],
    ['hoba serve /mcp', serve, mounted],
  ] as const) {
    const before = rssMiB(child.process.pid!);
    const after: number[] = [];
    for (let i = 0; i < RSS_ROUNDS; i++) {
      await cannon(url, mixed(url), SOAK_CONNECTIONS, DURATION);
      after.push(rssMiB(child.process.pid!));
    }
    const growth = after.at(-1)! - after[0]!;
    rssRows.push([door, f(before, 1), after.map((x) => f(x, 1)).join(' → '), f(growth, 1)]);
    check(
      growth < 16,
      `${door}: RSS ${f(after[0]!, 1)} → ${f(after.at(-1)!, 1)} MiB over ${RSS_ROUNDS} rounds (flat: growth after the first round < 16 MiB)`,
    );
  }
  table(
    `Hosted MCP memory (RSS MiB) over ${RSS_ROUNDS} rounds of both requests, ${SOAK_CONNECTIONS} connections, ${DURATION} s each`,
    ['door', 'before', 'after each round', 'growth after round 1'],
    rssRows,
  );
  await mcp.stop();
}

// ── hoba serve against nginx ────────────────────────────────────────────────────────────────────────

const ROUTES = [
  { name: 'item', path: '/api/v1/mechanisms/M-001' },
  { name: 'collection', path: '/api/v1/mechanisms' },
];
const ENCODINGS: Array<{ name: string; header?: string }> = [
  { name: 'identity' },
  { name: 'gzip', header: 'gzip' },
  { name: 'br', header: 'br, gzip' },
];

function decoded(answer: Exchange): Buffer {
  const encoding = answer.headers['content-encoding'];
  return encoding === 'gzip' ? gunzipSync(answer.body) : encoding === 'br' ? brotliDecompressSync(answer.body) : answer.body;
}

async function benchServe(serve: Child, site: string): Promise<void> {
  const nginxPath = findNginx();
  const nginx = nginxPath ? await startNginx(nginxPath, site) : undefined;
  if (!nginx) console.log('\n(nginx not found: install it, or set HOBA_NGINX; hoba serve is measured without its baseline)');
  try {
    const rows: string[][] = [];
    const wire: string[][] = [];
    for (const route of ROUTES) {
      // As served: hoba serve rebuilds the site first if the content changed since.
      const file = readFileSync(join(site, `${route.path.slice(1)}.json`));
      for (const encoding of ENCODINGS) {
        const headers: Record<string, string> = encoding.header ? { 'accept-encoding': encoding.header } : {};
        const load: Load = { path: route.path, headers };
        // Bytes on the wire, and that what is sent is the file.
        const ours = await exchange(new URL(route.path, serve.url), { headers });
        const theirs = nginx ? await exchange(new URL(route.path, nginx.url), { headers }) : undefined;
        for (const [who, a] of [
          ['hoba serve', ours],
          ['nginx', theirs],
        ] as const) {
          if (!a) continue;
          if (a.status !== 200 || !decoded(a).equals(file))
            throw new Error(`${who} ${route.path} (${encoding.name}): not the built file (status ${a.status})`);
          wire.push([
            who,
            `${route.name} ${route.path}`,
            encoding.name,
            String(a.headers['content-encoding'] ?? 'identity'),
            f(a.headerBytes),
            f(a.body.length),
            f(a.headerBytes + a.body.length),
          ]);
        }
        // The ceiling: a bare node:http handler sending the same bytes with the same headers.
        const sameHeaders = Object.fromEntries(
          Object.entries(ours.headers)
            .filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k))
            .map(([k, v]) => [k, String(v)]),
        );
        const bare = await startBare(`bare ${route.path} ${encoding.name}`, ours.body, sameHeaders);
        try {
          const subjects = [
            { url: serve.url, load, pid: serve.process.pid },
            { url: bare.url, load: { ...load, path: '/' }, pid: bare.process.pid },
            ...(nginx ? [{ url: nginx.url, load, pid: nginx.process.pid }] : []),
          ];
          const [s, b, n] = await compare(subjects);
          const served = String(ours.headers['content-encoding'] ?? 'identity');
          const nginxServed = theirs ? String(theirs.headers['content-encoding'] ?? 'identity') : '';
          // nginx without a brotli module answers br clients with gzip: that row is not like for like.
          const like = n !== undefined && nginxServed === served;
          rows.push([
            `${route.name} ${route.path}`,
            `${encoding.name} (${served}${n && !like ? ` / nginx ${nginxServed}` : ''})`,
            f(s!.rps),
            n ? f(n.rps) : '–',
            n ? `${pct(s!.rps, n.rps)}${like ? '' : ' (not like for like)'}` : '–',
            f(b!.rps),
            pct(s!.rps, b!.rps),
            [s!, n, b!].map((x) => (x ? f(x.cpuUs ?? NaN) : '–')).join(' / '),
            `${f(s!.p50, 1)} / ${f(s!.p99, 1)} / ${f(s!.max)}`,
            n ? `${f(n.p50, 1)} / ${f(n.p99, 1)} / ${f(n.max)}` : '–',
            `${errs(s!)}${n ? ` / ${errs(n)}` : ''}`,
          ]);
          if (like)
            check(
              s!.rps >= 0.6 * n.rps,
              `hoba serve ${route.name} route (${served}): ${pct(s!.rps, n.rps)} of nginx (target ≥ 60%); bare node:http with the same bytes: ${pct(b!.rps, n.rps)} of nginx; CPU per request ${f(s!.cpuUs ?? NaN)} µs, nginx ${f(n.cpuUs ?? NaN)} µs, bare ${f(b!.cpuUs ?? NaN)} µs`,
            );
        } finally {
          await bare.stop();
        }
      }
    }
    table(
      `hoba serve against nginx (1 worker, the emitted _nginx.conf, same files) and a bare node:http handler (same bytes and headers): ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION} s alternated, median`,
      [
        'route',
        'Accept-Encoding (served)',
        'hoba serve req/s',
        'nginx req/s',
        'serve / nginx',
        'bare node:http req/s',
        'serve / bare',
        'CPU µs/req serve / nginx / bare',
        'serve p50 / p99 / max ms',
        'nginx p50 / p99 / max ms',
        'errors (serve / nginx)',
      ],
      rows,
    );
    table(
      'Bytes on the wire (one GET, Connection: close)',
      ['server', 'route', 'Accept-Encoding', 'Content-Encoding', 'header bytes', 'body bytes', 'total'],
      wire,
    );
    if (nginx)
      console.log(
        nginx.brotli
          ? "\n(nginx loads the brotli_static module and enables the snippet's brotli_static line: br is like for like)"
          : '\n(this nginx has no brotli_static module: a br request gets the gzip file from it)',
      );
  } finally {
    await nginx?.stop();
  }
}

// ── profile ─────────────────────────────────────────────────────────────────────────────────────────

/** Runs `load` against a server started under --cpu-prof, stops it with SIGINT (node then writes the
 * profile) and prints where the time went. */
async function profileUnder(
  dir: string,
  what: string,
  start: (profileDir: string) => Promise<Child>,
  loads: Array<{ name: string; load: (url: URL) => Promise<Load> }>,
): Promise<void> {
  const out = join(dir, what.replace(/\W+/g, '-'));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const child = await start(out);
  for (const { name, load } of loads) {
    await cannon(child.url, await load(child.url), CONNECTIONS, Math.max(DURATION, 2));
    console.log(`\n(profiled ${what}: ${name}, ${CONNECTIONS} connections)`);
  }
  child.process.kill('SIGINT');
  await once(child.process, 'exit');
  children.delete(child);
  for (const p of readdirSync(out).filter((n) => /\.0\.\d+\.cpuprofile$/.test(n)))
    console.log(summariseProfile(join(out, p), 25).join('\n'));
}

async function profile(dir: string, site: string): Promise<void> {
  const mcpLoads = MCP_LOADS.map(({ name, body }) => ({ name, load: async (url: URL) => (await mcpLoad(url, body)).load }));
  await profileUnder(dir, 'hoba-mcp --http', (d) => startMcpHttp(d), mcpLoads);
  await profileUnder(dir, 'hoba-mcp --http, memo off', (d) => startMcpHttp(d, { HOBA_MCP_CACHE_MB: '0' }), mcpLoads);
  // The same endpoint mounted in hoba serve, under the same loads: what the site server adds to it.
  const mountedLoads = MCP_LOADS.map(({ name, body }) => ({
    name,
    load: async (url: URL) => (await mcpLoad(new URL('/mcp', url), body)).load,
  }));
  await profileUnder(dir, 'hoba serve /mcp', (d) => startServe(site, d), mountedLoads);
  await profileUnder(
    dir,
    'hoba serve',
    (d) => startServe(site, d),
    ROUTES.map((r) => ({ name: r.path, load: async () => ({ path: r.path }) })),
  );
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const load = await import('node:os').then((os) => os.loadavg());
  console.log(`HTTP doors: bench/http.ts${SMOKE ? ' --smoke' : QUICK ? ' --quick' : ''}\n`);
  console.log(
    `Node ${process.version}, ${(await import('node:os')).cpus().length} cores, load average ${load.map((x) => x.toFixed(2)).join(' ')} at the start, ${new Date().toISOString()}.`,
  );
  console.log(
    `autocannon in this process, every server in its own; ${ROUNDS} alternated run(s) of ${DURATION} s per row after a ${WARMUP} s warm-up.`,
  );

  const site = values.site ?? join(work, 'site');
  if (!values.site) writeSite(buildInMemory(ROOT).site, site);
  // Each part has a hoba serve of its own: the static site is measured in a fresh process, not one that
  // has just carried the MCP load (its heap and collector are in another state after that).
  for (const part of ['mcp', 'serve'] as const) {
    if (values.only && values.only !== part) continue;
    const serve = await startServe(site);
    try {
      await (part === 'mcp' ? benchMcp(serve) : benchServe(serve, site));
    } finally {
      await serve.stop();
    }
  }
  if (values.profile) await profile(values.profile, site);
  console.log('\n### Targets\n');
  for (const c of checks) console.log(c);
  console.log(
    `\nLoad average at the end: ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}.`,
  );
}

await main();
