// hoba serve: serve the built site locally with the same routes and headers as the host files,
// rebuilding it first when the content (or hoba itself) changed since the last build.
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { MCP_PATH } from '../model/endpoints.ts';
import { API_BASE, OPENAPI_PATH } from '../publish/routes.ts';
import { STOP_DEADLINE_MS, stopOnSignals } from '../http/graceful.ts';
import { createSiteServer } from '../serve/server.ts';
import { contentHash } from '../registry/hash.ts';
import { DEFAULT_OUT } from '../publish/build.ts';
import { buildCheckout, GENERATOR } from '../workflows/build.ts';
import { serveMounts } from '../workflows/mounts.ts';
import { outDir, printSummary, summary } from './build.ts';
import { CliError, colour, resolveCheckout, writeJson } from './io.ts';

interface Options {
  port: string;
  host: string;
  out?: string;
  dir?: string;
  json?: boolean;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the site (REST API, OpenAPI, developer page) locally, rebuilding it first if the content changed')
    .option('--port <port>', 'TCP port (0 picks a free one)', '8080')
    .option('--host <host>', 'address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--out <dir>', `site root to serve (and rebuild); default: ${DEFAULT_OUT}/ in the checkout`)
    .option('--dir <checkout>', 'atlas checkout (default: $HOBA_DIR, then the nearest ancestor holding content/atlas.yaml)')
    .option('--json', 'once listening, print the URLs (and the build summary, if it rebuilt) as JSON')
    .addHelpText(
      'after',
      `
The site answers GET and HEAD (and CORS preflights on the API); unknown API paths get a 404 JSON
problem document. POST ${MCP_PATH} is the hosted MCP server (Streamable HTTP). Stop with Ctrl-C or SIGTERM: the server
stops accepting, finishes the requests in flight (for up to ${STOP_DEADLINE_MS / 1000} s), then exits.

Examples:
  $ hoba serve                        http://127.0.0.1:8080/
  $ hoba serve --port 3000 --host 0.0.0.0
  $ curl -s http://127.0.0.1:8080/api/v1/mechanisms/M-001`,
    )
    .action(async (opts: Options) => {
      const port = parsePort(opts.port);
      await checkAddress(opts.host, port);
      const dir = resolveCheckout(opts.dir);
      const out = outDir(dir, opts.out);
      const reason = staleReason(dir, out);
      let rebuilt: (ReturnType<typeof summary> & { reason: string }) | undefined;
      if (reason) {
        if (!opts.json) console.log(`Building ${relative(process.cwd(), out) || '.'}/ (${reason})…`);
        const built = buildCheckout(dir, out);
        if (opts.json) rebuilt = { ...summary(built, out), reason };
        else printSummary(built, out, dir);
      }
      await serve(out, dir, opts.host, port, opts.json ? (urls) => writeJson({ ...urls, rebuilt: rebuilt ?? null }) : undefined);
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new CliError(`--port must be a number from 0 to 65535, not "${value}".`, 2);
  return port;
}

/** Why the site must be rebuilt before serving, or undefined when it is up to date. */
export function staleReason(dir: string, out: string): string | undefined {
  const index = join(out, 'api', 'v1', 'index.json');
  if (!existsSync(index)) return 'no site built yet';
  let built: { content_hash?: unknown; generator?: unknown };
  try {
    built = JSON.parse(readFileSync(index, 'utf8')) as typeof built;
  } catch {
    return 'the built site is unreadable';
  }
  if (built.generator !== GENERATOR) return `built by ${String(built.generator)}, this is ${GENERATOR}`;
  if (built.content_hash !== contentHash(dir)) return 'the content changed since the last build';
  return undefined;
}

/** Listens on host:port, turning the usual failures into errors that say what to pass instead. */
function listen(server: NetServer, host: string, port: number): Promise<void> {
  return new Promise<void>((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (err.code === 'EADDRINUSE')
        fail(new CliError(`${where} is already in use. Pass another --port (or --port 0 for any free one).`, 1, 'address-in-use'));
      else if (err.code === 'EACCES')
        fail(new CliError(`not allowed to listen on ${where}; ports below 1024 need privileges. Pass --port 8080.`, 1, 'listen-failed'));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        fail(new CliError(`cannot listen on ${host}: not an address of this machine. Try --host 127.0.0.1.`, 2));
      else fail(new CliError(`cannot listen on ${where}: ${err.message}`, 1, 'listen-failed'));
    });
    server.listen(port, host, () => done());
  });
}

/** Binds host:port once and lets go, so that a wrong --host or a port in use is reported at once, not
 * after a rebuild of the whole site. (A hostname such as localhost is resolved as listen() will.) */
async function checkAddress(host: string, port: number): Promise<void> {
  const probe = createNetServer();
  await listen(probe, host, port);
  await new Promise((done) => probe.close(done));
}

/** The URLs a running server answers, as printed. */
interface Urls {
  url: string;
  developers: string;
  api: string;
  openapi: string;
  mcp: string | null;
}

async function serve(root: string, checkout: string, host: string, port: number, printJson?: (urls: Urls) => void): Promise<void> {
  const mounts = serveMounts({ checkout, host });
  const server = createSiteServer({ root, mounts });
  await listen(server, host, port);
  const address = server.address() as AddressInfo;
  // A wildcard address is reachable on loopback; print that.
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  const reachable = everywhere ? (address.family === 'IPv6' ? '::1' : '127.0.0.1') : address.address;
  const origin = `http://${address.family === 'IPv6' ? `[${reachable}]` : reachable}:${address.port}`;
  const urls: Urls = {
    url: `${origin}/`,
    developers: `${origin}/developers/`,
    api: `${origin}${API_BASE}/`,
    openapi: `${origin}${OPENAPI_PATH}`,
    mcp: mounts.some((m) => m.path === MCP_PATH) ? `${origin}${MCP_PATH}` : null,
  };
  if (printJson) printJson(urls);
  else {
    console.log(colour.bold(`Serving the atlas at ${urls.url}`) + (everywhere ? ' (on every interface)' : ''));
    console.log(`  developer page  ${urls.developers}`);
    console.log(`  REST API        ${urls.api}  (e.g. ${urls.api}artifacts)`);
    console.log(`  OpenAPI         ${urls.openapi}`);
    if (urls.mcp) console.log(`  MCP (HTTP)      ${urls.mcp}`);
    console.log(colour.dim('Press Ctrl-C to stop.'));
  }

  // SIGTERM or Ctrl-C: stop accepting, finish what is in flight (up to the deadline), then exit.
  await stopOnSignals(server);
}
