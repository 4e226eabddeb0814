// The hosted variant as a Cloudflare Workers module: one deployment answers the static site (the output
// of `hoba build`, served from the Workers assets binding ASSETS) and the hosted MCP endpoint at /mcp
// (the same tools and code as `hoba-mcp --http`, on the atlas snapshot bundled into the module), with the
// same routes, headers, status codes, CORS, problem documents and MCP guards as `hoba serve`: what is
// answered is decided by src/publish/answers.ts and src/mcp/exchange.ts, which the Node servers use too.
// scripts/build-worker.mjs bundles it (with main.ts) into dist/worker.js.
import type { RegistryData } from '../registry/registry.ts';
import { Registry } from '../registry/registry.ts';
import { decodeEdges } from '../registry/edge-codec.ts';
import type { OpenedAtlas } from '../registry/snapshot.ts';
import { MCP_PATH } from '../model/endpoints.ts';
import {
  SERVER_ERROR,
  checkTarget,
  fileAnswer,
  missingErrorFile,
  planPath,
  problemAnswer,
  redirectHeaders,
  type Problem,
  type SiteAnswer,
} from '../publish/answers.ts';
import { toolAtlas, type ToolAtlas } from '../mcp/tools.ts';
import { SiteAssets, type AssetsBinding } from './assets.ts';
import { answerMcp, mcpExchange, type McpExchange } from './mcp.ts';

/** The worker's bindings. */
export interface Env {
  /** The static site: Workers Static Assets in production, a `disk` service under workerd. */
  ASSETS?: AssetsBinding;
  /**
   * The address the worker is reached on, where that is known (under workerd, its socket's). A loopback
   * address turns on the Host and Origin checks of /mcp against DNS rebinding, as `hoba serve` on
   * 127.0.0.1 does; unset (a public deployment), they are off, as on a public bind.
   */
  HOBA_BIND_HOST?: string;
  /** The budget of kept MCP answers per isolate, in MiB (default 16; 0 keeps none). */
  HOBA_MCP_CACHE_MB?: string;
}

/** The atlas snapshot as bundled: its two JSON lines (see src/registry/snapshot.ts), as text. */
export interface BundledSnapshot {
  /** {built_by, content_hash, data}. */
  head: string;
  /** The precomputed indexes by name. */
  indexes: string;
}

/** The atlas of a bundled snapshot, parsed on first use (not at start-up: a worker's start-up time is limited). */
function bundledAtlas(snapshot: BundledSnapshot): () => Promise<ToolAtlas> {
  let atlas: ToolAtlas | undefined;
  return async () => {
    if (!atlas) {
      const head = JSON.parse(snapshot.head) as { content_hash: string; data: Omit<RegistryData, 'edges'> & { edges: number[] } };
      const { entities } = head.data;
      // The snapshot's edges are numbers (edge-codec.ts): positions among the entities, in their order.
      const edges = decodeEdges(
        head.data.edges,
        entities.map((e) => e.id),
      );
      if (!edges) throw new Error('The bundled snapshot’s edges are malformed: rebuild the worker (npm run build).');
      let indexes: Record<string, string> | undefined;
      const opened: OpenedAtlas = {
        registry: new Registry({ ...head.data, edges }),
        index: (name) => {
          indexes ??= JSON.parse(snapshot.indexes) as Record<string, string>;
          return indexes[name];
        },
        from: 'bundled',
        problems: [],
        content_hash: head.content_hash,
      };
      atlas = toolAtlas(opened);
    }
    return atlas;
  };
}

