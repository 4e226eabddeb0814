// The hosted variant over Streamable HTTP: stateless (a new server and transport per POST, JSON
// responses, no session), at one path. Guards: Host/Origin checked against DNS rebinding when bound to
// loopback, request bodies capped, GET and DELETE answered 405.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { createMcpServer } from './server.ts';
import type { ToolAtlas } from './tools.ts';

/** Largest request body accepted (bytes). Tool arguments are small; 1 MiB is generous. */
export const MAX_BODY_BYTES = 1024 * 1024;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\./.test(host);
}

export interface McpHttpOptions {
  /** The address the server is bound to; loopback binds get Host/Origin checks. */
  bindHost: string;
  maxBodyBytes?: number;
}

/** The hostname of a Host header or an Origin URL ("[::1]:8080" → "[::1]"), or undefined when malformed. */
function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    const url = new URL(isOrigin ? value : `http://${value}`);
    return url.hostname;
  } catch {
    return undefined;
  }
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A request handler for the MCP endpoint; `atlas` is opened on first use. */
export function createMcpHttpHandler(atlas: () => Promise<ToolAtlas>, options: McpHttpOptions) {
  const max = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const guard = isLoopback(options.bindHost);
  let opened: Promise<ToolAtlas> | undefined;

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (guard) {
      const host = hostnameOf(req.headers.host ?? '', false);
      if (!host || !isLoopback(host)) return jsonRpcError(res, 403, -32000, `Forbidden: Host "${req.headers.host ?? ''}" is not a loopback name (DNS rebinding protection).`);
      const origin = req.headers.origin;
      if (origin !== undefined) {
        const name = hostnameOf(origin, true);
        if (!name || !isLoopback(name)) return jsonRpcError(res, 403, -32000, `Forbidden: Origin "${origin}" is not a loopback origin.`);
      }
    }
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return jsonRpcError(res, 405, -32000, 'Method not allowed: this stateless MCP endpoint answers POST only.', { Allow: 'POST' });
    }
    const body = await readBody(req, max);
    if (body === 'too-large') {
      res.setHeader('Connection', 'close');
      return jsonRpcError(res, 413, -32000, `Request body larger than ${max} bytes.`);
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    }

    opened ??= atlas();
    const server = createMcpServer(await opened, 'hosted');
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  };
}
