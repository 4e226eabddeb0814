// The hosted MCP endpoint in the worker: a fetch Request adapted to the endpoint's answers (exchange.ts,
// shared with the Node server in src/mcp/http.ts), and the answer made a Response.
import { SECURITY_HEADERS } from '../http/security.ts';
import { cacheBudgetFrom } from '../mcp/cache-budget.ts';
import { DRAIN_LIMIT, createMcpExchange, type McpAnswer } from '../mcp/exchange.ts';
import type { ToolAtlas } from '../mcp/tools.ts';

export type McpExchange = ReturnType<typeof createMcpExchange>;

/**
 * Kept answers, per isolate: less than a Node server keeps (64 MiB), as an isolate has 128 MiB for
 * everything (the bundle, the atlas, the site's files). The binding HOBA_MCP_CACHE_MB sets another.
 */
const MEMO_MB = 16;

export function mcpExchange(atlas: () => Promise<ToolAtlas>, bindHost: string, cacheMb: string | undefined): McpExchange {
  return createMcpExchange(atlas, { bindHost, memoBytes: cacheBudgetFrom(cacheMb, MEMO_MB) });
}

export async function answerMcp(exchange: McpExchange, request: Request): Promise<Response> {
  const answer = await exchange({
    method: request.method,
    header: (name) => request.headers.get(name) ?? undefined,
    body: (max) => readBody(request, max),
  });
  return responseOf(answer, request.method === 'HEAD');
}

/** The request body, or 'too-large' past `max` bytes (declared or sent); an oversized body is drained up
 * to DRAIN_LIMIT first, as the Node server does, so that the client reads the 413 rather than a reset. */
async function readBody(request: Request, max: number): Promise<Uint8Array | 'too-large'> {
  const length = request.headers.get('content-length');
  const declared = length === null ? NaN : Number(length);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) return 'too-large';
  let tooLarge = Number.isFinite(declared) && declared > max;
  if (!request.body) return tooLarge ? 'too-large' : new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) tooLarge = true;
      if (!tooLarge) chunks.push(value);
      else if (size > DRAIN_LIMIT) {
        void reader.cancel().catch(() => {});
        return 'too-large';
      }
    }
  } catch {
    // A client that went away mid-body: nothing will be read of it.
    return 'too-large';
  }
  return tooLarge ? 'too-large' : Buffer.concat(chunks);
}

function responseOf(answer: McpAnswer, head: boolean): Response {
  const body = head || answer.chunks.length === 0 ? null : Buffer.concat(answer.chunks);
  return new Response(body, { status: answer.status, headers: { ...answer.headers, ...SECURITY_HEADERS } });
}
