// URL paths that more than one surface names and none of them owns: the hosted MCP endpoint is served by
// `hoba serve`, `hoba-mcp --http` and the worker, and named by the route table, the developer page and
// llms.txt. A module with no imports, so that each of them reads it without the others.

/** The URL path of the hosted MCP endpoint (Streamable HTTP, POST). */
export const MCP_PATH = '/mcp';
