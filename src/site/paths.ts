// Where every page of the site lives. One place, so that a link never points at a page that is not built.
import { KIND_INFO, kindOfId, type Kind } from '../model/vocab.ts';

export const SITE = {
  home: '/',
  analyze: '/analyze/',
  search: '/search/',
  explore: '/explore/',
  methodology: '/methodology/',
  developers: '/developers/',
  stylesheet: '/assets/site.css',
  /** The styles of the search and analyze pages, of the analyze page alone, and of the graph explorer:
   * stylesheets rather than inline <style>, so that the Content-Security-Policy allows styles from the site
   * only (routes.ts). */
  searchAnalyzeStylesheet: '/assets/search-analyze.css',
  analyzeStylesheet: '/assets/analyze.css',
  exploreStylesheet: '/assets/explore.css',
  /** The atlas's data for the browser scripts (the registry, as the snapshot holds it). */
  data: '/assets/atlas.json',
  /** The search index, serialised (the same index, synonyms and typo tolerance as the CLI). */
  searchIndex: '/assets/search-index.json',
  /** The situation reader's model (the same model as the CLI's), for the analyze page. */
  readerModel: '/assets/reader-model.json',
} as const;

/** The browse page of a kind: /artifacts/, /mechanisms/, … */
export const browsePath = (kind: Kind) => `/${KIND_INFO[kind].dir}/`;

/** The page of one entity: /artifacts/A-001/, /sources/E-013/, … (a deprecated ID has a page that leads to its successor). */
export function entityPath(id: string): string {
  const kind = kindOfId(id);
  if (!kind) throw new Error(`not an atlas ID: ${id}`);
  return `/${KIND_INFO[kind].dir}/${id}/`;
}

/** The URL of a browser script bundle (built by scripts/build.mjs, copied by hoba build). */
export const scriptPath = (name: string) => `/assets/${name}.js`;
