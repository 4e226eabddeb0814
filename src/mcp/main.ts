#!/usr/bin/env node
// hoba-mcp (dist/mcp.js): the atlas as an MCP tool server (the command line is cli.ts, shared with hoba mcp).
import { mcpMain } from './cli.ts';

const code = await mcpMain(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
