// An MCP server on standard input/output.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createMcpServer } from './server.ts';
import type { ToolAtlas, Variant } from './tools.ts';

export async function serveStdio(atlas: ToolAtlas, variant: Variant): Promise<void> {
  const server = createMcpServer(atlas, variant);
  await server.connect(new StdioServerTransport());
}
