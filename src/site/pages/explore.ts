// The graph explorer (/explore/): the whole atlas as a graph, drawn by Cytoscape.js in the browser
// (src/site/browser/explore.ts) from the published graph (/api/v1/graph). The page itself is static:
// without JavaScript it says what the graph holds and links to the browse pages and the JSON; with it,
// the controls below (plain form controls, all keyboard operable) drive the drawing and a list of what
// is shown, which is the accessible equivalent of the drawing.
import { methodology } from '../../analysis/methodology.ts';
import { ACTORS, EVIDENCE_LEVELS, KINDS, RELATIONS, STAGES } from '../../model/vocab.ts';
import type { Registry } from '../../registry/registry.ts';
import { API_BASE } from '../../publish/routes.ts';
import { html, Raw } from '../html.ts';
import { page } from '../layout.ts';
import { SITE, browsePath } from '../paths.ts';
import type { SitePage } from '../page.ts';
import { KIND_LOOK, KINDS_HIDDEN_AT_START, LAYER_ORDER, RELATION_LINE, swatchSvg } from '../browser/lib/graph-style.ts';

/** The id of the stylesheet Cytoscape.js would otherwise add itself (an inline <style>). */
const CYTOSCAPE_STYLESHEET_ID = '__________cytoscape_stylesheet';

/** The explorer's own styles: only this page needs them, so they stay out of the shared stylesheet. The
 * first rule is the one Cytoscape.js would add. */
const EXPLORE_CSS = `
.__________cytoscape_container { position: relative; }
.explore-controls { margin: 1rem 0; font-size: 0.95em; }
.explore-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 0.75rem; }
.explore-more { margin: 0.75rem 0 0; }
.explore-more > summary { cursor: pointer; font-weight: 600; padding: 0.25rem 0; margin-bottom: 0.5rem; }
.explore-controls fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0; padding: 0.4rem 0.75rem 0.75rem; min-width: 0; }
.explore-controls fieldset.wide { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: flex-end; }
.explore-controls fieldset.wide .field { flex: 1 1 14rem; margin: 0; }
.explore-controls legend { font-weight: 600; padding: 0 0.25rem; }
.explore-controls ul { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: 0 0.75rem; }
.explore-controls li label { display: flex; align-items: center; gap: 0.35rem; padding: 0.2rem 0; font-weight: 400; }
.explore-controls .field { display: flex; flex-direction: column; gap: 0.15rem; margin: 0 0 0.5rem; min-width: 0; }
.explore-controls .field select { width: 100%; }
.explore-controls .check { font-weight: 400; }
.explore-controls .buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.explore-controls p { margin: 0.25rem 0 0; font-size: 0.9em; }
.explore-controls .count { white-space: nowrap; }
.swatch { flex: none; vertical-align: middle; }
.explore-canvas { position: relative; overflow: hidden; width: 100%; height: min(75vh, 44rem); min-height: 20rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
.explore-focus { margin: 0.75rem 0; }
.explore-focus p { margin: 0.25rem 0; }
.explore-list summary { cursor: pointer; font-weight: 600; padding: 0.25rem 0; }
.explore-list table { font-size: 0.92em; }
.explore-list td:first-child, .explore-list th:first-child { white-space: nowrap; }
.legend-list { list-style: none; padding: 0; }
.legend-list li { margin: 0.35rem 0; }
.legend-list .swatch { margin-right: 0.35rem; }
dl.relations dt { font-weight: 600; margin-top: 0.4rem; }
dl.relations dd { margin: 0 0 0 1rem; }
@media (max-width: 40rem) { .explore-canvas { height: 65vh; } }
`;

export function* explorePages(reg: Registry): Generator<SitePage> {
  yield { url: SITE.exploreStylesheet, bytes: Buffer.from(EXPLORE_CSS, 'utf8') };
  yield { url: SITE.explore, bytes: Buffer.from(explorePage(reg), 'utf8') };
}

