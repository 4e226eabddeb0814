// hoba search "<text>": full-text search over every kind, relevant matches only, best first, exact IDs
// before all.
import type { Command } from 'commander';
import type { SearchResult } from '../analysis/schemas.ts';
import { DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, searchIndexOf } from '../analysis/search.ts';
import { ACCOUNT_WORDS, readsAsAccount, RELEVANCE } from '../analysis/search/policy.ts';
import { KINDS } from '../model/vocab.ts';
import { openAtlas } from './atlas.ts';
import { colour, writeJson } from './io.ts';
import { withAnalysisErrors, intOption, InvalidArgumentError, wrap } from './text.ts';
import { writeOut } from './out.ts';

export interface SearchOptions {
  kind?: string[];
  /** DEFAULT_SEARCH_LIMIT when not given. */
  limit?: number;
  json?: boolean;
  dir?: string;
}

function collectKinds(value: string, previous: string[] = []): string[] {
  const kinds = value
    .split(',')
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  for (const k of kinds) {
    if (!(KINDS as readonly string[]).includes(k)) throw new InvalidArgumentError(`Allowed kinds are ${KINDS.join(', ')}.`);
  }
  return [...previous, ...kinds];
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('Find entities of any kind by words, aliases or ID (typo-tolerant)')
    .argument('<text...>', 'what to look for: words as you would say them, or an ID')
    .option('--kind <kind>', `only these kinds (repeatable or comma-separated): ${KINDS.join(', ')}`, collectKinds)
    .option('--limit <n>', 'at most this many results', intOption(1), DEFAULT_SEARCH_LIMIT)
    .option('--json', 'print the results as JSON')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
Searches IDs, titles, aliases, summaries and body text (descriptions, non-inferences, probes, notes).
Write it as you would say it: everyday phrases ("went dark", "lowballed", "moved the goalposts") are
read in the atlas's words, typos are tolerated, and what you negate ("not ghosted, rejected") is set
aside. Only relevant matches are counted and shown: those scoring at least ${Math.round(RELEVANCE * 100)}% of the best one. An
ID in the query (A-004, or a-4) comes first. A query of ${ACCOUNT_WORDS} words or more is also read as an
account of what happened, as hoba explain reads it: the observations it states come next, with your
words. No match exits 0 with an empty list and close terms to try. The atlas is in English only: a
query in another language is refused (exit 2), not translated. A query holds at most ${MAX_QUERY_LENGTH}
characters. To explain what happened in your own words, use hoba explain "<what happened>".

Examples:
  $ hoba search "ghosted after final interview"
  $ hoba search "they went dark after the onsite"
  $ hoba search reposted --kind artifact
  $ hoba search "salary lowered" --limit 3 --json | jq -r '.results[].id'
  $ hoba search M-013`,
    )
    .action(runSearch);
}

/** The command itself, for commander and for main.ts's parser of the usual forms alike. */
export async function runSearch(words: string[], opts: SearchOptions): Promise<void> {
  const atlas = await openAtlas(opts.dir);
  const index = searchIndexOf(atlas);
  const query = words.join(' ');
  const kinds = opts.kind ?? [];
  // An account of what happened is read too (the reader's model is loaded only for one).
  const read = readsAsAccount(query, kinds)
    ? await import('../analysis/reader.ts').then((r) => r.accountReader(atlas.registry, r.readerModelOf(atlas)))
    : undefined;
  const result = withAnalysisErrors(() =>
    // The text shows no matched terms, so they are worked out only for --json.
    index.search(query, { kinds, limit: opts.limit ?? DEFAULT_SEARCH_LIMIT, matched: opts.json === true, ...(read ? { read } : {}) }),
  );
  if (opts.json) {
    writeJson(result);
    return;
  }
  // Nothing in the kinds asked for: say whether other kinds match.
  const elsewhere = result.total === 0 && (opts.kind ?? []).length > 0 ? index.search(query, { limit: 1 }).total : 0;
  writeOut(renderSearch(result, elsewhere));
}

export function renderSearch(r: SearchResult, elsewhere = 0): string {
  const out: string[] = [];
  if (r.total === 0) {
    const scope = r.kinds.length < KINDS.length ? ` among ${r.kinds.join(', ')}` : '';
    out.push(`No matches for "${r.query}"${scope}.`);
    if (elsewhere > 0)
      out.push(`${elsewhere} match${elsewhere === 1 ? '' : 'es'} in other kinds: drop --kind to see ${elsewhere === 1 ? 'it' : 'them'}.`);
    if (r.suggestions.length > 0) out.push(`Close terms to try: ${r.suggestions.join(', ')}`);
    else if (elsewhere === 0) out.push('Try fewer or different words, or an ID such as A-001.');
    return out.join('\n') + '\n';
  }
  for (const h of r.results) {
    const deprecated = h.status === 'deprecated' ? colour.yellow(' [deprecated]') : '';
    out.push(
      `${colour.bold(h.id.padEnd(6))} ${colour.cyan(h.kind.padEnd(12))} ${h.title}${deprecated}${h.exact ? colour.dim('  (exact ID)') : ''}`,
    );
    if (h.read)
      out.push(
        colour.dim(
          wrap(
            h.read.open
              ? `One of two readings of your words${h.read.quote ? ` (“${h.read.quote}”)` : ''}: hoba explain with them asks which.`
              : `Your words state it${h.read.quote ? `: “${h.read.quote}”` : '.'}`,
            '                    ',
            '                    ',
          ),
        ),
      );
    out.push(colour.dim(wrap(clip(h.summary, 180), '                    ', '                    ')));
  }
  // An account of what happened: the analysis is the next step.
  if (r.results.some((h) => h.read))
    out.push('', colour.dim(wrap('These words read as an account of what happened: hoba explain with them says what could explain it.')));
  const more = r.total > r.results.length ? ` (showing ${r.results.length} of ${r.total}; --limit for more)` : '';
  out.push(
    '',
    colour.dim(
      `${r.total} relevant match${r.total === 1 ? '' : 'es'}${more} · hoba show <id> for details · registry ${r.registry_version}`,
    ),
  );
  return out.join('\n') + '\n';
}

function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  return t.slice(0, t.lastIndexOf(' ', max)) + ' …';
}
