// The search page, enhanced: results as you type and on load from ?q=, from the same search() over the
// shipped index as the CLI (so synonyms, everyday phrases and typo tolerance are the CLI's). The query
// stays in the address (?q=, ?kind=) so a search can be shared; nothing is sent anywhere.
import { rewriteQuery } from '../../analysis/colloquial.ts';
import { AnalysisError } from '../../analysis/resolve.ts';
import { accountReader } from '../../analysis/reader.ts';
import { readsAsAccount, search, type AccountReader } from '../../analysis/search.ts';
import { fieldText } from '../../analysis/search/fields.ts';
import { normaliseTerm, tokenizeText } from '../../analysis/search/tokenise.ts';
import type { SearchResult } from '../../analysis/schemas.ts';
import type { Entity } from '../../model/schemas.ts';
import { KINDS, type Kind } from '../../model/vocab.ts';
import type { Registry } from '../../registry/registry.ts';
import { html, type Raw } from '../html.ts';
import { entityPath, SITE } from '../paths.ts';
import { browseLinks, KIND_WORDS, searchHref } from '../pages/search.ts';
import { fragmentOf } from './lib/analyze-state.ts';
import { loadReader, loadRegistry, loadSearch, LOAD_FAILED } from './lib/atlas.ts';
import { byId, debounce, setHtml } from './lib/dom.ts';

const LIMIT = 20;

const form = byId<HTMLFormElement>('search-form');
const input = byId<HTMLInputElement>('q');
const kindSelect = byId<HTMLSelectElement>('kind');
const status = byId('search-status');
const results = byId('search-results');
const examples = byId('search-examples');
byId('search-nojs').hidden = true;

const FIELDS = ['title', 'aliases', 'summary', 'body'] as const;

/** A word of the entity that an index term (a stem such as "freez") came from, to show people. */
function surface(e: Entity | undefined, term: string): string {
  if (e) for (const f of FIELDS) for (const w of tokenizeText(fieldText(e, f))) if (normaliseTerm(w) === term) return w.toLowerCase();
  return term;
}

/** Why a hit matched, in words: the ID named, or the words of the entry it matched. */
function why(reg: Registry, hit: SearchResult['results'][number]): string {
  if (hit.exact) return 'you named this ID';
  if (hit.read?.open)
    return `your words${hit.read.quote ? ` (“${hit.read.quote}”)` : ''} could mean this or another observation listed here; describe it on “What happened to you?” to be asked which`;
  if (hit.read) return hit.read.quote ? `you wrote “${hit.read.quote}”` : 'your account states it';
  const words = [...new Set(hit.matched.map((t) => surface(reg.get(hit.id), t)))];
  return words.length > 0 ? `it has the words ${words.map((w) => `“${w}”`).join(', ')}` : 'it matched your words';
}

