// The hosted MCP endpoint's answers, apart from any HTTP server: one request in (method, headers, a body
// read on demand), one answer out (status, headers, body chunks). The Node server (http.ts, for
// `hoba-mcp --http` and the /mcp mount of `hoba serve`) and the edge worker (src/worker/) adapt their own
// request and response objects to it, so both doors answer alike.
//
// Stateless (no session; any request may land on any instance), JSON responses. Guards: Host/Origin
// checked against DNS rebinding when bound to loopback (the SDK's validators, with the loopback names as
// the allowlist), request bodies capped, GET and DELETE answered 405. Every answer is JSON-RPC, errors too.
//
// Two protocol eras, told apart as the SDK tells them (classifyInboundRequest): a request whose params
// carry the per-request `_meta` envelope of revision 2026-07-28 (or a header naming that revision) is
// answered by the SDK's own modern entry (createMcpHandler: server/discover, the per-request version,
// `ttlMs` and `cacheScope` on list and read results, its header checks), with a server built per request
// as that entry requires; everything else (initialize and the 2025 revisions) by the shared server below.
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
  classifyInboundRequest,
  createMcpHandler,
  isJsonContentType,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
} from '@modelcontextprotocol/server';
import { cacheBudgetFrom, CACHE_MB_VARIABLE } from './cache-budget.ts';
import { MAX_MESSAGE_BYTES, errorResponse, invalidBody, type ErrorResponse } from './jsonrpc.ts';
import { createMcpServer } from './server.ts';
import type { ToolAtlas } from './tools.ts';

/**
 * Whether a hostname (as URL parsing leaves it: lower case, IPv6 in brackets, numeric IPv4 forms such as
 * 127.1 or 0x7f.1 already written as 127.0.0.1) or a bind address names this machine: localhost, ::1,
 * or an IPv4 address in 127.0.0.0/8. A DNS name that merely starts with "127." (127.0.0.1.nip.io) is not:
 * it can resolve anywhere, which is what a DNS-rebinding attack relies on.
 */
