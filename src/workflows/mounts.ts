// The handlers `hoba serve` mounts beside the static site: the one place where a server endpoint joins
// the static routes, composed here so that the static server (src/serve/) knows nothing of MCP. Today
// that is the hosted MCP server (Streamable HTTP, stateless) at POST /mcp, serving the same checkout as
// the site, with the hosted tool list.
import { createMcpHttpHandler } from '../mcp/http.ts';
import { openCheckoutAtlas } from '../mcp/atlas.ts';
import { MCP_PATH } from '../model/endpoints.ts';
import type { Mount } from '../serve/server.ts';

export interface MountContext {
  /** The checkout being served. */
  checkout: string;
  /** The address the server binds; loopback binds check Host and Origin on /mcp. */
  host: string;
}

export function serveMounts(context: MountContext): Mount[] {
  return [{ path: MCP_PATH, handle: createMcpHttpHandler(() => openCheckoutAtlas(context.checkout), { bindHost: context.host }) }];
}
