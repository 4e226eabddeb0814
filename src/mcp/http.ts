// The hosted variant over Streamable HTTP: stateless (a new server and transport per POST, JSON
// responses, no session), at one path. Guards: Host/Origin checked against DNS rebinding when bound to
// loopback, request bodies capped, GET and DELETE answered 405. Every answer is JSON-RPC, errors too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { MAX_MESSAGE_BYTES, errorResponse, invalidBody, type ErrorResponse } from './jsonrpc.ts';
import { createMcpServer } from './server.ts';
import type { ToolAtlas } from './tools.ts';

/**
 * Whether a hostname (as URL parsing leaves it: lower case, IPv6 in brackets, numeric IPv4 forms such as
 * 127.1 or 0x7f.1 already written as 127.0.0.1) or a bind address names this machine: localhost, ::1,
 * or an IPv4 address in 127.0.0.0/8. A DNS name that merely starts with "127." (127.0.0.1.nip.io) is not:
 * it can resolve anywhere, which is what a DNS-rebinding attack relies on.
 */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return isIPv4(host) && host.split('.')[0] === '127';
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

/** Sends a JSON-RPC error response (not cached: it answers one request). */
export function sendError(res: ServerResponse, status: number, error: ErrorResponse, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(error));
}

/** An HTTP-level refusal has no JSON-RPC code of its own: it uses -32000, the first server-defined one, as the SDK does. */
function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendError(res, status, errorResponse(code, message), headers);
}

/** Streamable HTTP: a client must accept both (this server always answers in JSON, but the transport requires it). */
function acceptsBoth(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/json') && accept.includes('text/event-stream');
}

/**
 * How much of an oversized body is still read, and thrown away, before the 413 is sent. A client that is
 * still sending when the server answers and closes gets a connection reset instead of the answer, so a
 * body up to this size is drained first; beyond it (or a declared length beyond it) the answer is sent at
 * once and the connection closed, whatever the client then sees.
 */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * The request body, or 'too-large' past `max` bytes (declared or sent). Read with events rather than an
 * async iterator: leaving a for-await early destroys the request, and with it the socket the 413 is
 * about to be written to.
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

/** A request handler for the MCP endpoint; `atlas` is opened on first use. */
export function createMcpHttpHandler(atlas: () => Promise<ToolAtlas>, options: McpHttpOptions) {
  const max = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
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
    if (!acceptsBoth(req.headers.accept)) {
      return jsonRpcError(
        res,
        406,
        -32000,
        `Not Acceptable: send the header "Accept: application/json, text/event-stream" (got ${JSON.stringify(req.headers.accept ?? '')}). A Streamable HTTP client must accept both; this endpoint answers in JSON.`,
      );
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
    const invalid = invalidBody(message);
    if (invalid) return sendError(res, 400, invalid);

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
