// The analysis shown on observation and scenario pages: explain's result (the HOBA protocol, computed at
// build time by the same function the CLI runs), rendered as the CLI reads it: the first tier (what can
// produce the observation), the second tier collapsed, what was ruled out or excluded, the verdict.
import { compareIds, type Registry } from '../../registry/registry.ts';
import type { CompatibleMechanism, ExplainResult } from '../../analysis/schemas.ts';
import { html, joined, type Raw } from '../html.ts';
import { plainWho } from '../../model/plain.ts';
import { entityPath } from '../paths.ts';
import { evidenceBadge, linked, refLink, tag, type Meanings } from './entity-parts.ts';

/** One first-tier mechanism: its link, why it is listed, and its fidelity, evidence and removability as labelled tags. */
function firstTierItem(m: CompatibleMechanism, meanings: Meanings): Raw {
  const fidelities = [...new Set(m.compatible_because.emits.map((e) => e.fidelity))];
  return html`<li class="mech" data-id="${m.id}">
<p class="mech-head">${refLink({ id: m.id, kind: 'mechanism', title: m.title, status: 'active' })}${m.honest_baseline && !/honest baseline/i.test(m.title) ? html` <span class="tag">honest baseline</span>` : ''}</p>
<p>${m.why}</p>
<p class="tags">${fidelities.map((f) => tag('fidelity', f, meanings.of('fidelity', f)))}${evidenceBadge(m.evidence_level, meanings.of('evidence', m.evidence_level))} ${tag(
    'removable by',
    m.facets.removability,
    plainWho(m),
  )}</p>
</li>
`;
}

/** The tiers of an explain result: first tier in full, second tier collapsed, then what left and why. */
export function tiersOf(reg: Registry, result: ExplainResult, meanings: Meanings, headingLevel: 'h2' | 'h3' = 'h3'): Raw {
  const first = result.behind.mechanisms.filter((m) => m.tier === 'produces');
  const second = result.behind.mechanisms.filter((m) => m.tier === 'same-stage');
  const h = (text: string, id: string) => (headingLevel === 'h2' ? html`<h2 id="${id}">${text}</h2>` : html`<h3 id="${id}">${text}</h3>`);
  return html`<p class="note"><strong>Compatible, not proven.</strong> ${result.notice}</p>
${h(`First tier: can produce what was observed (${first.length})`, 'first-tier')}
${
  first.length > 0
    ? html`<div class="tier-produces"><ol class="tier first-tier">
${first.map((m) => firstTierItem(m, meanings))}</ol></div>`
    : html`<p>None remains.</p>`
}
${
  second.length > 0
    ? html`<details class="second-tier tier-same-stage"><summary>Second tier: ${second.length} ${second.length === 1 ? 'mechanism acts' : 'mechanisms act'} at the same stage without producing what was observed</summary>
<p class="muted">They act at the gates where this happens, but the atlas does not record them as producing this observation. Listed by ID; nothing is dropped.</p>
<ul class="refs cols">
${second.map((m) => html`<li>${refLink({ id: m.id, kind: 'mechanism', title: m.title, status: 'active' })}${m.honest_baseline && !/honest baseline/i.test(m.title) ? html` <span class="tag">honest baseline</span>` : ''}</li>\n`)}</ul>
</details>`
    : ''
}
${
  result.behind.ruled_out.length > 0
    ? html`${h('Ruled out by the observation itself', 'ruled-out')}
<ul class="refs">
${result.behind.ruled_out.map((r) => html`<li><a href="${entityPath(r.id)}"><span class="id">${r.id}</span> ${r.title}</a>: ${linked(reg, r.reason)}</li>\n`)}</ul>`
    : ''
}
${
  result.behind.excluded.length > 0
    ? html`${h('Excluded by the probe outcomes reported', 'excluded')}
<ul class="refs">
${result.behind.excluded.map((x) => html`<li><a href="${entityPath(x.id)}"><span class="id">${x.id}</span> ${x.title}</a>, by ${joined(x.by.map((b) => `${b.probe} → ${b.outcome}`))}</li>\n`)}</ul>`
    : ''
}`;
}

/** The verdict, with its details, as a panel; the probes it names link to their place on the observation's page. */
export function verdictOf(reg: Registry, result: ExplainResult): Raw {
  const v = result.agency.verdict;
  // The given artifacts and their successors, in ID order (read from them, not from a scan of the atlas:
  // the site renders this once per artifact page).
  const ids = new Set([...result.input.artifacts, ...result.hard_facts.artifacts.flatMap((h) => (h.successor ? [h.successor.id] : []))]);
  const probes = new Map(
    [...ids]
      .sort(compareIds)
      .flatMap((id) => reg.getOf('artifact', id) ?? [])
      .flatMap((a) => a.probes.map((p) => [p.id, `${entityPath(a.id)}#probe-${p.id}`] as const)),
  );
  return html`<div class="panel verdict">
<p><strong>${linked(reg, v.text, probes)}</strong></p>
${v.details.length > 0 ? html`<ul>${v.details.map((d) => html`<li>${linked(reg, d, probes)}</li>\n`)}</ul>` : ''}
</div>`;
}