function explorePage(reg: Registry): string {
  const vocab = methodology(reg).vocabularies;
  const kindMeaning = new Map(vocab.kinds.map((k) => [k.id, k.meaning]));
  const relationMeaning = new Map(vocab.relations.map((r) => [r.id, r]));
  const count = (kind: (typeof KINDS)[number]) => reg.all(kind).length;
  const edgeCount = (relation: (typeof RELATIONS)[number]) => reg.edges.filter((e) => e.relation === relation).length;
  const graphUrl = `${API_BASE}/graph`;
  const option = (value: string, label: string = value) => html`<option value="${value}">${label}</option>`;

  const kindToggles = LAYER_ORDER.map(
    (k) =>
      html`<li><label><input type="checkbox" name="kind" value="${k}"${KINDS_HIDDEN_AT_START.includes(k) ? '' : new Raw(' checked')}> ${new Raw(swatchSvg(k))} <span>${KIND_LOOK[k].label} <span class="muted count">(${count(k)})</span></span></label></li>\n`,
  );
  const relationToggles = RELATIONS.map(
    (r) =>
      html`<li><label><input type="checkbox" name="relation" value="${r}" checked> <span>${r.replace('_', ' ')} <span class="muted count">(${edgeCount(r)})</span></span></label></li>\n`,
  );
  const legend = LAYER_ORDER.map(
    (k) =>
      html`<li>${new Raw(swatchSvg(k))}<strong>${KIND_LOOK[k].label}</strong>: drawn as a ${KIND_LOOK[k].shapeName}. ${kindMeaning.get(k)} <a href="${browsePath(k)}">Browse all ${count(k)}</a>.</li>\n`,
  );
  const relations = RELATIONS.map((r) => {
    const m = relationMeaning.get(r)!;
    const line = RELATION_LINE[r];
    return html`<dt>${r.replace('_', ' ')}</dt><dd>From ${m.from} to ${m.to}: ${m.meaning} Drawn as a ${line} line with an arrow.</dd>\n`;
  });

  return page(reg, {
    title: 'Explore the graph',
    path: SITE.explore,
    description:
      'The whole Hiring Obstacles & Barriers Atlas as a graph: observations, barriers, mechanisms, patterns, loops, interventions, scenarios and sources, with filters and a list of what is shown.',
    // The starter: it loads the drawing (explore.js) at once on a wide screen, on request on a phone.
    scripts: ['explore-start'],
    // Cytoscape.js adds a <style> element for its container unless one with its id exists, which the
    // Content-Security-Policy refuses (routes.ts): the page's stylesheet takes that id, and the rule.
    head: html`<link rel="stylesheet" id="${CYTOSCAPE_STYLESHEET_ID}" href="${SITE.exploreStylesheet}">\n`,
    main: html`<h1>Explore the graph</h1>
<p>The atlas is a graph. What a candidate sees (observations) arises at the gates of a hiring process (barriers);
mechanisms act at those gates and can produce those observations; patterns and loops name configurations that recur;
interventions are changes an employer, a vendor or a regulator can make; scenarios are worked situations; sources are the evidence.
It holds ${reg.entities.length} things and ${reg.edges.length} connections.</p>
<p class="note">A connection says the atlas links two things, not that it happened in your case: a mechanism that can produce an observation is compatible with it, not proven by it, and nothing here is a probability.
To work through your own situation, use <a href="${SITE.analyze}">What happened?</a></p>

<div id="explore-nojs" class="panel">
<p><strong>The interactive drawing needs JavaScript.</strong> Everything it shows is also on this site as pages: every kind below links to its list, and every entity has its own page with its connections.
The whole graph is published as JSON at <a href="${graphUrl}"><code>${graphUrl}</code></a> (nodes and typed edges), described on the <a href="${SITE.developers}">developer page</a>.</p>
<p id="explore-draw-offer" hidden>On a small screen the drawing is made when you ask for it: it downloads about 160 KB and takes a few seconds of work.
<button type="button" id="explore-draw">Draw the graph</button></p>
</div>

<section id="explorer" aria-labelledby="explorer-heading" data-graph="${graphUrl}" hidden>
<h2 id="explorer-heading">The graph</h2>
<p>Choose what to show. Click a shape in the drawing to focus on it and its neighbours (the rest is dimmed); click it again to open its page.
The drawing is a picture of the list below it, which holds the same nodes and connections as links.</p>
<form class="explore-controls" id="explore-controls" aria-label="What the graph shows">
<fieldset class="wide">
<legend>Focus and layout</legend>
<div class="field"><label for="explore-focus">Focus on</label>
<select id="explore-focus" name="focus">${option('', 'nothing: the whole graph')}</select></div>
<div class="field"><label for="explore-layout">Layout</label>
<select id="explore-layout" name="layout">${option('layers', 'layers by kind')}${option('rings', 'rings by kind')}${option('force', 'force-directed (clusters)')}</select></div>
<div class="buttons">
<button type="button" data-action="zoom-in">Zoom in</button>
<button type="button" data-action="zoom-out">Zoom out</button>
<button type="button" data-action="fit">Fit</button>
<button type="button" data-action="reset">Reset all</button>
</div>
</fieldset>
<details class="explore-more" id="explore-more" open>
<summary>Kinds, relations and filters</summary>
<div class="explore-grid">
<fieldset>
<legend>Kinds</legend>
<ul>
${kindToggles}</ul>
</fieldset>
<fieldset>
<legend>Relations</legend>
<ul>
${relationToggles}</ul>
</fieldset>
<fieldset>
<legend>Filters</legend>
<div class="field"><label for="explore-actor">Mechanism actor</label>
<select id="explore-actor" name="actor">${option('', 'any actor')}${ACTORS.map((a) => option(a))}</select></div>
<div class="field"><label for="explore-evidence">Evidence level</label>
<select id="explore-evidence" name="evidence">${option('', 'any evidence level')}${EVIDENCE_LEVELS.map((e) => option(e))}</select></div>
<div class="field"><label for="explore-stage">Stage</label>
<select id="explore-stage" name="stage">${option('', 'any stage')}${STAGES.map((s) => option(s))}</select></div>
<div class="field"><label class="check"><input type="checkbox" name="connected"> Hide things left with no connection</label></div>
<p class="muted">A filter narrows only the kinds that carry it: the actor, mechanisms; the evidence level, mechanisms, patterns, loops and interventions; the stage, observations, barriers and the mechanisms acting at those barriers. Other kinds stay.</p>
</fieldset>
</div>
</details>
</form>
<div id="explore-canvas" class="explore-canvas" role="img" aria-label="Drawing of the graph. The same nodes and connections are listed below it."></div>
<p id="explore-status" role="status">Loading the graph…</p>
<div id="explore-focus-panel" class="panel explore-focus" hidden></div>
<div class="explore-list">
<h3>What the drawing shows, as a list</h3>
<p>Open a list to see it; it follows the controls above.</p>
<details id="explore-nodes">
<summary>Nodes shown</summary>
<div class="table-wrap"><table>
<caption>Nodes shown</caption>
<thead><tr><th scope="col">ID</th><th scope="col">Title</th><th scope="col">Kind</th><th scope="col">Connections shown</th></tr></thead>
<tbody></tbody>
</table></div>
</details>
<details id="explore-edges">
<summary>Connections shown</summary>
<div class="table-wrap"><table>
<caption>Connections shown</caption>
<thead><tr><th scope="col">From</th><th scope="col">Relation</th><th scope="col">To</th></tr></thead>
<tbody></tbody>
</table></div>
</details>
</div>
</section>

<h2>What the graph holds</h2>
<ul class="legend-list">
${legend}</ul>
<details>
<summary>What each relation means</summary>
<dl class="relations">
${relations}</dl>
</details>
<p>More on how to read it: <a href="${SITE.methodology}">the method</a>.</p>`,
  });
}
