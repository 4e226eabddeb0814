// The page of a mechanism: its facets and evidence, what each party sees, reads and does while it
// operates, what it emits (with fidelity), what it amplifies and masks, where it acts, what rules it out,
// the interventions that target it, the law and the sources.
import type { EntityOfKind, Registry } from '../../registry/registry.ts';
import { findInterventions } from '../../analysis/interventions.ts';
import { rulingOut } from '../../analysis/node.ts';
import type { NodeView } from '../../analysis/schemas.ts';
import { html, joined, type Raw } from '../html.ts';
import { entityPath } from '../paths.ts';
import {
  citationList,
  entityLink,
  entityList,
  evidenceBadge,
  lawSection,
  linked,
  prose,
  refLink,
  section,
  stageLabel,
  tag,
  type Meanings,
} from './entity-parts.ts';

type Mechanism = EntityOfKind<'mechanism'>;

const VIEWPOINT_LABELS: Record<string, string> = {
  candidate: 'The candidate',
  recruiter: 'The recruiter',
  'hiring-manager': 'The hiring manager',
  system: 'The system (software)',
  intermediary: 'An intermediary',
  employer: 'The employer (policy)',
};

const FACETS = ['actor', 'nature', 'visibility', 'removability'] as const;
const FACET_QUESTIONS: Record<(typeof FACETS)[number], string> = {
  actor: 'Who or what drives it',
  nature: 'What kind of process it is',
  visibility: 'Can you see it operate?',
  removability: 'Who can remove it',
};

/** Relations of the node of one label, as links. */
const related = (node: NodeView, relation: string, direction: 'out' | 'in') =>
  node.relations.filter((r) => r.relation === relation && r.direction === direction).map((r) => r.node);

