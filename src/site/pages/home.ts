// The home page: for a person in the middle of a hiring process first (what the atlas is, "what happened
// to you?", the worked situations, the rules of evidence), then the way in for researchers and developers.
import { KIND_INFO, KINDS } from '../../model/index.ts';
import type { Registry } from '../../registry/registry.ts';
import { methodology } from '../../analysis/methodology.ts';
import { MAX_ACCOUNT_LENGTH } from '../../analysis/reader.ts';
import { atlasStats } from '../../analysis/stats.ts';
import { API_BASE, OPENAPI_PATH } from '../../publish/routes.ts';
import { html, Raw } from '../html.ts';
import { datasetJsonLd } from '../../publish/dataset.ts';
import { page } from '../layout.ts';
import { BROWSE_PATH, LLMS_PATH } from '../meta.ts';
import { SITE, browsePath, entityPath } from '../paths.ts';
import { firstSentence } from './browse-hub.ts';
import { vocabularyAnchor } from './methodology.ts';

/**
 * The search box: a plain GET form to the search page (which reads ?q=), so it works without JavaScript.
 * `id` keeps the label's `for` unique when a page has two.
 */
export function searchForm(id: string, label = 'Describe what happened, in your own words'): Raw {
  return html`<form class="search-form" role="search" action="${SITE.search}" method="get">
<label for="${id}">${label}</label>
<div class="search-row">
<input type="search" id="${id}" name="q" placeholder="e.g. no reply after the interview" autocomplete="off" enterkeyhint="search" required>
<button type="submit">Search</button>
</div>
</form>`;
}

/**
 * The home page's box: what happened, in the person's words, straight into the analysis with the text
 * carried over. The home script (src/site/browser/home.ts) opens the analyze page with the text in the
 * address's fragment, which stays in the browser; without it, the form sends ?text= to the analyze page,
 * which moves it into the fragment.
 */
function describeForm(id: string): Raw {
  return html`<form class="describe-form" id="form-describe" action="${SITE.analyze}" method="get">
<label for="${id}">Describe what happened, in your own words</label>
<textarea id="${id}" name="text" rows="3" maxlength="${MAX_ACCOUNT_LENGTH}" placeholder="e.g. no reply after the final interview" required aria-describedby="${id}-hint"></textarea>
<p id="${id}-hint" class="muted small">The atlas reads your words, asks when two things read alike, and shows what could explain what happened. It runs in your browser: nothing you type leaves it.</p>
<button type="submit" class="button-primary">Analyse what happened</button>
</form>`;
}

/** The rules of evidence in plain words: said on the home page and the 404 page alike. */
const PLAIN_RULES: ReadonlyArray<{ rule: string; more: string }> = [
  {
    rule: 'What you saw is not the cause.',
    more: 'Silence or a template email can come from many different things. Each observation here lists what it does not tell you.',
  },
  {
    rule: 'Possible is not proven.',
    more: 'The atlas lists the explanations that fit what you saw. Any of them may be at work, or something the atlas does not hold.',
  },
  {
    rule: 'No odds, ever.',
    more: 'Nothing here says how likely an explanation is. The order of a list says how directly it accounts for what you saw, not how probable it is.',
  },
  {
    rule: 'The ordinary explanations are always in the list.',
    more: 'A stronger candidate or a real skill gap is considered like every other cause, no more and no less.',
  },
  {
    rule: 'It says what it cannot tell you.',
    more: 'When nothing you can do would tell the explanations apart, the atlas says so instead of guessing, and still lists the steps that help whatever the cause.',
  },
  { rule: 'It names no one.', more: 'No employer, recruiter, vendor or person is named: it describes how hiring works, not who did what.' },
  {
    rule: 'It is not legal advice.',
    more: 'Where the law matters, the atlas says what the cited texts provide and where to get advice; time limits are short.',
  },
];

const phrase = (meaning: string) => {
  const s = firstSentence(meaning).replace(/\.$/, '');
  return s.charAt(0).toLowerCase() + s.slice(1);
};

/**
 * A handful of observations to start from: those the worked situations start from most often (ties by ID),
 * a fact of the atlas, not a claim about how often they happen in the world.
 */
function startingObservations(reg: Registry, n: number) {
  const uses = new Map<string, number>();
  for (const s of reg.all('scenario')) if (s.status === 'active') for (const a of s.input.artifacts) uses.set(a, (uses.get(a) ?? 0) + 1);
  return reg
    .all('artifact')
    .filter((a) => a.status === 'active' && uses.has(a.id))
    .sort((a, b) => uses.get(b.id)! - uses.get(a.id)! || (a.id < b.id ? -1 : 1))
    .slice(0, n);
}

/** us-federal → US federal: the jurisdiction IDs read as names. */
const jurisdictionName = (id: string) =>
  id
    .split('-')
    .map((w) => (/^(us|uk|eu)$/.test(w) ? w.toUpperCase() : w))
    .join(' ');

