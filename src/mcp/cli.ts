// The MCP server's command line, shared by the hoba-mcp bin (main.ts) and `hoba mcp` (src/cli/program.ts):
//   hoba-mcp --dir <checkout>                local variant on stdio (ten tools)
//   hoba-mcp                                 hosted variant on stdio, bundled atlas (nine tools)
//   hoba-mcp --http [--port N] [--host H]    hosted variant over Streamable HTTP at /mcp
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pkg from '../../package.json' with { type: 'json' };
import { isCheckout } from '../registry/checkout.ts';
import { CACHE_MB_VARIABLE } from './cache-budget.ts';
import { McpStartError } from './atlas.ts';
import { hostedConfig, localConfig, PACKAGE_NAME, tarballConfig } from '../model/package.ts';
import { DEFAULT_MCP_PORT, runMcp, type McpRunOptions } from './run.ts';

/** The help of the MCP server's command line, as `name` (hoba-mcp, or hoba mcp). */
const usage = (name: string) => `Usage: ${name} [--dir <checkout>] [--http [--port <n>] [--host <address>]]

The Hiring Obstacles & Barriers Atlas as a Model Context Protocol server.

Options:
  --dir <checkout>   serve this checkout's content (the local variant: ten tools, incl. get_registry_info)
  --http             serve over Streamable HTTP (stateless) at /mcp instead of stdio
  --port <n>         HTTP port (default ${DEFAULT_MCP_PORT}; 0 picks a free one)
  --host <address>   HTTP address (default 127.0.0.1; on loopback, Host and Origin are checked)
  -V, --version      print the version
  -h, --help         show this help

Without --dir it serves the atlas bundled with hoba (the hosted variant: nine tools).
With --http, answers to read-only requests are cached (64 MiB, oldest dropped first);
${CACHE_MB_VARIABLE}=<n> sets the budget, 0 turns the cache off.

Client configuration (local):
  ${localConfig()}
Client configuration (hosted, from the npm registry once ${PACKAGE_NAME} is published):
  ${hostedConfig()}
Until then, from a packed tarball (npm pack):
  ${tarballConfig()}
`;

class UsageError extends Error {}

function parseMcpArgs(argv: string[]): McpRunOptions | 'help' | 'version' {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs assignment below
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        dir: { type: 'string' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const options: McpRunOptions = {};
  if (values.dir !== undefined) {
    const dir = resolve(values.dir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--dir ${values.dir} is not a directory.`);
    if (!isCheckout(dir)) throw new UsageError(`--dir ${values.dir} holds no atlas (no content/atlas.yaml in it).`);
    options.dir = dir;
  }
  if (!values.http && (values.port !== undefined || values.host !== undefined))
    throw new UsageError('--port and --host only apply with --http.');
  if (values.http) {
    const port = values.port === undefined ? DEFAULT_MCP_PORT : Number(values.port);
    if (!/^\d+$/.test(values.port ?? '0') || port > 65535)
      throw new UsageError(`--port must be a number from 0 to 65535, not "${values.port}".`);
    options.http = { host: values.host ?? '127.0.0.1', port };
  }
  return options;
}

/**
 * The MCP server's command line (hoba-mcp, and hoba mcp): parses `argv`, starts the server and returns
 * undefined while it serves, or the exit status of --help, --version or a usage or start error.
 */
export async function mcpMain(argv: string[], name = 'hoba-mcp'): Promise<number | undefined> {
  try {
    const parsed = parseMcpArgs(argv);
    if (parsed === 'help') {
      process.stdout.write(usage(name));
      return 0;
    }
    if (parsed === 'version') {
      process.stdout.write(`${pkg.version}\n`);
      return 0;
    }
    await runMcp(parsed);
    return undefined;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${name}: ${err.message}\n(run ${name} --help for usage)\n`);
      return 2;
    }
    if (err instanceof McpStartError) {
      process.stderr.write(`${name}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
