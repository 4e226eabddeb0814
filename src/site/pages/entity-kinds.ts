// The pages of patterns, loops, interventions, barriers, scenarios and sources (observations and
// mechanisms have their own modules). Each shows the sections its kind needs; every cross-reference links
// to the entity's page.
import type { EntityOfKind, Registry } from '../../registry/registry.ts';
import { explain } from '../../analysis/explain.ts';
import { findInterventions } from '../../analysis/interventions.ts';
import { AnalysisError, perRegistry, pushTo } from '../../analysis/resolve.ts';
import { LISTED_MAX } from '../../analysis/terms.ts';
import type { Stage } from '../../model/vocab.ts';
import { sourceTitle, sourceVerifiedHow } from '../../model/source.ts';
import { inputOf } from '../../analysis/scenario-input.ts';
import type { NodeView } from '../../analysis/schemas.ts';
import { html, joined, type Raw } from '../html.ts';
import { loopDiagram, patternDiagram, patternDiagramTall, type DiagramNode } from '../diagram.ts';
import { browsePath, entityPath, SITE } from '../paths.ts';
import { candidateHtml } from '../browser/lib/candidate-view.ts';
import { tiersOf, verdictOf } from './entity-analysis.ts';
import {
  citationList,
  entityLink,
  entityList,
  evidenceBadge,
  inlineSources,
  lawSection,
  linked,
  prose,
  refLink,
  section,
  stageLabel,
  tag,
  titleOf,
  type Meanings,
} from './entity-parts.ts';

const diagramNode = (reg: Registry, id: string): DiagramNode => {
  const e = reg.get(id);
  return { id, title: e ? titleOf(e) : id, href: entityPath(id) };
};

/** Interventions that target or mitigate an entity, with who makes them and whether they work. */
function interventionsOf(reg: Registry, id: string, meanings: Meanings): Raw | undefined {
  const found = findInterventions(reg, [id]).interventions;
  if (found.length === 0) return undefined;
  return html`<ul class="refs">
${found.map((i) => {
  const effect = reg.getOf('intervention', i.id)?.effect.level;
  return html`<li><a href="${entityPath(i.id)}"><span class="id">${i.id}</span> ${i.title}</a> ${tag('by', i.actor, meanings.of('intervention-actor', i.actor))}${
    effect ? evidenceBadge(effect, meanings.of('effect', effect), 'does it work') : ''
  }</li>\n`;
})}</ul>`;
}

/** A drawn diagram in a figure that scrolls inside itself on a narrow screen (focusable, so a keyboard can scroll it). */
const diagramBox = (id: string, caption: string, svg: Raw) =>
  html`<figure class="diagram" tabindex="0" aria-labelledby="${id}-caption">${svg}<figcaption id="${id}-caption">${caption}</figcaption></figure>`;

// ── pattern ──────────────────────────────────────────────────────────────────────────────────────────

export function patternMain(reg: Registry, p: EntityOfKind<'pattern'>, node: NodeView, meanings: Meanings): Raw {
  const motif = [
    diagramNode(reg, p.id),
    p.required_artifacts.map((id) => diagramNode(reg, id)),
    p.compatible_mechanisms.map((id) => diagramNode(reg, id)),
  ] as const;
  // Two drawings of the same motif: wide for a desktop, tall for a phone; CSS shows one (the other is not rendered, so not read twice).
  const svg = html`<div class="diagram-wide">${patternDiagram(...motif)}</div><div class="diagram-tall">${patternDiagramTall(...motif)}</div>`;
  // Which compatible mechanism produces which required observation (the emits edges), as a table.
  const fidelity = (m: string, a: string) => reg.getOf('mechanism', m)?.emits.find((e) => e.artifact === a)?.fidelity;
  const matrix = html`<div class="table-wrap" role="region" aria-label="Which mechanism produces which observation" tabindex="0"><table>
<caption>Which compatible mechanism can produce which of the observations, with its fidelity (— where the atlas does not record it as producing that observation)</caption>
<thead><tr><th scope="col">Mechanism</th>${p.required_artifacts.map((a) => html`<th scope="col"><a href="${entityPath(a)}">${a}</a></th>`)}</tr></thead>
<tbody>
${p.compatible_mechanisms.map(
  (m) =>
    html`<tr><th scope="row">${entityLink(reg, m)}</th>${p.required_artifacts.map((a) => html`<td>${fidelity(m, a) ?? '—'}</td>`)}</tr>\n`,
)}</tbody>
</table></div>`;
  return html`<p class="tags">${tag('shape', p.shape)}${evidenceBadge(p.evidence_level, meanings.of('evidence', p.evidence_level))}</p>
<aside class="note not-established" aria-labelledby="not-established">
<h2 id="not-established">What this does not establish</h2>
<ul>
${p.non_inferences.map((t) => html`<li>${linked(reg, t)}</li>\n`)}</ul>
</aside>
${section('establishes', 'What it does establish', html`<ul>${p.establishes.map((t) => html`<li>${linked(reg, t)}</li>\n`)}</ul>`)}
${section('trigger', 'When it applies', html`<p>${linked(reg, p.trigger_rule)}</p>`)}
${section(
  'motif',
  'The motif',
  html`${diagramBox('motif', `The motif of ${p.id}: the observations seen together lead to the pattern, which is compatible with each of the mechanisms. Each box links to its page; the same facts follow in words.`, svg)}
<h3 id="motif-text">The same, in words</h3>
<p>Seen together: ${joined(
    p.required_artifacts.map((id) => entityLink(reg, id)),
    ' and ',
  )}.</p>
<p>Compatible with it (compatible, not proven):</p>
${entityList(reg, p.compatible_mechanisms)}
${matrix}`,
)}
${section('about', 'About this pattern', p.description ? prose(reg, p.description) : undefined)}
${section('interventions', 'What could weaken it', interventionsOf(reg, p.id, meanings))}
${section('sources', 'Sources', citationList(node.citations))}`;
}

