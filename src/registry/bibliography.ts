// The shared, vetted bibliography (../shared/bibliography.yaml). Atlas sources must be verbatim copies
// of its entries; the only change is that the entry's `kind` is stored as `type`, because `kind` names
// the entity kind everywhere else in the atlas.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { fastYaml } from './fast-yaml.ts';

export type BibliographyEntry = Record<string, unknown> & { id: string };

/** Where the bibliography is expected: $HOBA_BIBLIOGRAPHY, else ../shared/bibliography.yaml beside the checkout. */
export function bibliographyPath(checkout: string): string {
  return process.env['HOBA_BIBLIOGRAPHY'] ?? join(checkout, '..', 'shared', 'bibliography.yaml');
}

export function loadBibliography(path: string): Map<string, BibliographyEntry> | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  // The fast reader takes the plain YAML the bibliography is written in (a large one costs seconds in the
  // full parser); anything else goes to the full parser, as before.
  const entries = (fastYaml(text) ?? parse(text, { maxAliasCount: 100 })) as BibliographyEntry[];
  return new Map(entries.map((e) => [e.id, e]));
}

/** The atlas form of a bibliography entry: the same fields, with `kind` renamed to `type`. */
export function toSourceRecord(entry: BibliographyEntry): Record<string, unknown> {
  // fromEntries defines own properties, so even a key such as __proto__ stays a plain field.
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key === 'kind' ? 'type' : key, value]));
}
