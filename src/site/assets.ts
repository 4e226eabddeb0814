// Files of the site that are not pages: the stylesheet, the browser script bundles (built by
// scripts/build.mjs into dist/site/, copied here by hoba build), and the data the scripts read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Registry } from '../registry/registry.ts';
import { SITE_CSS } from './style.ts';
import { SITE } from './paths.ts';
import { searchIndexFor } from '../analysis/search.ts';
import { readerModelText } from '../analysis/indexes.ts';
import type { CorpusItem } from '../analysis/reader-train.ts';
import { jsonParts, utf8Of } from '../publish/json-text.ts';

/**
 * Where the built bundles are: beside the bundled CLI (dist/site/, as installed) or, when running from
 * source, in the checkout's dist/site/.
 */
function bundleDir(): string | undefined {
  for (const candidate of ['./site/', '../../dist/site/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

export interface AssetFile {
  url: string;
  bytes: Buffer;
}

export function* siteAssets(
  reg: Registry,
  readerCorpus: readonly CorpusItem[] = [],
  readerReuse: readonly string[] = [],
): Generator<AssetFile> {
  yield { url: SITE.stylesheet, bytes: Buffer.from(SITE_CSS, 'utf8') };
  // What the browser scripts read: the registry (as the snapshot holds it) and the serialised search index.
  // Compact JSON, a part at a time: at 100,000 entities it is 370 MB, too long for one JavaScript string.
  yield { url: SITE.data, bytes: utf8Of(jsonParts({ registry_version: reg.version, data: reg.toData() }, 0, '\n')) };
  yield { url: SITE.searchIndex, bytes: Buffer.from(searchIndexFor(reg).toJSON() + '\n', 'utf8') };
  // The situation reader's model, trained as the snapshot's is (on the content and the checkout's corpus).
  yield { url: SITE.readerModel, bytes: Buffer.from(readerModelText(reg, readerCorpus, readerReuse) + '\n', 'utf8') };
  const dir = bundleDir();
  if (!dir)
    throw new Error('the site’s browser scripts have not been built (there is no dist/site/). Run npm run build, then hoba build again.');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    yield { url: `/assets/${file}`, bytes: readFileSync(`${dir}${file}`) };
  }
}
