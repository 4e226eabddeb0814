// The site's pages and assets, generated from the registry and the analysis code by `hoba build` into
// the same site root as the REST mirror. Every page is a static file a CDN can serve; interactive parts
// are browser bundles of the same analysis code (src/site/browser/), never a second copy of it.
import type { BuildInfo } from '../publish/documents.ts';
import type { SitePages } from '../publish/site-file.ts';
import type { Registry } from '../registry/registry.ts';
import { siteAssets } from './assets.ts';
import type { SitePage } from './page.ts';
import { analyzePages } from './pages/analyze.ts';
import { explorePages } from './pages/explore.ts';
import { browsePages } from './pages/browse.ts';
import { entityPages } from './pages/entity.ts';
import { downloadSetPage, downloadsHubPage } from './pages/downloads.ts';
import { corePages } from './pages/core.ts';

/** Every page and asset of the site, one at a time. */
function* sitePages(reg: Registry, info: Pick<BuildInfo, 'readerCorpus' | 'readerReuse'> = {}): Generator<SitePage> {
  yield* siteAssets(reg, info.readerCorpus ?? [], info.readerReuse);
  yield* corePages(reg);
  yield* entityPages(reg);
  yield* browsePages(reg);
  yield* explorePages(reg);
  yield* analyzePages(reg);
}

/** What the build is handed to make the site's pages (src/workflows/build.ts hands it to src/publish/build.ts). */
export const SITE_PAGES: SitePages = { pages: sitePages, downloadSetPage, downloadsHubPage };