// ── loop ─────────────────────────────────────────────────────────────────────────────────────────────

export function loopMain(reg: Registry, l: EntityOfKind<'loop'>, node: NodeView, meanings: Meanings): Raw {
  const svg = loopDiagram(
    diagramNode(reg, l.id),
    l.mechanisms.map((id) => diagramNode(reg, id)),
    l.edges,
  );
  return html`<p class="tags">${evidenceBadge(l.evidence_level, meanings.of('evidence', l.evidence_level))}</p>
<aside class="note" aria-label="How to read this">
<p><strong>A loop is a cycle the atlas describes, not a diagnosis.</strong> Being caught in one of its mechanisms does not show that the others are at work.</p>
</aside>
${section(
  'cycle',
  'The cycle',
  html`${diagramBox('cycle', `The cycle of ${l.id}: a solid arrow amplifies (makes the next stronger or more likely), a dashed arrow masks (hides the next from the candidate); each arrow carries its word. The same facts follow in words.`, svg)}
<h3 id="cycle-text">The same, in words</h3>
<ul class="refs">
${l.edges.map((e) => html`<li>${entityLink(reg, e.from)} <strong>${e.relation}</strong> ${entityLink(reg, e.to)}</li>\n`)}</ul>
<p>Where it can start (entry points): ${joined(
    l.entry_points.map((id) => entityLink(reg, id)),
    '; ',
  )}.</p>
`,
)}
${section('members', 'Mechanisms in the loop', entityList(reg, l.mechanisms))}
${section('about', 'About this loop', l.description ? prose(reg, l.description) : undefined)}
${section('interventions', 'What could break it', interventionsOf(reg, l.id, meanings))}
${section('sources', 'Sources', citationList(node.citations))}`;
}

// ── intervention ─────────────────────────────────────────────────────────────────────────────────────

export function interventionMain(reg: Registry, i: EntityOfKind<'intervention'>, node: NodeView, meanings: Meanings): Raw {
  return html`<p class="tags">${tag('by', i.actor, meanings.of('intervention-actor', i.actor))}${tag('scope', i.scope)}${tag('cost', i.cost)}${i.topics.map((t) => tag('topic', t))}</p>
${section(
  'evidence',
  'How well it is evidenced',
  html`<h3>Does the change work?</h3>
<p>${evidenceBadge(i.effect.level, undefined, 'effect')} ${meanings.of('effect', i.effect.level) ?? ''}</p>
<p>${linked(reg, i.effect.summary)}${inlineSources(reg, i.effect.sources, i.effect.summary)}</p>
<h3>How well is the problem it targets evidenced?</h3>
<p>${evidenceBadge(i.evidence_level)} ${meanings.of('evidence', i.evidence_level) ?? ''}</p>`,
  'Two separate questions: whether the change works, and how well the problem it addresses is evidenced.',
)}
${section(
  'targets',
  'What it changes',
  html`${entityList(reg, i.targets)}${i.mitigates.length > 0 ? html`<h3>Weakens</h3>\n${entityList(reg, i.mitigates)}` : ''}`,
)}
${section('effects', 'What should change', html`<ul>${i.expected_effects.map((t) => html`<li>${linked(reg, t)}</li>\n`)}</ul>`)}
${section('measurements', 'How to tell whether it worked', html`<ul>${i.measurements.map((t) => html`<li>${linked(reg, t)}</li>\n`)}</ul>`)}
${section('tradeoffs', 'Trade-offs and risks', i.tradeoffs.length > 0 ? html`<ul>${i.tradeoffs.map((t) => html`<li>${linked(reg, t)}</li>\n`)}</ul>` : undefined)}
${section('about', 'About this intervention', i.description ? prose(reg, i.description) : undefined)}
${lawSection(reg, i.law)}
${section('sources', 'Sources', citationList(node.citations))}`;
}