function isLoopback(host: string): boolean {
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

/** A JSON-RPC error answer (not cached: it answers one request). */
function errorAnswer(status: number, error: ErrorResponse, headers: Record<string, string> = {}): McpAnswer {
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
      this.next = this.next >= Number.MAX_SAFE_INTEGER ? 1 : this.next + 1;
      const id = this.next;
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
const MEMOISED = new Set([
  'tools/call',
  'tools/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
]);
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
  return cacheBudgetFrom(typeof process === 'undefined' ? undefined : process.env?.[CACHE_MB_VARIABLE], DEFAULT_MEMO_MB);
}

/** An answer as the SDK's transport writes it ({"result","jsonrpc","id"}), up to the id: the id and "}" follow. */
const resultPrefix = (result: unknown) => Buffer.from(`{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":`);
/** An answer as written: chunks, so that a kept answer is sent as it is, without copying it. */
type Chunks = Buffer[];
const withId = (prefix: Buffer, id: string | number): Chunks => [prefix, Buffer.from(`${JSON.stringify(id)}}`)];

/** The headers of a request that the SDK's modern entry reads (the era, the method and name it cross-checks). */
const MODERN_HEADERS = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

/** The hosted MCP server, built and connected once, and what answers a request through it. */
class SharedServer {
  private readonly memo: AnswerMemo;
  /** Requests being answered now, by key: a second identical one waits for the same answer. */
  private readonly inFlight = new Map<string, Promise<Answer>>();
  /** The SDK's entry for revision 2026-07-28 and later, built on first use. */
  private modernEntry?: ReturnType<typeof createMcpHandler>;

  private constructor(
    readonly transport: ExchangeTransport,
    private readonly atlas: ToolAtlas,
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
    return new SharedServer(transport, atlas, memoBytes);
  }

  /** The serialised answer to one request, under its client's id. */
  async answer(request: JSONRPCRequest): Promise<Chunks> {
    const key =
      this.memo.budget > 0 && MEMOISED.has(request.method) ? `${request.method}\n${JSON.stringify(request.params ?? null)}` : undefined;
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

  /**
   * A request of the 2026-07-28 era (or one the SDK rejects on its rules): answered by the SDK's entry,
   * with a server of its own per request (the entry binds each to the request's revision and envelope).
   * Successful answers to the read-only methods are kept as the shared server's are, keyed also by the
   * headers the entry cross-checks, so that a kept answer is only given where the entry would give it.
   */
  async answerModern(req: McpRequest, body: string, message: { method?: unknown; id?: unknown; params?: unknown }): Promise<McpAnswer> {
    const id = message.id;
    const cacheable =
      this.memo.budget > 0 &&
      typeof message.method === 'string' &&
      (MEMOISED.has(message.method) || message.method === 'server/discover') &&
      (typeof id === 'string' || typeof id === 'number');
    const key = cacheable
      ? `modern\n${MODERN_HEADERS.slice(2)
          .map((h) => req.header(h) ?? '')
          .join('\n')}\n${message.method}\n${JSON.stringify(message.params ?? null)}`
      : undefined;
    if (key !== undefined && key.length <= MAX_KEY_LENGTH) {
      const kept = this.memo.get(key);
      if (kept) return jsonAnswer(withId(kept, id as string | number));
    }
    this.modernEntry ??= createMcpHandler(() => createMcpServer(this.atlas, 'hosted'), { legacy: 'reject' });
    const headers = new Headers();
    for (const name of MODERN_HEADERS) {
      const value = req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const response = await this.modernEntry.fetch(new Request('http://hoba.invalid/mcp', { method: 'POST', headers, body }), {
      parsedBody: message,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (
      key !== undefined &&
      key.length <= MAX_KEY_LENGTH &&
      response.status === 200 &&
      /^application\/json\b/.test(response.headers.get('content-type') ?? '')
    ) {
      try {
        const answer = JSON.parse(bytes.toString('utf8')) as Answer;
        if (answer.result !== undefined && answer.result.isError !== true) this.memo.set(key, resultPrefix(answer.result));
      } catch {
        // Not one JSON answer: nothing to keep.
      }
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    out['content-length'] = String(bytes.length);
    return { status: response.status, headers: out, chunks: bytes.length > 0 ? [bytes] : [] };
  }
}

function serialise(answer: Answer, id: string | number): Chunks {
  if (answer.result !== undefined) return withId(resultPrefix(answer.result), id);
  return [Buffer.from(JSON.stringify({ ...answer, id }))];
}

/** Verdicts on Host and Origin values (why one is refused, or undefined), kept for the few a deployment sees (a URL parse per request otherwise). */
function verdictCache(check: (value: string) => string | undefined): (value: string) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (value) => {
    if (seen.has(value)) return seen.get(value);
    const verdict = check(value);
    if (seen.size >= 256) seen.clear();
    seen.set(value, verdict);
    return verdict;
  };
}

const JSON_ANSWER = 'application/json';

function jsonAnswer(chunks: Chunks): McpAnswer {
  return {
    status: 200,
    headers: { 'Content-Type': JSON_ANSWER, 'Content-Length': String(chunks.reduce((n, c) => n + c.length, 0)) },
    chunks,
  };
}
const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c)) as [Buffer, Buffer, Buffer];

/** What answers the MCP endpoint; `atlas` is opened, and the server built, at once (in the background). */
export function createMcpExchange(atlas: () => Promise<ToolAtlas>, options: McpHttpOptions): (req: McpRequest) => Promise<McpAnswer> {
  const max = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
  const guard = isLoopback(options.bindHost);
  // The loopback names, and the address bound to when it is another loopback one (127.0.0.2).
  const bound = options.bindHost.includes(':') && !options.bindHost.startsWith('[') ? `[${options.bindHost}]` : options.bindHost;
  const allowedHosts = [...new Set([...localhostAllowedHostnames(), bound])];
  const allowedOrigins = [...new Set([...localhostAllowedOrigins(), bound])];
  const hostRefusal = verdictCache((value) => {
    const verdict = validateHostHeader(value, allowedHosts);
    return verdict.ok ? undefined : verdict.message;
  });
  const originRefusal = verdictCache((value) => {
    const verdict = validateOriginHeader(value, allowedOrigins);
    return verdict.ok ? undefined : verdict.message;
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
      const badHost = hostRefusal(host);
      if (badHost !== undefined)
        return jsonRpcError(
          403,
          -32000,
          `Forbidden: ${badHost}; this server, bound to loopback, answers loopback names only (${allowedHosts.join(', ')}: DNS rebinding protection).`,
        );
      const origin = req.header('origin');
      const badOrigin = origin !== undefined ? originRefusal(origin) : undefined;
      if (badOrigin !== undefined)
        return jsonRpcError(
          403,
          -32000,
          `Forbidden: ${badOrigin}; only pages on loopback origins (${allowedOrigins.join(', ')}) may call this server.`,
        );
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
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    try {
      message = JSON.parse(text);
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the request body is not valid JSON.');
    }
    const invalid = invalidBody(message);
    if (invalid) return errorAnswer(400, invalid);
    const type = req.header('content-type');
    if (!isJsonContentType(type)) {
      return jsonRpcError(
        415,
        -32000,
        `Unsupported Media Type: send the body with "Content-Type: application/json" (got ${JSON.stringify(type ?? '')}).`,
      );
    }
    // Each is a valid JSON-RPC message now (invalidBody): telling them apart needs no schema.
    const messages = (Array.isArray(message) ? message : [message]) as Array<JSONRPCMessage & { method?: unknown; id?: unknown }>;
    if (messages.length > MAX_BATCH)
      return jsonRpcError(400, -32600, `Invalid Request: a batch of ${messages.length} messages; send at most ${MAX_BATCH} in one.`);
    const answering = shared ?? (await server());
    const [protocolVersionHeader, mcpMethodHeader, mcpNameHeader] = [
      req.header('mcp-protocol-version'),
      req.header('mcp-method'),
      req.header('mcp-name'),
    ];
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      ...(protocolVersionHeader !== undefined ? { protocolVersionHeader } : {}),
      ...(mcpMethodHeader !== undefined ? { mcpMethodHeader } : {}),
      ...(mcpNameHeader !== undefined ? { mcpNameHeader } : {}),
      body: message,
    });
    if (route.kind !== 'legacy') return answering.answerModern(req, text, message as { method?: unknown });
    const initializing = messages.some((m) => m.method === 'initialize');
    if (initializing && messages.length > 1)
      return jsonRpcError(400, -32600, 'Invalid Request: send initialize on its own, not in a batch.');

    const version = req.header('mcp-protocol-version');
    const versions = answering.transport.versions;
    if (!initializing && typeof version === 'string' && !versions.includes(version)) {
      return jsonRpcError(
        400,
        -32000,
        `Bad Request: unsupported MCP-Protocol-Version "${version}"; this server speaks ${versions.join(', ')}.`,
      );
    }
    const requests = messages.filter(
      (m) => typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number'),
    ) as JSONRPCRequest[];
    // Only notifications or responses: accepted, nothing to answer.
    if (requests.length === 0) return { status: 202, headers: {}, chunks: [] };
    const answers = await Promise.all(requests.map((r) => answering.answer(r)));
    const chunks = Array.isArray(message) ? [OPEN, ...answers.flatMap((a, i) => (i === 0 ? a : [COMMA, ...a]))] : answers[0]!;
    if (Array.isArray(message)) chunks.push(CLOSE);
    return jsonAnswer(chunks);
  };
}