export function createWorker(snapshot: BundledSnapshot) {
  const atlas = bundledAtlas(snapshot);
  // Built on first use, once per isolate (bindings arrive with the first request).
  const sites = new WeakMap<AssetsBinding, SiteAssets>();
  const exchanges = new Map<string, McpExchange>();
  const siteOf = (env: Env): SiteAssets | undefined => {
    // Without the binding (a deployment of the worker alone), /mcp still answers and the site is a 500 that says why.
    if (!env.ASSETS) return undefined;
    let site = sites.get(env.ASSETS);
    if (!site) {
      site = new SiteAssets(env.ASSETS);
      sites.set(env.ASSETS, site);
    }
    return site;
  };
  const exchangeOf = (env: Env) => {
    const bindHost = env.HOBA_BIND_HOST ?? '';
    const key = `${bindHost} ${env.HOBA_MCP_CACHE_MB ?? ''}`;
    let exchange = exchanges.get(key);
    if (!exchange) {
      exchange = mcpExchange(atlas, bindHost, env.HOBA_MCP_CACHE_MB);
      exchanges.set(key, exchange);
    }
    return exchange;
  };

  return {
    async fetch(request: Request, env: Env): Promise<Response> {
      try {
        return await answer(request, env, siteOf(env), exchangeOf);
      } catch (err) {
        // A bug must not go out as the runtime's own error page: a problem document, as hoba serve sends.
        console.error(err);
        return responseOf(problemAnswer(SERVER_ERROR, request.method === 'HEAD'));
      }
    },
  };
}

const NO_ASSETS: Problem = {
  status: 500,
  title: 'Internal Server Error',
  detail:
    'This deployment has no site: the worker has no ASSETS binding. Deploy it with the output of hoba build as its assets (worker/wrangler.jsonc does).',
  withVersion: false,
};

async function answer(request: Request, env: Env, site: SiteAssets | undefined, exchangeOf: (env: Env) => McpExchange): Promise<Response> {
  const head = request.method === 'HEAD';
  const problem = async (p: Problem) => responseOf(problemAnswer(p, head, p.withVersion ? await site?.registryVersion() : undefined));
  const target = checkTarget(requestTarget(request));
  if ('problem' in target) return problem(target.problem);
  if (target.rawPath === MCP_PATH) return answerMcp(exchangeOf(env), request);
  if (!site) return problem(NO_ASSETS);

  const plan = planPath(target.rawPath, request.method);
  switch (plan.kind) {
    case 'problem':
      return problem(plan.problem);
    case 'preflight':
      return new Response(null, { status: 204, headers: plan.headers });
    case 'error-file':
      return sendFile(site, plan.file, plan.status, request);
  }
  const { resolution } = plan;
  if (resolution.kind !== 'hidden') {
    const found = await site.file(resolution.file);
    if (found) return responseOf(fileAnswer(found, 200, conditionsOf(request)));
    if (resolution.kind === 'directory' && (await site.isDirectory(resolution.file))) {
      return new Response(null, { status: 301, headers: redirectHeaders(plan.redirect) });
    }
  }
  return sendFile(site, plan.notFound, 404, request);
}

/** Sends a site file (an error document for 404 and 405), or a plain problem when the site lacks it. */
async function sendFile(site: SiteAssets, file: string, status: number, request: Request): Promise<Response> {
  const found = await site.file(file);
  if (!found) return responseOf(problemAnswer(missingErrorFile(status), request.method === 'HEAD'));
  return responseOf(fileAnswer(found, status, conditionsOf(request)));
}

const conditionsOf = (request: Request) => ({
  method: request.method,
  acceptEncoding: request.headers.get('accept-encoding') ?? undefined,
  ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
  ifMatch: request.headers.get('if-match') ?? undefined,
});

/**
 * The request target as the client sent it, before any URL normalisation (the checks of src/publish/answers.ts must
 * see /%2e%2e/ and // as they came). workerd writes request.url as the scheme, the Host header and the
 * target; elsewhere the parsed URL's path and query are the best there is.
 */
function requestTarget(request: Request): string {
  const url = request.url;
  const host = request.headers.get('host');
  const start = url.indexOf('://') + 3;
  if (host !== null && url.startsWith(host, start)) return url.slice(start + host.length);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A site answer as a Response. A precompressed body goes out as it is (encodeBody: "manual"): the
 * runtime would otherwise compress it again. */
function responseOf(answer: SiteAnswer): Response {
  const init: ResponseInit & { encodeBody?: 'manual' | 'automatic' } = { status: answer.status, headers: answer.headers };
  if (answer.headers['Content-Encoding'] !== undefined) init.encodeBody = 'manual';
  // A Buffer is an ArrayBufferView, which a Response takes (Node's types ask for an ArrayBuffer-backed one).
  return new Response((answer.body ?? null) as BodyInit | null, init);
}
