// The atlas an MCP server reads: a checkout (the local variant, --dir) or the snapshot bundled with the
// code (the hosted variant). Both come through the snapshot machinery, so YAML is parsed only when the
// content changed since the last snapshot.
import { BUNDLED_SNAPSHOT, openBundled, openCheckout } from '../registry/snapshot.ts';
import { toolAtlas, type ToolAtlas } from './tools.ts';

export { toolAtlas };

/** An expected failure while starting a server: printed without a stack, exit status 2. */
export class McpStartError extends Error {}

/** The checkout's atlas, with a warning on stderr when its content has errors. */
export async function openCheckoutAtlas(checkout: string): Promise<ToolAtlas> {
  // The indexes are loaded only when a snapshot has to be built (the corpus reader brings the YAML parser).
  const opened = await openCheckout(checkout, {
    bundled: BUNDLED_SNAPSHOT,
    builders: async () => (await import('../analysis/checkout-indexes.ts')).checkoutIndexes(checkout),
  });
  if (opened.problems.length > 0) {
    process.stderr.write(
      `hoba-mcp: warning: the content of ${checkout} has ${opened.problems.length} error(s); entities that failed to load are left out. Run hoba validate --dir ${checkout} for the report.\n`,
    );
  }
  return toolAtlas(opened, checkout);
}

export function openBundledAtlas(): ToolAtlas {
  const opened = openBundled(BUNDLED_SNAPSHOT);
  if (!opened) {
    throw new McpStartError(
      `the atlas snapshot bundled with hoba (${BUNDLED_SNAPSHOT}) is missing. Build it with npm run build, or pass --dir <checkout>.`,
    );
  }
  return toolAtlas(opened);
}
