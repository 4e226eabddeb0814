// The type of one page or asset of the site (types only: the page modules and the list of them in
// index.ts both import it).

export interface SitePage {
  /** URL path: /x/y/ for a page (written to x/y/index.html), or the file's own path. */
  url: string;
  bytes: Buffer;
}
