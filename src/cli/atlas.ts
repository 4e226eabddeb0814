// Which atlas a reading command (search, show, explain, graph) reads: --dir, else $HOBA_DIR, else the
// nearest checkout above the working directory (the local variant), else the snapshot bundled with
// hoba (the hosted variant, e.g. after npm install -g).
import { findCheckout, isCheckout } from '../registry/checkout.ts';
import {
  BUNDLED_SNAPSHOT,
  checkoutHash,
  openBundled,
  openCheckout,
  snapshotHash,
  type IndexBuilders,
  type OpenedAtlas,
} from '../registry/snapshot.ts';
import { CliError, colour, givenDir } from './io.ts';

/** The indexes a snapshot of `checkout` carries (with its training corpus); loaded only when a snapshot has to be built. */
function indexBuilders(checkout: string): () => Promise<IndexBuilders> {
  return async () => (await import('../analysis/checkout-indexes.ts')).checkoutIndexes(checkout);
}

export interface Atlas extends OpenedAtlas {
  /** The checkout read, or undefined for the bundled snapshot. */
  dir?: string;
}

/**
 * Where the atlas is, and the hash of its content, found without reading it: what a text laid out in
 * advance depends on (stored-text.ts). `content_hash` is undefined when the bundled snapshot is missing
 * or was built by other code.
 */
export interface AtlasPlace {
  /** The checkout, or undefined for the bundled snapshot. */
  dir?: string;
  content_hash: string | undefined;
}

export async function locateAtlas(dirOption: string | undefined): Promise<AtlasPlace> {
  const given = givenDir(dirOption);
  if (given !== undefined && !isCheckout(given)) {
    throw new CliError(
      `${given} holds no atlas (there is no content/atlas.yaml in it). Pass --dir <checkout> with the folder that holds content/.`,
      2,
      'not-a-checkout',
    );
  }
  const dir = given ?? findCheckout(process.cwd());
  return dir === undefined ? { content_hash: snapshotHash(BUNDLED_SNAPSHOT) } : { dir, content_hash: await checkoutHash(dir) };
}

export async function openAtlas(dirOption: string | undefined): Promise<Atlas> {
  return openLocated(await locateAtlas(dirOption));
}

/** The atlas at a place found by locateAtlas. */
export async function openLocated({ dir, content_hash }: AtlasPlace): Promise<Atlas> {
  if (dir === undefined) {
    const bundled = openBundled(BUNDLED_SNAPSHOT);
    if (!bundled) {
      throw new CliError(
        `no atlas to read: not inside a checkout (no content/atlas.yaml here or above), and the snapshot bundled with hoba (${BUNDLED_SNAPSHOT}) is missing. Run inside a checkout, pass --dir <checkout>, or run npm run build.`,
        1,
        'no-atlas',
      );
    }
    return bundled;
  }
  const atlas = await openCheckout(dir, {
    bundled: BUNDLED_SNAPSHOT,
    builders: indexBuilders(dir),
    ...(content_hash !== undefined ? { hash: content_hash } : {}),
  });
  if (atlas.problems.length > 0) {
    const first = atlas.problems[0]!;
    const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}: ` : '';
    process.stderr.write(
      colour.yellow(
        `hoba: warning: the content has ${atlas.problems.length} error${atlas.problems.length === 1 ? '' : 's'} (first: ${where}${first.message}); entities that failed to load are left out. Run hoba validate for the full report.\n`,
      ),
    );
  }
  return { ...atlas, dir };
}