export function mechanismMain(reg: Registry, m: Mechanism, node: NodeView, meanings: Meanings): Raw {
  const interventions = findInterventions(reg, [m.id]).interventions;
  const ruledOutBy = rulingOut(reg, m.id);
  const interactions = (
    [
      ['amplifies', 'out', 'It makes these stronger or more likely'],
      ['amplifies', 'in', 'Made stronger or more likely by'],
      ['masks', 'out', 'It hides these from the candidate'],
      ['masks', 'in', 'Hidden from the candidate by'],
    ] as const
  )
    .map(([relation, direction, label]) => ({ label, refs: related(node, relation, direction) }))
    .filter((g) => g.refs.length > 0);
  const patterns = related(node, 'instantiates', 'out');
  const loops = related(node, 'member_of', 'out');

  return html`<p class="tags">${m.honest_baseline ? html`<span class="tag"><strong>honest baseline</strong>: an ordinary explanation that stays on the table</span>` : ''}${evidenceBadge(m.evidence_level, meanings.of('evidence', m.evidence_level))} ${tag('family', m.family)}${m.topics.map((t) => tag('topic', t))}</p>
<aside class="note" aria-label="How to read this">
<p><strong>Compatible is not proven.</strong> Seeing something this mechanism can produce does not show that it was at work: every observation it emits can also come from other mechanisms, honest ones included. The atlas says what fits the facts, never how likely it is.</p>
</aside>
${section(
  'facets',
  'In short',
  html`<dl class="kv">
${FACETS.map(
  (f) =>
    html`<dt>${FACET_QUESTIONS[f]} <span class="muted small">(${f})</span></dt><dd><strong>${m.facets[f]}</strong>: ${meanings.of(f, m.facets[f]) ?? ''}</dd>\n`,
)}<dt>How well it is evidenced <span class="muted small">(evidence level)</span></dt><dd><strong>${m.evidence_level}</strong>: ${meanings.of('evidence', m.evidence_level) ?? ''}</dd>
</dl>`,
)}
${section('about', 'About this mechanism', m.description ? prose(reg, m.description) : undefined)}
${section(
  'emits',
  'What a candidate may see',
  html`<ul class="refs">
${m.emits.map(
  (e) =>
    html`<li>${entityLink(reg, e.artifact)} <span class="tag fidelity" title="${meanings.of('fidelity', e.fidelity) ?? ''}">fidelity: ${e.fidelity}</span>${e.note ? html`<br>${linked(reg, e.note)}` : ''}</li>\n`,
)}</ul>`,
  'The observations this mechanism can produce, with how faithfully each reflects it (fidelity).',
)}
${section(
  'operates-at',
  'Where it acts',
  entityList(reg, m.operates_at, (id) => {
    const b = reg.getOf('barrier', id);
    return b ? html` <span class="muted">(stage: ${stageLabel(b.stage)})</span>` : undefined;
  }),
)}
${section(
  'interactions',
  'How it interacts with other mechanisms',
  interactions.length > 0
    ? joined(
        interactions.map((g) => html`<h3>${g.label}</h3>\n<ul class="refs">${g.refs.map((r) => html`<li>${refLink(r)}</li>`)}</ul>\n`),
        '',
      )
    : undefined,
)}
${section(
  'perspectives',
  'Who sees what',
  m.perspectives.length > 0
    ? html`<div class="cards">
${m.perspectives.map(
  (p) => html`<section class="card perspective" aria-labelledby="view-${p.viewpoint}">
<h3 id="view-${p.viewpoint}">${VIEWPOINT_LABELS[p.viewpoint] ?? p.viewpoint}</h3>
<dl>
<dt>Sees</dt><dd>${linked(reg, p.sees)}</dd>
<dt>Reads it as</dt><dd>${linked(reg, p.reads)}</dd>
<dt>Does</dt><dd>${linked(reg, p.does)}</dd>
</dl>
</section>
`,
)}</div>`
    : undefined,
  'While this mechanism operates, each party sees something different, reads it in its own way, and acts on that reading.',
)}
${section(
  'ruled-out-by',
  'What can rule it out',
  node.ruled_out_by.length + ruledOutBy.length > 0
    ? html`<ul class="refs">
${node.ruled_out_by.map(
  (x) =>
    html`<li>Probe <a href="${entityPath(x.artifact.id)}#probe-${x.probe}"><code>${x.probe}</code></a> of ${refLink(x.artifact)}, when the outcome is: “${linked(reg, x.observation)}”</li>\n`,
)}${ruledOutBy.map((r) => html`<li>Observing ${entityLink(reg, r.artifact.id)}: ${linked(reg, r.reason)}</li>\n`)}</ul>`
    : html`<p>No probe outcome or observation in the atlas rules it out.</p>`,
  'A mechanism leaves an explanation only for a recorded reason: a probe outcome that excludes it, or an observation that rules it out.',
)}
${section(
  'patterns-loops',
  'Patterns and loops',
  patterns.length + loops.length > 0
    ? html`${patterns.length > 0 ? html`<h3>Patterns it is compatible with</h3>\n<ul class="refs">${patterns.map((r) => html`<li>${refLink(r)}</li>`)}</ul>\n` : ''}${
        loops.length > 0
          ? html`<h3>Loops it belongs to</h3>\n<ul class="refs">${loops.map((r) => html`<li>${refLink(r)}</li>`)}</ul>\n`
          : ''
      }`
    : undefined,
)}
${section(
  'interventions',
  'What could change it',
  interventions.length > 0
    ? html`<ul class="refs">
${interventions.map(
  (i) =>
    html`<li><a href="${entityPath(i.id)}"><span class="id">${i.id}</span> ${i.title}</a> ${tag('by', i.actor, meanings.of('intervention-actor', i.actor))}${(() => {
      const effect = reg.getOf('intervention', i.id)?.effect.level;
      return effect ? evidenceBadge(effect, meanings.of('effect', effect), 'does it work') : '';
    })()}${i.via.some((v) => v.node.id !== m.id) ? html`<br><span class="muted">Through ${joined(i.via.filter((v) => v.node.id !== m.id).map((v) => html`${v.relation} ${refLink(v.node)}`))}</span>` : ''}</li>\n`,
)}</ul>`
    : undefined,
  'Changes a system actor can make. Whether a change works is rated on its own, apart from the evidence for this mechanism.',
)}
${lawSection(reg, m.law)}
${section('sources', 'Sources', citationList(node.citations))}`;
}