function resultsHtml(reg: Registry, r: SearchResult, kind: Kind | undefined): Raw {
  const rewrite = rewriteQuery(r.query);
  const read = [
    ...rewrite.phrases.map((p) => html`<li>“${p.said}” read as “${p.means}”</li>`),
    ...(rewrite.negated.length > 0 ? [html`<li>set aside, as you wrote them negated: ${rewrite.negated.join(', ')}</li>`] : []),
  ];
  const readAs = read.length > 0 ? html`<div class="answer-meta answer-read"><p>How your words were read:</p><ul>${read}</ul></div>` : '';
  if (r.results.length === 0) {
    return html`<h2>No match</h2>
${readAs}<p>Nothing in the atlas matches “${r.query}”${kind ? html` among ${KIND_WORDS[kind].many.toLowerCase()}` : ''}.</p>
${r.suggestions.length > 0 ? html`<p>Close words in the atlas: ${r.suggestions.map((s, i) => html`${i ? ', ' : ''}<a href="${searchHref(s, kind)}">${s}</a>`)}.</p>` : ''}
<p>Try fewer words, the words someone used with you (“not the right fit”, “the role is on hold”), ${kind ? html`<a href="${searchHref(r.query)}">every kind</a>, ` : ''}or browse:</p>
${browseLinks()}
<p>To have a situation analysed rather than searched, describe it on <a href="${SITE.analyze}">What happened to you?</a></p>`;
  }
  const shown =
    r.results.length < r.total ? `${r.results.length} best of ${r.total} matches` : `${r.total} ${r.total === 1 ? 'match' : 'matches'}`;
  // An account of what happened: the analysis is one step away, with the words carried over (in the fragment).
  const analyse = r.results.some((h) => h.read)
    ? html`<p class="answer-meta">These words read as an account of what happened: <a id="search-analyse" href="${SITE.analyze}#${fragmentOf({ text: r.query, probes: [] })}">see what could explain it</a>.</p>`
    : '';
  return html`<h2>${shown}</h2>
${readAs}${analyse}<ol class="answer-hits">
${r.results.map(
  (h) => html`<li data-id="${h.id}" data-kind="${h.kind}">
<p><span class="tag">${KIND_WORDS[h.kind].one}</span>${h.status === 'deprecated' ? html`<span class="tag">deprecated</span>` : ''} <a href="${entityPath(h.id)}">${h.id} ${h.title}</a></p>
<p>${h.summary}</p>
<p class="answer-meta">Why it is here: ${why(reg, h)}.</p>
</li>
`,
)}</ol>
<p class="answer-meta">${r.results.some((h) => h.read) ? 'What your words state first, then the best matches. ' : 'Best matches first. '}The order says how well the words match, not how likely an explanation is.</p>`;
}

function errorHtml(message: string): Raw {
  return html`<div class="answer-error" role="alert"><p>${message}</p></div>`;
}

let latest = 0;

async function run(push: boolean): Promise<void> {
  const q = input.value.trim();
  const kind = (KINDS as readonly string[]).includes(kindSelect.value) ? (kindSelect.value as Kind) : undefined;
  const url = q ? searchHref(q, kind) : SITE.search;
  if (push && `${location.pathname}${location.search}` !== url) history.replaceState(null, '', url);
  const ticket = ++latest;
  if (!q) {
    results.replaceChildren();
    examples.hidden = false;
    status.textContent = '';
    return;
  }
  if (status.textContent === '') status.textContent = 'Loading the atlas’s index…';
  let index: Awaited<ReturnType<typeof loadSearch>>;
  try {
    index = await loadSearch();
  } catch {
    if (ticket === latest) setHtml(results, errorHtml(LOAD_FAILED));
    return;
  }
  // An account of what happened is read too, with the reader's model (loaded only for one).
  let read: AccountReader | undefined;
  if (readsAsAccount(q, kind ? [kind] : [])) {
    try {
      read = accountReader(index.registry, await loadReader());
    } catch {
      // The reader's model did not load: the words are still searched, without the reading.
    }
  }
  if (ticket !== latest) return; // a newer query is running
  examples.hidden = true;
  try {
    const r = search(index.registry, q, { limit: LIMIT, ...(kind ? { kinds: [kind] } : {}), ...(read ? { read } : {}) }, index);
    setHtml(results, resultsHtml(index.registry, r, kind));
    status.textContent = r.total === 0 ? `No match for ${q}.` : `${r.total} ${r.total === 1 ? 'match' : 'matches'} for ${q}.`;
  } catch (err) {
    if (!(err instanceof AnalysisError)) throw err;
    setHtml(results, errorHtml(err.message));
    status.textContent = err.message;
  }
}

const params = new URLSearchParams(location.search);
input.value = params.get('q') ?? '';
const kindParam = params.get('kind') ?? '';
if ((KINDS as readonly string[]).includes(kindParam)) kindSelect.value = kindParam;

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void run(true).then(() => {
    // After an explicit search, the results are where to go next.
    const first = results.querySelector<HTMLElement>('h2');
    if (first) {
      first.tabIndex = -1;
      first.focus();
    }
  });
});
const typed = debounce(() => void run(true), 150);
input.addEventListener('input', typed);
kindSelect.addEventListener('change', () => void run(true));

if (input.value.trim()) void run(false);
else void loadRegistry().catch(() => undefined); // warm the cache while the person types
