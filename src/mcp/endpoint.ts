/** The URL path of the hosted MCP endpoint (Streamable HTTP, POST), in `hoba serve` and `hoba-mcp --http`. */
export const MCP_ENDPOINT = '/mcp';
