// The handlers `hoba serve` mounts beside the static site: the one place where a server endpoint joins
// the static routes. The hosted MCP server (Streamable HTTP at POST /mcp, see MCP_PATH in
// src/publish/routes.ts) is added here by returning { path: MCP_PATH, handle } for it.
import type { Mount } from './server.ts';

export interface MountContext {
  /** The checkout being served. */
  checkout: string;
}

export function serveMounts(_context: MountContext): Mount[] {
  return [];
}
