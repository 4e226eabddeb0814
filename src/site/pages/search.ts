// The search page: a plain GET form (?q=) that works as a page; with JavaScript, results appear as you
// type, from the same search() and the same shipped index as the CLI (src/site/browser/search.ts).
import { KINDS, type Kind } from '../../model/vocab.ts';
import type { Registry } from '../../registry/registry.ts';
import { html, Raw } from '../html.ts';
import { page } from '../layout.ts';
import { SITE, browsePath } from '../paths.ts';

/** How each kind is named to a reader (an artifact is what the person observed). */
export const KIND_WORDS: Record<Kind, { one: string; many: string }> = {
  artifact: { one: 'observation', many: 'Observations' },
  barrier: { one: 'barrier', many: 'Barriers' },
  mechanism: { one: 'mechanism', many: 'Mechanisms' },
  pattern: { one: 'pattern', many: 'Patterns' },
  loop: { one: 'loop', many: 'Loops' },
  intervention: { one: 'intervention', many: 'Interventions' },
  scenario: { one: 'scenario', many: 'Worked scenarios' },
  source: { one: 'source', many: 'Sources' },
};

/** Queries shown as examples: everyday words, a typo, an ID (each finds its observation first; see test/unit/search.test.ts). */
const SEARCH_EXAMPLES: ReadonlyArray<{ q: string; what: string }> = [
  { q: 'ghosted after final intervew', what: 'a typo is fine' },
  { q: 'they put the role on ice', what: 'everyday words' },
  { q: 'asked about the gap in my CV', what: '' },
  { q: 'offer rescinded', what: '' },
  { q: 'A-009', what: 'an ID' },
];

export const searchHref = (q: string, kind?: string) =>
  `${SITE.search}?q=${encodeURIComponent(q).replace(/%20/g, '+')}${kind ? `&kind=${kind}` : ''}`;

/** The browse pages, for when search cannot run or finds nothing. */
export function browseLinks(): Raw {
  return html`<ul class="cols">
${KINDS.map((k) => html`<li><a href="${browsePath(k)}">${KIND_WORDS[k].many}</a></li>\n`)}</ul>`;
}

// Styles of the search and analyze pages only (the shared stylesheet has the rest).
export const SEARCH_ANALYZE_CSS = `
.answer-field { margin: 0.75rem 0; }
.answer-field > label { display: block; margin-bottom: 0.25rem; }
.answer-hint { color: var(--muted); font-size: 0.92em; margin: 0.25rem 0; }
.answer-hits { list-style: none; padding: 0; }
.answer-hits > li { border-top: 1px solid var(--line); padding: 0.6rem 0; margin: 0; }
.answer-hits p { margin: 0.2rem 0; }
.answer-meta { color: var(--muted); font-size: 0.92em; }
.answer-read p, .answer-read ul { margin: 0.2rem 0; }
.answer-error { border-left: 4px solid var(--warn); padding: 0.25rem 0.75rem; }
textarea { width: 100%; }
`;

export function searchPage(reg: Registry): string {
  return page(reg, {
    title: 'Search',
    path: SITE.search,
    description:
      'Search the atlas in your own words: observations, mechanisms, patterns, scenarios and sources, with everyday phrases and typos understood.',
    scripts: ['search'],
    head: html`<link rel="stylesheet" href="${SITE.searchAnalyzeStylesheet}">\n`,
    main: html`<h1>Search the atlas</h1>
<p>Describe what happened in a few words, or type an atlas ID. Everyday words and typos are understood, as in <code>hoba search</code>.</p>
<form id="search-form" class="panel search-form" action="${SITE.search}" method="get" role="search">
<div class="answer-field">
<label for="q">What are you looking for?</label>
<div class="search-row">
<input type="search" id="q" name="q" maxlength="300" autocomplete="off" aria-describedby="q-hint">
<button type="submit" class="button-primary">Search</button>
</div>
<p id="q-hint" class="answer-hint">For example “ghosted after final interview”, “they pulled the offer” or <span class="id">A-009</span>. English only.</p>
</div>
<div class="answer-field">
<label for="kind">Only show</label>
<select id="kind" name="kind">
<option value="">Everything</option>
${KINDS.map((k) => html`<option value="${k}">${KIND_WORDS[k].many}</option>\n`)}</select>
</div>
</form>
<p id="search-status" class="visually-hidden" role="status" aria-live="polite"></p>
<div id="search-results"></div>
<div id="search-nojs" class="note">
<h2>Search runs in your browser</h2>
<p>The search uses the atlas’s own index in your browser, and your browser is not running this page’s script, so nothing can be searched here.
You can still find your way by kind:</p>
${browseLinks()}
<p>Or start from the <a href="${browsePath('scenario')}">worked scenarios</a>: situations in a candidate’s words, each with what the atlas makes of it.</p>
</div>
<section id="search-examples" aria-labelledby="examples-h">
<h2 id="examples-h">Try</h2>
<ul>
${SEARCH_EXAMPLES.map((e) => html`<li><a href="${searchHref(e.q)}">${e.q}</a>${e.what ? html` <span class="muted">(${e.what})</span>` : ''}</li>\n`)}</ul>
<p>To have what happened analysed rather than searched, go to <a href="${SITE.analyze}">What happened to you?</a></p>
</section>`,
  });
}
