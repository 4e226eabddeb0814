// Copies every source the atlas cites from the shared bibliography into content/sources/, verbatim
// (the entry's `kind` is stored as `type`). With --prune, also deletes source files nothing cites.
//   npm run sources:sync [-- --prune]
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { bibliographyPath, loadBibliography, toSourceRecord } from '../src/registry/bibliography.ts';
import { findCheckout, loadAtlas } from '../src/registry/load.ts';
import { referencesOf } from '../src/registry/references.ts';

const dir = findCheckout(process.cwd());
if (!dir) {
  console.error('sync-sources: run this inside an atlas checkout.');
  process.exit(2);
}
const path = bibliographyPath(dir);
const bibliography = loadBibliography(path);
if (!bibliography) {
  console.error(`sync-sources: no bibliography at ${path} (set HOBA_BIBLIOGRAPHY).`);
  process.exit(2);
}

const { registry } = loadAtlas(dir);
const cited = new Set(
  registry.entities.flatMap((e) =>
    referencesOf(e)
      .filter((r) => r.relation === 'cites')
      .map((r) => r.target),
  ),
);
// A source's successor is cited implicitly: readers of a superseded study need the one replacing it.
for (const id of [...cited]) {
  const successor = bibliography.get(id)?.['superseded_by'];
  if (typeof successor === 'string') cited.add(successor);
}

const sourcesDir = join(dir, 'content', 'sources');
const existing = new Map(
  readdirSync(sourcesDir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => [f.slice(0, f.indexOf('-', 2)), f]),
);
let written = 0;
const unknown: string[] = [];
for (const id of [...cited].sort()) {
  const entry = bibliography.get(id);
  if (!entry) {
    unknown.push(id);
    continue;
  }
  const slug = String(entry['cite'])
    .replace(/ø/g, 'o')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .slice(0, 6)
    .join('-');
  const file = existing.get(id) ?? `${id}-${slug}.yaml`;
  // YAML 1.1 output quotes words such as yes and no, so every YAML reader sees strings.
  const body = stringify(toSourceRecord(entry), { lineWidth: 0, version: '1.1' });
  writeFileSync(
    join(sourcesDir, file),
    `# Copied verbatim from the shared bibliography (its "kind" is stored as "type").\n# Do not edit by hand: run npm run sources:sync.\n${body}`,
  );
  written++;
}
let pruned = 0;
if (process.argv.includes('--prune')) {
  for (const [id, file] of existing) {
    if (!cited.has(id)) {
      rmSync(join(sourcesDir, file));
      pruned++;
    }
  }
}
console.log(`sync-sources: wrote ${written} sources${pruned ? `, pruned ${pruned}` : ''} from ${path}.`);
if (unknown.length > 0) {
  console.error(`sync-sources: cited but not in the bibliography: ${unknown.join(', ')}. Fix those citations.`);
  process.exit(1);
}
