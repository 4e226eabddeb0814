// The headers every response of the site carries, whoever serves it: `hoba serve` (its /mcp too), the
// worker, `hoba-mcp --http`, and what `_headers` and `_nginx.conf` tell a host (routes.ts, host.ts). A
// module with no imports, so that the MCP server's HTTP entry loads it without the route table.

/**
 * The Content-Security-Policy of every response. The pages load scripts and styles from the site only
 * (no inline script or style, no style attribute: test/e2e/security-headers.test.ts checks every page, and the
 * browser suite fails on any violation), read the atlas's data from the site, and may not be framed.
 * The JSON-LD of the home page is a data block, which a policy does not govern.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every response, whatever its status (`hoba serve`, the worker, `_headers` and `_nginx.conf`
 * alike): the policy above, no framing (X-Frame-Options for browsers that predate frame-ancestors), no
 * Referer sent to other sites (a search query can describe a person's situation), and no content-type
 * sniffing.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};
