// The atlas in the browser: the registry (/assets/atlas.json), the search index (/assets/search-index.json)
// and the situation reader's model (/assets/reader-model.json), each fetched once per page and shared by
// every script on it. These static files are the only network requests the site's scripts make: what a
// person types never leaves the browser.
import { useReaderModel } from '../../../analysis/reader.ts';
import type { ReaderModel } from '../../../analysis/reader-model.ts';
import { searchIndexOf, type AtlasSearch } from '../../../analysis/search.ts';
import { Registry, type RegistryData } from '../../../registry/registry.ts';
import { SITE } from '../../paths.ts';

let registry: Promise<Registry> | undefined;
let index: Promise<AtlasSearch> | undefined;

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not load ${url} (HTTP ${res.status})`);
  return res;
}

/** The atlas's registry, loaded on first use. */
export function loadRegistry(): Promise<Registry> {
  registry ??= fetchOk(SITE.data)
    .then((res) => res.json() as Promise<{ registry_version: string; data: RegistryData }>)
    .then((json) => new Registry(json.data));
  // A failed load may be retried (a flaky connection), so it is not kept.
  registry.catch(() => (registry = undefined));
  return registry;
}

/**
 * The registry's search index, restored from the shipped one (the same index, synonyms and typo tolerance
 * as the CLI). Once loaded, it is also the index explain() uses for plain words (searchIndexOf registers it).
 */
export function loadSearch(): Promise<AtlasSearch> {
  index ??= Promise.all([loadRegistry(), fetchOk(SITE.searchIndex).then((res) => res.text())]).then(([reg, json]) =>
    searchIndexOf({ registry: reg, index: (name) => (name === 'search' ? json : undefined) }),
  );
  index.catch(() => (index = undefined));
  return index;
}

let reader: Promise<ReaderModel> | undefined;

/**
 * The situation reader's model, restored from the shipped one (the same model as the CLI's). Once loaded,
 * it is the model explain() reads words with (useReaderModel registers it for the registry).
 */
export function loadReader(): Promise<ReaderModel> {
  reader ??= Promise.all([loadRegistry(), fetchOk(SITE.readerModel).then((res) => res.text())]).then(([reg, json]) =>
    useReaderModel(reg, json),
  );
  reader.catch(() => (reader = undefined));
  return reader;
}

/** What to tell a person when the atlas could not be loaded. */
export const LOAD_FAILED =
  'The atlas’s data could not be loaded, so nothing can be analysed here right now. Check your connection and reload the page; the worked scenarios and the browse pages work without it.';
