#!/usr/bin/env node
// The baseline of the stdio MCP start-up benchmark (bench/mcp.ts): a bare MCP server on the same SDK
// (@modelcontextprotocol/server, v2) with one trivial tool, written as the SDK's examples write it and run
// straight from node_modules. Whatever hoba-mcp costs beyond this is ours: loading the atlas, the tool
// definitions and their schemas. bench/mcp.ts also runs an esbuild bundle of this file (as hoba-mcp is
// bundled), the stricter baseline.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'baseline', version: '1.0.0' });
server.registerTool('echo', { description: 'Returns its text', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
