# The hosted variant under workerd, the open-source Workers runtime (npm package `workerd`): the worker
# built by `npm run build` (dist/worker.js: the MCP endpoint with the atlas bundled in) and the site
# written by `hoba build`, served from a `disk` service bound as ASSETS, as Cloudflare binds Workers
# Static Assets. From the checkout:
#
#   npm run build && node dist/cli.cjs build
#   npx workerd serve worker/workerd.capnp --directory-path site=_site
#
# then http://127.0.0.1:8787/ (the site, /api/v1, /openapi.json) and POST http://127.0.0.1:8787/mcp.
# --socket-addr http=<address>:<port> listens elsewhere; on an address that is not loopback, set
# HOBA_BIND_HOST below to it too (it turns the DNS-rebinding checks of /mcp on for loopback only).
# test/e2e/workerd.test.ts runs the contract suites against exactly this configuration.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "hoba", worker = .hoba),
    # The site root: given on the command line (--directory-path site=<dir>), so this file names no path.
    (name = "site", disk = ()),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "hoba")],
);

const hoba :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "../dist/worker.js")],
  # Keep in step with worker/wrangler.jsonc (the Cloudflare deployment).
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
  bindings = [
    (name = "ASSETS", service = "site"),
    (name = "HOBA_BIND_HOST", text = "127.0.0.1"),
  ],
);
