// The machine-readable description of the atlas as a dataset: a schema.org `Dataset` for the home page's
// <script type="application/ld+json">, so that dataset search engines (Google Dataset Search reads
// schema.org Dataset in JSON-LD) find the atlas, its version, its licence and its bulk downloads.
//
// The site has no fixed public address, so URLs are relative by default: in JSON-LD, schema.org's URL
// properties (url, license, contentUrl) are IRIs and resolve against the page that carries them. A
// deployment that knows its origin can pass it as baseUrl to make them absolute.
import type { Registry } from '../registry/registry.ts';
import { CREATOR, downloadCatalogue, downloadsUrl, KEYWORDS, LICENCE_INFO } from './downloads.ts';

/** The downloads that are the data itself, in the order a reader would pick them; the rest describe them. */
const DISTRIBUTIONS: ReadonlyArray<{ file: string; name: string }> = [
  { file: 'nodes.csv', name: 'Nodes (CSV)' },
  { file: 'edges.csv', name: 'Edges (CSV)' },
  { file: 'entities.ndjson', name: 'Entities with all fields (NDJSON)' },
  { file: 'graph.graphml', name: 'Graph (GraphML)' },
];

export interface DatasetOptions {
  /** The site's origin, e.g. https://atlas.example.org, to make URLs absolute; relative when absent. */
  baseUrl?: string;
}

/** The schema.org Dataset object of the latest content. */
export function datasetDescription(reg: Registry, options: DatasetOptions = {}): Record<string, unknown> {
  const m = reg.manifest;
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const catalogue = new Map(downloadCatalogue().map((f) => [f.file, f]));
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: m.name,
    description: m.description,
    url: `${base}/`,
    version: m.registry_version,
    datePublished: m.released,
    inLanguage: 'en',
    license: LICENCE_INFO[m.licences.content].url,
    isAccessibleForFree: true,
    keywords: [...KEYWORDS],
    creator: { '@type': 'Organization', name: CREATOR },
    distribution: DISTRIBUTIONS.map(({ file, name }) => {
      const entry = catalogue.get(file);
      if (!entry) throw new Error(`the dataset description names ${file}, which is not a download`);
      return {
        '@type': 'DataDownload',
        name,
        description: entry.description,
        // The media type without parameters: encodingFormat names a format, not a charset.
        encodingFormat: entry.media_type.split(';')[0]!.trim(),
        contentUrl: `${base}${downloadsUrl()}${file}`,
      };
    }),
  };
}

/**
 * The Dataset as the text of a <script type="application/ld+json"> element: compact JSON with every "<"
 * escaped, so no text in it can close the element or open a comment.
 */
export function datasetJsonLd(reg: Registry, options: DatasetOptions = {}): string {
  return JSON.stringify(datasetDescription(reg, options)).replace(/</g, '\\u003c');
}
