// The site's own pages (home, browse hub, methodology, developers, 404) and the files for crawlers and
// assistants (robots.txt, llms.txt, sitemap.xml when the origin is known): one generator for sitePages.
import type { Registry } from '../../registry/registry.ts';
import type { SitePage } from '../page.ts';
import { siteOrigin } from '../../publish/origin.ts';
import { BROWSE_PATH, metaFiles } from '../meta.ts';
import { SITE } from '../paths.ts';
import { browseHubPage } from './browse-hub.ts';
import { developersPage } from './developers.ts';
import { homePage } from './home.ts';
import { methodologyPage } from './methodology.ts';
import { notFoundPage } from './notfound.ts';

const text = (url: string, body: string): SitePage => ({ url, bytes: Buffer.from(body, 'utf8') });

export function* corePages(reg: Registry, origin: string | undefined = siteOrigin()): Generator<SitePage> {
  yield text(SITE.home, homePage(reg));
  yield text(BROWSE_PATH, browseHubPage(reg));
  yield text(SITE.methodology, methodologyPage(reg));
  yield text(SITE.developers, developersPage(reg));
  yield text('/404.html', notFoundPage(reg));
  for (const f of metaFiles(reg, origin)) yield text(f.url, f.text);
}