// ── barrier ──────────────────────────────────────────────────────────────────────────────────────────

/** The active artifacts of each stage, in ID order: every barrier page of a stage lists them. */
const activeArtifactsAt = perRegistry((reg) => {
  const byStage = new Map<Stage, string[]>();
  for (const a of reg.all('artifact')) if (a.status === 'active') for (const s of a.stages) pushTo(byStage, s, a.id);
  return byStage;
});

export function barrierMain(reg: Registry, b: EntityOfKind<'barrier'>, node: NodeView, meanings: Meanings): Raw {
  const before = node.relations.filter((r) => r.relation === 'precedes' && r.direction === 'in').map((r) => r.node.id);
  const after = b.precedes;
  const operating = node.relations.filter((r) => r.relation === 'operates_at' && r.direction === 'in').map((r) => r.node.id);
  // At most LISTED_MAX of them, as the analysis lists a stage's barriers: the rest are on the browse page.
  const seen = activeArtifactsAt(reg).get(b.stage) ?? [];
  const observations = entityList(reg, seen.slice(0, LISTED_MAX));
  const moreSeen =
    seen.length > LISTED_MAX
      ? html`<p>And ${String(seen.length - LISTED_MAX)} more: <a href="${browsePath('artifact')}?stage=${b.stage}">every observation at this stage</a>.</p>\n`
      : '';
  return html`<p class="tags">${tag('stage', stageLabel(b.stage), meanings.of('stage', b.stage))}${tag('order in the funnel', String(b.order))}</p>
${section('pass', 'What it takes to get past', html`<p>${linked(reg, b.pass_condition)}</p>`)}
${section(
  'funnel',
  'Where it sits in the funnel',
  html`<h3>Comes after</h3>
${before.length > 0 ? entityList(reg, before) : html`<p>Nothing: it is where the funnel starts.</p>`}
<h3>Leads to</h3>
${after.length > 0 ? entityList(reg, after) : html`<p>Nothing: it is where the funnel ends.</p>`}`,
)}
${section(
  'variants',
  'Where it differs',
  b.variants.length > 0
    ? html`<ul>${b.variants.map((v) => html`<li><strong>${v.applies_to}:</strong> ${linked(reg, v.differs)}${inlineSources(reg, v.sources, v.differs)}</li>\n`)}</ul>`
    : undefined,
)}
${section('about', 'About this barrier', b.description ? prose(reg, b.description) : undefined)}
${section('mechanisms', 'Mechanisms acting here', entityList(reg, operating), 'What can make this gate reject, stall or misclassify someone. Compatible, not proven.')}
${section('observations', 'What candidates may see at this stage', observations && html`${observations}${moreSeen}`)}
${section('interventions', 'What could change it', interventionsOf(reg, b.id, meanings))}
${lawSection(reg, b.law)}
${section('sources', 'Sources', citationList(node.citations))}`;
}

// ── scenario ─────────────────────────────────────────────────────────────────────────────────────────

