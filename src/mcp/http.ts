// The hosted variant over Streamable HTTP on a Node server (`hoba-mcp --http`, and the /mcp mount of
// `hoba serve`): node:http's request and response adapted to the endpoint's answers (exchange.ts, shared
// with the edge worker in src/worker/). What is Node's own lives here: reading the body from the stream,
// and writing the answer in one go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../http/security.ts';
import { DRAIN_LIMIT, createMcpExchange, type McpAnswer, type McpHttpOptions } from './exchange.ts';
import type { ErrorResponse } from './jsonrpc.ts';
import type { ToolAtlas } from './tools.ts';

export { type McpHttpOptions } from './exchange.ts';

/** Sends a JSON-RPC error response (not cached: it answers one request). */
export function sendError(res: ServerResponse, status: number, error: ErrorResponse, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
    ...SECURITY_HEADERS,
  });
  res.end(JSON.stringify(error));
}

/**
 * The request body, or 'too-large' past `max` bytes (declared or sent); an oversized body is drained up
 * to DRAIN_LIMIT first. Read with events rather than an async iterator: leaving a for-await early destroys
 * the request, and with it the socket the 413 is about to be written to.
 */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) return Promise.resolve('too-large');
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > max;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) {
        req.pause();
        done('too-large');
      }
    });
    req.on('end', () => done(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', fail);
    // A client that goes away mid-body: nothing will be answered, but the handler must not wait forever.
    req.on('close', () => done('too-large'));
  });
}

/**
 * Writes an answer: head and body leave in one write (corked). The chunks are written as they are: a kept
 * answer is the memo's own buffer, and joining them into a new one per request (Buffer.concat) was measured
 * at four times the CPU per request in hoba serve, whose large heap makes each new buffer's collection dear.
 */
function write(res: ServerResponse, answer: McpAnswer): void {
  if (res.headersSent || res.destroyed) return;
  if (answer.close) res.setHeader('Connection', 'close');
  res.writeHead(answer.status, { ...answer.headers, ...SECURITY_HEADERS });
  res.cork();
  for (const chunk of answer.chunks) res.write(chunk);
  res.end();
  res.uncork();
}

/** A request handler for the MCP endpoint; `atlas` is opened, and the server built, at once (in the background). */
export function createMcpHttpHandler(atlas: () => Promise<ToolAtlas>, options: McpHttpOptions) {
  const exchange = createMcpExchange(atlas, options);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const answer = await exchange({
      method: req.method ?? '',
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      body: (max) => readBody(req, max),
    });
    write(res, answer);
  };
}
