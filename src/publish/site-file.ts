// The types of a built site (types only: build.ts, compress.ts and site-writer.ts all import them, and
// none of them imports another for a type), and what the build is handed to make the HTML pages.
import type { Registry } from '../registry/registry.ts';
import type { DownloadManifest } from './downloads.ts';
import type { BuildInfo } from './documents.ts';

export interface SiteFile {
  /** Path relative to the site root, with forward slashes. */
  path: string;
  /** The URL that serves it; absent for host configuration, which is read by the host, not served. */
  url?: string;
  bytes: Buffer;
}

export interface Site {
  /** Sorted by path. */
  files: SiteFile[];
  /** sha256 over every path and its bytes: equal for byte-identical sites. */
  digest: string;
  bytes: number;
}

/** What streamSite wrote: the site's files without their bytes (those are on disk), its digest and size. */
export interface WrittenSite {
  /** Sorted by path. */
  files: Array<{ path: string; url?: string; size: number }>;
  digest: string;
  bytes: number;
}

/** One HTML page: its URL (/x/y/ is written to x/y/index.html) and its text. */
interface HtmlPage {
  url: string;
  html: string;
}

/**
 * The pages and assets of the site (src/site/), handed to the build by the composition root
 * (src/workflows/build.ts), so that publishing never imports the site that links to its routes.
 */
export interface SitePages {
  /** Every page and asset: its URL (a page's ends in /, an asset's is its own path) and bytes. */
  pages(reg: Registry, info: BuildInfo): Iterable<{ url: string; bytes: Buffer }>;
  /** The index page of one set of downloads (/downloads/<version>/), from its manifest. */
  downloadSetPage(reg: Registry, version: string, manifest: DownloadManifest): HtmlPage;
  /** The page listing every set of downloads (/downloads/). */
  downloadsHubPage(reg: Registry, sets: ReadonlyArray<{ version: string; manifest: DownloadManifest }>): HtmlPage;
}
