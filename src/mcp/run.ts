// Starting an MCP server: stdio or HTTP, local (a checkout) or hosted (the bundled snapshot). Shared by
// the hoba-mcp entry (dist/mcp.js) and `hoba mcp` (npx -y @hoba-atlas/hoba mcp), through cli.ts.
import type { AddressInfo } from 'node:net';
import { McpStartError, openBundledAtlas, openCheckoutAtlas } from './atlas.ts';
import { MCP_PATH } from '../model/endpoints.ts';
import { errorResponse } from './jsonrpc.ts';
import { serveStdio } from './stdio.ts';
import { toolsFor, type ToolAtlas } from './tools.ts';

export const DEFAULT_MCP_PORT = 8090;

export interface McpRunOptions {
  /** A checkout: the local variant (all ten tools) over stdio. Without it, the bundled snapshot. */
  dir?: string;
  /** Serve the hosted variant over Streamable HTTP instead of stdio. */
  http?: { host: string; port: number };
}

export async function runMcp(options: McpRunOptions): Promise<void> {
  const open = (): Promise<ToolAtlas> => (options.dir !== undefined ? openCheckoutAtlas(options.dir) : Promise.resolve(openBundledAtlas()));
  if (!options.http) {
    const variant = options.dir !== undefined ? 'local' : 'hosted';
    const atlas = await open();
    await serveStdio(atlas, variant);
    const where = options.dir !== undefined ? `checkout ${options.dir}` : 'the bundled atlas';
    // Said (on stderr, which clients show as the server's log) once a client speaks, not to an empty pipe.
    process.stdin.once('data', () =>
      process.stderr.write(
        `hoba MCP server (${variant}, ${toolsFor(variant).length} tools) on stdio, reading ${where} (registry ${atlas.registry.version}).\n`,
      ),
    );
    return;
  }
  // The HTTP server's code (node:http, the request exchange) is loaded only here: a stdio server, started
  // for each session by a client, answers its first call sooner without it.
  const [{ createServer }, { createMcpHttpHandler, sendError }, { stopOnSignals }] = await Promise.all([
    import('node:http'),
    import('./http.ts'),
    import('../http/graceful.ts'),
  ]);
  const { host, port } = options.http;
  const atlas = await open();
  const handle = createMcpHttpHandler(async () => atlas, { bindHost: host });
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== MCP_PATH) {
      // Answered in JSON-RPC like everything else this server says, with where the endpoint is.
      const where = `Send JSON-RPC messages with POST to ${MCP_PATH} on this server (that exact path, in lower case, no trailing slash).`;
      return sendError(
        res,
        404,
        errorResponse(
          -32000,
          `Not found: ${JSON.stringify(path.length > 80 ? `${path.slice(0, 80)}…` : path)} is not the MCP endpoint. ${where}`,
        ),
      );
    }
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`hoba-mcp: error handling a request: ${(err as Error).message}\n`);
      if (!res.headersSent) sendError(res, 500, errorResponse(-32603, 'Internal error'));
      else res.end();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        new McpStartError(
          err.code === 'EADDRINUSE'
            ? `${host}:${port} is already in use; pass another --port (0 for any free one).`
            : `cannot listen on ${host}:${port}: ${err.message}`,
        ),
      ),
    );
    server.listen(port, host, () => done());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(
    `hoba MCP server (hosted, ${toolsFor('hosted').length} tools) at http://${shown}:${address.port}${MCP_PATH} (registry ${atlas.registry.version}). Ctrl-C stops it.\n`,
  );
  // SIGTERM or Ctrl-C: stop accepting, finish the requests in flight (up to a deadline), then exit.
  void stopOnSignals(server);
}
