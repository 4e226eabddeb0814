// The hosted MCP endpoint's answers, apart from any HTTP server: one request in (method, headers, a body
// read on demand), one answer out (status, headers, body chunks). The Node server (http.ts, for
// `hoba-mcp --http` and the /mcp mount of `hoba serve`) and the edge worker (src/worker/) adapt their own
// request and response objects to it, so both doors answer alike.
//
// Stateless (no session; any request may land on any instance), JSON responses. Guards: Host/Origin
// checked against DNS rebinding when bound to loopback, request bodies capped, GET and DELETE answered
// 405. Every answer is JSON-RPC, errors too.
//
// What can be built once is built once: the atlas, its search index and one MCP server with every tool
// definition, connected at start-up to one long-lived transport (ExchangeTransport); a POST hands that
// server its requests and writes back the answers, and nothing is constructed per request. (The SDK's
// stateless recipe, a new server and transport per POST, measured 1.7% of a bare node:http handler
// here.) And what has been answered once is not computed again: the atlas never changes while a server
// runs and the tools are read-only, so successful answers are kept by request (AnswerMemo, bounded; the
// environment variable HOBA_MCP_CACHE_MB sets its budget, 0 turns it off). Measured in bench/http.ts.
import { isIPv4 } from 'node:net';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  isJsonContentType,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
} from '@modelcontextprotocol/server';
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
  /** Budget of kept answers in bytes; by default HOBA_MCP_CACHE_MB, else 64 MiB. */
  memoBytes?: number;
}

/** One HTTP request to the endpoint, as any server sees it. */
export interface McpRequest {
  method: string;
  /** A request header by its lower-case name; undefined when absent. */
  header(name: string): string | undefined;
  /** The body, or 'too-large' past `max` bytes (declared or sent). Read only once the headers pass. */
  body(max: number): Promise<Uint8Array | 'too-large'>;
}

/** The answer to one request, for the server to write. */
export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body in chunks: a kept answer is sent as it is, without copying it. */
  chunks: readonly Uint8Array[];
  /** The body was not read to its end: close the connection after answering. */
  close?: boolean;
}

/**
 * How much of an oversized body is still read, and thrown away, before the 413 is sent. A client that is
 * still sending when the server answers and closes gets a connection reset instead of the answer, so a
 * body up to this size is drained first; beyond it (or a declared length beyond it) the answer is sent at
 * once and the connection closed, whatever the client then sees.
 */
export const DRAIN_LIMIT = 16 * 1024 * 1024;

/** The hostname of a Host header or an Origin URL ("[::1]:8080" → "[::1]"), or undefined when malformed. */
function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    const url = new URL(isOrigin ? value : `http://${value}`);
    return url.hostname;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error answer (not cached: it answers one request). */
export function errorAnswer(status: number, error: ErrorResponse, headers: Record<string, string> = {}): McpAnswer {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    chunks: [Buffer.from(JSON.stringify(error))],
  };
}

/** An HTTP-level refusal has no JSON-RPC code of its own: it uses -32000, the first server-defined one, as the SDK does. */
function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): McpAnswer {
  return errorAnswer(status, errorResponse(code, message), headers);
}

/** Streamable HTTP: a client must accept both (this server always answers in JSON, but the transport requires it). */
function acceptsBoth(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/json') && accept.includes('text/event-stream');
}

/** The largest batch answered, as the SDK's own transport caps it. */
const MAX_BATCH = 100;

type Answer = JSONRPCMessage & { id: string | number; result?: { isError?: boolean } };

/**
 * The one transport of the shared server. Each request is handed on under an id of the transport's own,
 * so that two clients' "id": 1 never meet inside the server, and its answer is given back under the id
 * its client sent. Only requests are handed on: in a stateless exchange a notification (initialized,
 * cancelled, progress) or a response has nothing of the server's to act on, and on a shared server a
 * client's notifications/cancelled could name another client's request.
 */
class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** The protocol versions the server speaks (it says so on connect), for the MCP-Protocol-Version header. */
  versions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  private next = 0;
  private readonly waiting = new Map<number, (answer: Answer) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.waiting.clear();
    this.onclose?.();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.versions = versions;
  }

  /** From the server: the answer to a request handed on (the SDK answers every one), or something with nowhere to go. */
  async send(message: JSONRPCMessage): Promise<void> {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== 'number' || 'method' in message) return;
    const settle = this.waiting.get(id);
    if (!settle) return;
    this.waiting.delete(id);
    settle(message as Answer);
  }

  /** Hands one request to the server; resolves with its answer (still under the transport's id). */
  dispatch(request: JSONRPCRequest): Promise<Answer> {
    return new Promise<Answer>((resolve) => {
      const id = (this.next = this.next >= Number.MAX_SAFE_INTEGER ? 1 : this.next + 1);
      this.waiting.set(id, resolve);
      this.onmessage?.({ ...request, id });
    });
  }
}