const listed = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export function homePage(reg: Registry): string {
  const m = reg.manifest;
  const stats = atlasStats(reg);
  const vocab = methodology(reg).vocabularies;
  const scenarios = reg.all('scenario').filter((s) => s.status === 'active');
  const observations = startingObservations(reg, 8);
  const topics = vocab.topics.filter((t) => {
    const covered = stats.topics[t.id];
    return covered && covered.mechanisms.length + covered.artifacts.length > 0;
  });
  const jurisdictions = vocab.jurisdictions.filter((j) => (stats.jurisdictions[j.id]?.notes ?? 0) > 0);
  const c = stats.counts;
  return page(reg, {
    title: m.name,
    path: SITE.home,
    // The schema.org Dataset description, so that dataset search engines find the atlas and its downloads.
    head: new Raw(`<script type="application/ld+json">${datasetJsonLd(reg)}</script>\n`),
    scripts: ['home'],
    description:
      'When a hiring process goes silent or says no: what you saw, what could explain it, how you could tell, and what you can still do. Possible explanations, never odds.',
    main: html`<h1>Make sense of what happened in a hiring process</h1>
<p class="lede">The ${m.name} links what candidates see (silence, a template rejection, a job posted again) to the processes that can produce it, and to what you can still do.
It tells you what could be going on and how you might tell the explanations apart; it never tells you what is going on, or how likely it is.</p>

<section aria-labelledby="what-happened">
<h2 id="what-happened">What happened to you?</h2>
${describeForm('describe-home')}
<p class="muted small">Looking for a word or a name of something? <a href="${SITE.search}">Search the atlas</a>. Or <a href="${SITE.analyze}">pick what you saw from the list of observations</a>.</p>
</section>

<section aria-labelledby="situations">
<h2 id="situations">Situations other candidates described</h2>
<p>Each is a worked case in a candidate’s own words, with what the atlas makes of it. Open the one closest to yours.</p>
<ul class="cols">
${scenarios.map((s) => html`<li><a href="${entityPath(s.id)}">${s.title}</a></li>\n`)}</ul>
<h3 id="observations">Or start from what you saw</h3>
<ul class="cols">
${observations.map((a) => html`<li><a href="${entityPath(a.id)}">${a.title}</a></li>\n`)}</ul>
<p><a href="${browsePath('artifact')}">All ${c.artifact} observations</a> · <a href="${browsePath('scenario')}">all ${c.scenario} worked situations</a></p>
</section>

<section aria-labelledby="rules">
<h2 id="rules">How to read what the atlas tells you</h2>
<ul>
${PLAIN_RULES.map((r) => html`<li><strong>${r.rule}</strong> ${r.more}</li>\n`)}</ul>
<p>The <a href="${SITE.methodology}">methodology</a> says it in full.</p>
</section>

<section aria-labelledby="researchers">
<h2 id="researchers">For researchers and developers</h2>
<p>The atlas is an open, versioned knowledge graph (content version ${reg.version}): ${c.artifact} observations, ${c.barrier} barriers of the hiring funnel, ${c.mechanism} mechanisms,
${c.pattern} patterns, ${c.loop} loops, ${c.intervention} interventions and ${c.scenario} worked scenarios, citing ${c.sources_cited} sources.
It covers <a href="${vocabularyAnchor('topics')}">${topics.length} topics</a>, from ${phrase(topics[0]?.meaning ?? '')} to ${phrase(topics[topics.length - 1]?.meaning ?? '')}, and holds law notes for ${jurisdictions.length} jurisdictions: ${listed(jurisdictions.map((j) => jurisdictionName(j.id)))}.</p>
<ul class="cards">
<li class="card"><h3><a href="${BROWSE_PATH}">Browse</a></h3><p>Every entity of every kind, one page each, with filters.</p></li>
<li class="card"><h3><a href="${SITE.explore}">Graph explorer</a></h3><p>The whole graph: layers by kind and relation, facets, neighbourhoods.</p></li>
<li class="card"><h3><a href="${SITE.methodology}">Methodology</a></h3><p>The HOBA protocol, evidence levels, fidelity, facets and the rules of inference.</p></li>
<li class="card"><h3><a href="${SITE.developers}">API, MCP and command line</a></h3><p>A static REST API with an <a href="${OPENAPI_PATH}">OpenAPI description</a>, an MCP server for assistants, and the <code>hoba</code> CLI.</p></li>
<li class="card"><h3>Download the data</h3><p><a href="${SITE.data}">The whole atlas</a> (JSON), <a href="${API_BASE}/graph">the graph</a> (nodes and typed edges), <a href="${API_BASE}/index.json">the API index</a>, and <a href="${LLMS_PATH}">llms.txt</a> for assistants.</p></li>
</ul>
<p class="muted small">Every kind: ${KINDS.map((k, i) => html`${i ? ' · ' : ''}<a href="${browsePath(k)}">${KIND_INFO[k].dir}</a>`)}.</p>
</section>`,
  });
}
