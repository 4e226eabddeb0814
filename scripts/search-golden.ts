// The golden file of search results (test/golden/search-top5.json): the top five IDs for a few hundred
// queries, searched over a recorded release (releases/<version>.json, fixed), so that the file changes
// when the search code changes and never because the content did. test/unit/search-golden.test.ts
// compares today's answers with it. Regenerate it only on purpose, when a change to the ranking is
// intended, and commit the diff with that change (the diff is the review of what moved):
//
//   npm run test:golden                  rewrites the results for the queries in the file
//   npm run test:golden -- --new-queries also draws the query list again from the release
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AtlasSearch } from '../src/analysis/search.ts';
import { Registry } from '../src/registry/registry.ts';
import { readReleaseData, readReleaseIndex } from '../src/registry/releases.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GOLDEN_FILE = join(ROOT, 'test', 'golden', 'search-top5.json');
/** The release searched; a later one may be used by regenerating with --new-queries --release <version>. */
const DEFAULT_RELEASE = '0.3.0';
const TOP = 5;

export interface Golden {
  release: string;
  top: number;
  note: string;
  results: Array<{ query: string; ids: string[] }>;
}

/** The registry of a recorded release of this checkout. */
export function releaseRegistry(version: string): Registry {
  const record = readReleaseIndex(ROOT).releases.find((r) => r.version === version);
  if (!record) throw new Error(`release ${version} is not recorded in releases/index.json`);
  return new Registry(readReleaseData(ROOT, record));
}

/** The top IDs for each query, as today's code searches the release. */
export function topIds(reg: Registry, queries: readonly string[], top = TOP): Golden['results'] {
  const index = AtlasSearch.build(reg);
  return queries.map((query) => ({ query, ids: index.search(query, { limit: top }).results.map((h) => h.id) }));
}

/** Queries as people type them, then drawn from the release: aliases, typos, prefixes, IDs, situations. */
function drawQueries(reg: Registry): string[] {
  const everyday = [
    'reposted',
    'ghosted after final interview',
    'salary lowered',
    'lowball offer',
    'rejected within minutes',
    'told I am overqualified',
    'offer pulled',
    'interview rescheduled again',
    'take home too long',
    'status changed in the portal weeks later',
    'feedback refused company policy',
    'resume parser',
    'age discrimination',
    'internal candidate',
    'employment gap',
    'backup candidate',
    'structured interviews',
    'ghost job',
    'degree required for the job',
    'no salary range in the posting',
    'never heard back',
    'recruiter stopped replying',
    'auto reject',
    'culture fit',
    'they went with someone else',
    'background check delay',
    'visa sponsorship',
    'too many applicants',
    'hiring freeze',
    'referral',
  ];
  const entities = reg.entities.filter((e) => e.kind !== 'source');
  const aliases = entities.flatMap((e) => e.aliases);
  const picked = aliases.filter((_, i) => i % 4 === 0);
  // A letter dropped from the longest word of every tenth alias (typos), and the first five letters of a
  // word of every fifth title (people stop typing).
  const typos = aliases
    .filter((_, i) => i % 10 === 5)
    .map((a) => {
      const longest = a.split(' ').reduce((x, y) => (y.length > x.length ? y : x));
      return longest.length < 5 ? a : a.replace(longest, longest.slice(0, 2) + longest.slice(3));
    });
  const prefixes = entities
    .filter((_, i) => i % 5 === 0)
    .map((e) =>
      e.title
        .split(' ')
        .find((w) => w.length >= 7)
        ?.slice(0, 5)
        .toLowerCase(),
    )
    .filter((w): w is string => w !== undefined);
  const ids = entities.filter((_, i) => i % 20 === 0).map((e) => e.id.replace('-0', '').toLowerCase());
  const situations = reg.all('scenario').map((s) => s.situation.split(/\s+/).slice(0, 9).join(' '));
  return [
    ...new Set([...everyday, ...picked, ...typos, ...prefixes, ...ids, ...situations].map((q) => q.trim()).filter((q) => q.length > 0)),
  ];
}

function main(): void {
  const { values } = parseArgs({ options: { 'new-queries': { type: 'boolean', default: false }, release: { type: 'string' } } });
  const old = existsSync(GOLDEN_FILE) ? (JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Golden) : undefined;
  const fresh = values['new-queries'] || !old;
  const release = values.release ?? (fresh ? DEFAULT_RELEASE : old!.release);
  if (!fresh && values.release && values.release !== old!.release)
    throw new Error('--release changes the queries too: give --new-queries with it');
  const reg = releaseRegistry(release);
  const queries = fresh ? drawQueries(reg) : old!.results.map((r) => r.query);
  const golden: Golden = {
    release,
    top: TOP,
    note: 'The top five search results on a recorded release, as test/unit/search-golden.test.ts expects them. Regenerate only on purpose: npm run test:golden (scripts/search-golden.ts).',
    results: topIds(reg, queries),
  };
  mkdirSync(dirname(GOLDEN_FILE), { recursive: true });
  writeFileSync(
    GOLDEN_FILE,
    `${JSON.stringify(golden, null, 1).replace(/\[\n\s+("[^"\n]*"(?:,\n\s+"[^"\n]*")*)\n\s+\]/g, (_, ids: string) => `[${ids.replace(/,\n\s+/g, ', ')}]`)}\n`,
  );
  const moved =
    old && old.release === release
      ? golden.results.filter((r, i) => JSON.stringify(r) !== JSON.stringify(old.results[i])).length
      : undefined;
  console.log(
    `wrote ${GOLDEN_FILE}: ${golden.results.length} queries on release ${release}${moved !== undefined ? `, ${moved} changed` : ''}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
