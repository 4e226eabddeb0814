// The browse pages' filtering, as pure functions (no DOM), so the rule is written once and testable in
// Node: an item matches when, for every filter that is set, the item's values for it include the value
// chosen, and every word typed appears in its text. Items carry their values as data-* attributes
// (space-separated lists); the page's form names each filter.

/** The state of a browse form: filter name → chosen value ('' = any), and the words typed. */
export interface FilterState {
  filters: Record<string, string>;
  words: string;
}

/** Lower-case, accents removed, so "resume" finds "résumé". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function matches(values: Readonly<Record<string, string | undefined>>, text: string, state: FilterState): boolean {
  for (const [name, chosen] of Object.entries(state.filters)) {
    if (!chosen) continue;
    const have = (values[name] ?? '').split(/\s+/).filter(Boolean);
    if (!have.includes(chosen)) return false;
  }
  const words = fold(state.words).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold(text);
  return words.every((w) => haystack.includes(w));
}

/** The state a query string holds (what the form's GET submission, or a shared link, carries). */
export function stateFromQuery(query: string, names: readonly string[]): FilterState {
  const params = new URLSearchParams(query);
  const filters: Record<string, string> = {};
  for (const name of names) filters[name] = params.get(name) ?? '';
  return { filters, words: params.get('q') ?? '' };
}

/** The query string of a state: only what is set, in the form's order ('' when nothing is). */
export function queryOf(state: FilterState, names: readonly string[]): string {
  const params = new URLSearchParams();
  for (const name of names) if (state.filters[name]) params.set(name, state.filters[name]!);
  if (state.words.trim()) params.set('q', state.words.trim());
  const q = params.toString();
  return q ? `?${q}` : '';
}

/** "Showing 12 of 60 mechanisms." */
export function shownText(shown: number, total: number, many: string): string {
  if (shown === 0) return `None of the ${total} ${many} matches. Clear a filter or try other words.`;
  return shown === total ? `Showing all ${total} ${many}.` : `Showing ${shown} of ${total} ${many}.`;
}