/**
 * Methods whose successful answer depends on nothing but their params: the atlas of a running server never
 * changes, and every tool is read-only. Their answers are kept (serialised, up to the client's id) and
 * served again to the same request, by any client: the SDK answers each distinct request once.
 */
const MEMOISED = new Set(['tools/call', 'tools/list', 'resources/read', 'resources/list', 'resources/templates/list', 'prompts/list', 'prompts/get']);
/** Requests with longer params are answered but not kept (a key is held in memory beside its answer). */
const MAX_KEY_LENGTH = 4096;
/** Default budget of kept answers; HOBA_MCP_CACHE_MB sets another (0: keep none). */
const DEFAULT_MEMO_MB = 64;

/** Answers kept by request, oldest dropped first once over the byte budget. */
class AnswerMemo {
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;
  constructor(readonly budget: number) {}

  get(key: string): Buffer | undefined {
    return this.kept.get(key);
  }

  set(key: string, prefix: Buffer): void {
    const size = prefix.length + key.length * 2;
    if (size > this.budget) return;
    this.bytes += size;
    this.kept.set(key, prefix);
    for (const [old, value] of this.kept) {
      if (this.bytes <= this.budget) break;
      this.kept.delete(old);
      this.bytes -= value.length + old.length * 2;
    }
  }
}

function memoBudget(): number {
  // An edge runtime may have no environment at all.
  const given = typeof process === 'undefined' ? undefined : process.env?.['HOBA_MCP_CACHE_MB'];
  const mb = given === undefined || given === '' ? DEFAULT_MEMO_MB : Number(given);
  return Number.isFinite(mb) && mb >= 0 ? mb * 1024 * 1024 : DEFAULT_MEMO_MB * 1024 * 1024;
}

/** An answer as the SDK's transport writes it ({"result","jsonrpc","id"}), up to the id: the id and "}" follow. */
const resultPrefix = (result: unknown) => Buffer.from(`{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":`);
/** An answer as written: chunks, so that a kept answer is sent as it is, without copying it. */
type Chunks = Buffer[];
const withId = (prefix: Buffer, id: string | number): Chunks => [prefix, Buffer.from(`${JSON.stringify(id)}}`)];

/** The hosted MCP server, built and connected once, and what answers a request through it. */
class SharedServer {
  private readonly memo: AnswerMemo;
  /** Requests being answered now, by key: a second identical one waits for the same answer. */
  private readonly inFlight = new Map<string, Promise<Answer>>();

  private constructor(
    readonly transport: ExchangeTransport,
    memoBytes: number,
  ) {
    this.memo = new AnswerMemo(memoBytes);
  }

  static async connect(atlas: ToolAtlas, memoBytes: number): Promise<SharedServer> {
    // Built now rather than by the first search: the first client does not wait for it.
    atlas.search();
    const server = createMcpServer(atlas, 'hosted');
    const transport = new ExchangeTransport();
    await server.connect(transport);
    return new SharedServer(transport, memoBytes);
  }

  /** The serialised answer to one request, under its client's id. */
  async answer(request: JSONRPCRequest): Promise<Chunks> {
    const key = this.memo.budget > 0 && MEMOISED.has(request.method) ? `${request.method}\n${JSON.stringify(request.params ?? null)}` : undefined;
    if (key === undefined || key.length > MAX_KEY_LENGTH) return serialise(await this.transport.dispatch(request), request.id);
    const kept = this.memo.get(key);
    if (kept) return withId(kept, request.id);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.transport.dispatch(request);
      this.inFlight.set(key, pending);
      void pending.then((answer) => {
        this.inFlight.delete(key);
        // Errors and tool errors are not kept: a client may send anything, and only results are worth the memory.
        if (answer.result !== undefined && answer.result.isError !== true) this.memo.set(key, resultPrefix(answer.result));
      });
    }
    return serialise(await pending, request.id);
  }
}

function serialise(answer: Answer, id: string | number): Chunks {
  if (answer.result !== undefined) return withId(resultPrefix(answer.result), id);
  return [Buffer.from(JSON.stringify({ ...answer, id }))];
}

/** Verdicts on Host and Origin values, kept for the few a deployment sees (a URL parse per request otherwise). */
function verdictCache(check: (value: string) => boolean): (value: string) => boolean {
  const seen = new Map<string, boolean>();
  return (value) => {
    let verdict = seen.get(value);
    if (verdict === undefined) {
      verdict = check(value);
      if (seen.size >= 256) seen.clear();
      seen.set(value, verdict);
    }
    return verdict;
  };
}

