// hoba serve: serve the built site locally with the same routes and headers as the host files,
// rebuilding it first when the content (or hoba itself) changed since the last build.
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { API_BASE, MCP_PATH, OPENAPI_PATH } from '../publish/routes.ts';
import { serveMounts } from '../serve/mounts.ts';
import { createSiteServer } from '../serve/server.ts';
import { contentHash } from '../registry/hash.ts';
import { DEFAULT_OUT } from '../publish/build.ts';
import { buildCheckout, GENERATOR, printSummary } from './build.ts';
import { CliError, colour, resolveCheckout } from './io.ts';

interface Options {
  port: string;
  host: string;
  out: string;
  dir?: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the site (REST API, OpenAPI, developer page) locally, rebuilding it first if the content changed')
    .option('--port <port>', 'TCP port (0 picks a free one)', '8080')
    .option('--host <host>', 'address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--out <dir>', 'site root to serve (and rebuild)', DEFAULT_OUT)
    .option('--dir <checkout>', 'atlas checkout (default: $HOBA_DIR, then the nearest ancestor holding content/atlas.yaml)')
    .addHelpText(
      'after',
      `
Answers GET and HEAD only. Unknown API paths get a 404 JSON problem document. Stop with Ctrl-C.

Examples:
  $ hoba serve                        http://127.0.0.1:8080/
  $ hoba serve --port 3000 --host 0.0.0.0
  $ curl -s http://127.0.0.1:8080/api/v1/mechanisms/M-001`,
    )
    .action(async (opts: Options) => {
      const port = parsePort(opts.port);
      const dir = resolveCheckout(opts.dir);
      const out = resolve(dir, opts.out);
      const reason = staleReason(dir, out);
      if (reason) {
        console.log(`Building ${relative(process.cwd(), out) || '.'}/ (${reason})…`);
        printSummary(buildCheckout(dir, out), out, dir);
      }
      await serve(out, dir, opts.host, port);
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

async function serve(root: string, checkout: string, host: string, port: number): Promise<void> {
  const mounts = serveMounts({ checkout });
  const server = createSiteServer({ root, mounts });
  await new Promise<void>((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (err.code === 'EADDRINUSE') fail(new CliError(`${where} is already in use. Pass another --port (or --port 0 for any free one).`));
      else if (err.code === 'EACCES') fail(new CliError(`not allowed to listen on ${where}; ports below 1024 need privileges. Pass --port 8080.`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(new CliError(`cannot listen on ${host}: not an address of this machine. Try --host 127.0.0.1.`, 2));
      else fail(new CliError(`cannot listen on ${where}: ${err.message}`));
    });
    server.listen(port, host, () => done());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown}:${address.port}`;
  console.log(colour.bold(`Serving the atlas at ${origin}/`) + (shown === '0.0.0.0' ? ' (on every interface)' : ''));
  console.log(`  developer page  ${origin}/developers/`);
  console.log(`  REST API        ${origin}${API_BASE}/  (e.g. ${origin}${API_BASE}/artifacts)`);
  console.log(`  OpenAPI         ${origin}${OPENAPI_PATH}`);
  if (mounts.some((m) => m.path === MCP_PATH)) console.log(`  MCP (HTTP)      ${origin}${MCP_PATH}`);
  console.log(colour.dim('Press Ctrl-C to stop.'));

  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => done());
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