export function scenarioMain(reg: Registry, s: EntityOfKind<'scenario'>, node: NodeView, meanings: Meanings): Raw {
  const { input } = s;
  let analysis: Raw;
  let plain: Raw;
  try {
    const result = explain(reg, inputOf(s));
    plain = candidateHtml(result, { interactive: false, datesForm: false, datesHref: `${SITE.analyze}#scenario=${s.id}`, level: 2 });
    const patterns = result.behind.patterns.filter((pt) => pt.match === 'triggered');
    analysis = html`${verdictOf(reg, result)}
${tiersOf(reg, result, meanings)}
${
  patterns.length > 0
    ? html`<h3 id="patterns">The pattern these observations form</h3>\n${entityList(
        reg,
        patterns.map((p) => p.id),
      )}`
    : ''
}
<h3 id="probes">What would tell them apart</h3>
${
  result.agency.probes.length > 0
    ? html`<ul class="refs">${result.agency.probes.map(
        (p) =>
          html`<li><a href="${entityPath(p.artifact.id)}#probe-${p.id}"><code>${p.id}</code></a> (${p.agency === 'candidate' ? 'you can run it' : 'needs someone inside the process'}, ${p.cost} cost): ${linked(reg, p.action)}</li>\n`,
      )}</ul>`
    : html`<p>No probe of these observations can narrow what remains.</p>`
}
<h3 id="not-established">What this does not establish</h3>
<ul>${result.behind.non_inferences.map((t) => html`<li>${linked(reg, t.text)}</li>\n`)}</ul>`;
  } catch (error) {
    if (!(error instanceof AnalysisError)) throw error;
    analysis = html`<p>The analysis cannot run on this scenario: ${error.message}</p>`;
    plain = analysis;
  }
  return html`${section('situation', 'In the candidate’s words', html`<blockquote class="situation"><p>${s.situation}</p></blockquote>`)}
${plain}
<details class="cv-full" id="full">
<summary>Everything the atlas holds on this: what it maps to, every explanation, each check and what it tells</summary>
${section(
  'maps-to',
  'What it maps to',
  html`<ul class="refs">
${input.artifacts.map((id) => html`<li>Observed: ${entityLink(reg, id)}</li>\n`)}${input.stage ? html`<li>Stage: ${stageLabel(input.stage)}</li>\n` : ''}${input.probes.map(
  (p) => html`<li>Probe already run: <code>${p.probe}</code>, outcome <code>${p.outcome}</code></li>\n`,
)}</ul>
<p>In the analyser you can record probe outcomes and watch the set narrow.</p>
<p><a class="button" href="${SITE.analyze}#scenario=${s.id}">Open this scenario in the analyser</a></p>`,
)}
${section('analysis', 'What the atlas makes of it', analysis)}
</details>
${section('about', 'About this scenario', s.description ? prose(reg, s.description) : undefined)}
<p class="muted">This scenario is also a regression test: the atlas’s checks fail when an edit changes its analysis without its expectation. Run it yourself: <code>hoba explain --scenario ${s.id}</code>.</p>
${section('sources', 'Sources', citationList(node.citations))}`;
}

// ── source ───────────────────────────────────────────────────────────────────────────────────────────

export function sourceMain(reg: Registry, s: EntityOfKind<'source'>, node: NodeView): Raw {
  const citedBy = node.relations.filter((r) => r.relation === 'cites' && r.direction === 'in').map((r) => r.node);
  return html`<p class="muted">The finding above is the atlas’s paraphrase; read the original before relying on it. Topics: ${s.relevant_to.join(', ')}.</p>
${section(
  'citation',
  'Citation',
  html`<p class="citation">${s.authors.join(', ')} (${s.year ?? 'undated'}). <cite>${sourceTitle(s)}</cite>.${s.venue ? ` ${s.venue}.` : ''}</p>
<p>${s.doi ? html`DOI: <a href="https://doi.org/${s.doi}">${s.doi}</a>. ` : ''}Original: <a href="${s.url}" rel="external">${s.url}</a></p>`,
)}
${section(
  'facts',
  'What kind of evidence',
  html`<dl class="kv">
<dt>Status</dt><dd><strong>${s.status}</strong>${s.superseded_by ? html`, superseded by ${entityLink(reg, s.superseded_by)}` : ''}</dd>
<dt>Type</dt><dd>${s.type}</dd>
<dt>Design</dt><dd>${linked(reg, s.design)}</dd>
<dt>Peer reviewed</dt><dd>${s.peer_reviewed ? 'yes' : 'no'}</dd>
${s.n ? html`<dt>Sample or scope</dt><dd>${linked(reg, s.n)}</dd>\n` : ''}<dt>Verified</dt><dd>${s.verified}: ${linked(reg, sourceVerifiedHow(s))}</dd>
</dl>`,
)}
${section(
  'cited-by',
  'What cites it',
  citedBy.length > 0
    ? html`<ul class="refs">${citedBy.map((r) => html`<li>${refLink(r)}</li>\n`)}</ul>`
    : html`<p>Nothing in this version of the atlas cites it.</p>`,
)}`;
}