const JSON_ANSWER = 'application/json';
const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c)) as [Buffer, Buffer, Buffer];

/** What answers the MCP endpoint; `atlas` is opened, and the server built, at once (in the background). */
export function createMcpExchange(atlas: () => Promise<ToolAtlas>, options: McpHttpOptions): (req: McpRequest) => Promise<McpAnswer> {
  const max = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
  const guard = isLoopback(options.bindHost);
  const loopbackHost = verdictCache((value) => {
    const host = hostnameOf(value, false);
    return host !== undefined && isLoopback(host);
  });
  const loopbackOrigin = verdictCache((value) => {
    const name = hostnameOf(value, true);
    return name !== undefined && isLoopback(name);
  });
  let shared: SharedServer | undefined;
  let ready: Promise<SharedServer> | undefined;
  const server = (): Promise<SharedServer> => {
    if (!ready) {
      ready = atlas().then((opened) => SharedServer.connect(opened, options.memoBytes ?? memoBudget()));
      // A failure (content that cannot be read) goes to the requests waiting; the next one tries again.
      ready.then((built) => (shared = built)).catch(() => (ready = undefined));
    }
    return ready;
  };
  void server().catch(() => {});

  return async (req: McpRequest): Promise<McpAnswer> => {
    if (guard) {
      const host = req.header('host') ?? '';
      if (!loopbackHost(host)) return jsonRpcError(403, -32000, `Forbidden: Host "${host}" is not a loopback name (DNS rebinding protection).`);
      const origin = req.header('origin');
      if (origin !== undefined && !loopbackOrigin(origin)) return jsonRpcError(403, -32000, `Forbidden: Origin "${origin}" is not a loopback origin.`);
    }
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return jsonRpcError(405, -32000, 'Method not allowed: this stateless MCP endpoint answers POST only.', { Allow: 'POST' });
    }
    const accept = req.header('accept');
    if (!acceptsBoth(accept)) {
      return jsonRpcError(
        406,
        -32000,
        `Not Acceptable: send the header "Accept: application/json, text/event-stream" (got ${JSON.stringify(accept ?? '')}). A Streamable HTTP client must accept both; this endpoint answers in JSON.`,
      );
    }
    const body = await req.body(max);
    if (body === 'too-large') return { ...jsonRpcError(413, -32000, `Request body larger than ${max} bytes.`), close: true };
    let message: unknown;
    try {
      message = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the request body is not valid JSON.');
    }
    const invalid = invalidBody(message);
    if (invalid) return errorAnswer(400, invalid);
    const type = req.header('content-type');
    if (!isJsonContentType(type)) {
      return jsonRpcError(415, -32000, `Unsupported Media Type: send the body with "Content-Type: application/json" (got ${JSON.stringify(type ?? '')}).`);
    }
    // Each is a valid JSON-RPC message now (invalidBody): telling them apart needs no schema.
    const messages = (Array.isArray(message) ? message : [message]) as Array<JSONRPCMessage & { method?: unknown; id?: unknown }>;
    if (messages.length > MAX_BATCH) return jsonRpcError(400, -32600, `Invalid Request: a batch of ${messages.length} messages; send at most ${MAX_BATCH} in one.`);
    const initializing = messages.some((m) => m.method === 'initialize');
    if (initializing && messages.length > 1) return jsonRpcError(400, -32600, 'Invalid Request: send initialize on its own, not in a batch.');

    const answering = shared ?? (await server());
    const version = req.header('mcp-protocol-version');
    const versions = answering.transport.versions;
    if (!initializing && typeof version === 'string' && !versions.includes(version)) {
      return jsonRpcError(400, -32000, `Bad Request: unsupported MCP-Protocol-Version "${version}"; this server speaks ${versions.join(', ')}.`);
    }
    const requests = messages.filter((m) => typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) as JSONRPCRequest[];
    // Only notifications or responses: accepted, nothing to answer.
    if (requests.length === 0) return { status: 202, headers: {}, chunks: [] };
    const answers = await Promise.all(requests.map((r) => answering.answer(r)));
    const chunks = Array.isArray(message) ? [OPEN, ...answers.flatMap((a, i) => (i === 0 ? a : [COMMA, ...a]))] : answers[0]!;
    if (Array.isArray(message)) chunks.push(CLOSE);
    return { status: 200, headers: { 'Content-Type': JSON_ANSWER, 'Content-Length': String(chunks.reduce((n, c) => n + c.length, 0)) }, chunks };
  };
}
