// The page of an observation (artifact): what it is and what it does NOT establish, where it occurs, the
// mechanisms that can produce it (explain's tiers), the probes that tell them apart, what the candidate
// can still do, illustrative specimens, the law, and what it relates to.
import type { EntityOfKind, Registry } from '../../registry/registry.ts';
import type { Probe, Specimen } from '../../model/schemas.ts';
import { explain } from '../../analysis/explain.ts';
import { citationsOf } from '../../analysis/node.ts';
import { escapeHtml, html, joined, Raw } from '../html.ts';
import { entityPath, SITE } from '../paths.ts';
import { tiersOf, verdictOf } from './entity-analysis.ts';
import {
  citationList,
  entityLink,
  entityList,
  inlineSources,
  lawSection,
  linked,
  prose,
  section,
  stageLabel,
  type Meanings,
} from './entity-parts.ts';

type Artifact = EntityOfKind<'artifact'>;

const AGENCY_WORDS: Record<Probe['agency'], string> = {
  candidate: 'You can run it yourself',
  intermediary: 'Needs someone inside the process (a referrer, a contact, the recruiter)',
};

function probeItem(reg: Registry, p: Probe): Raw {
  return html`<li id="probe-${p.id}" class="probe">
<p><strong>${linked(reg, p.action)}</strong></p>
<p class="muted">${AGENCY_WORDS[p.agency]}. Cost: ${p.cost}.${p.risk ? html` Risk: ${linked(reg, p.risk)}` : ''} <span class="probe-id">Probe <code>${p.id}</code></span></p>
<ul class="outcomes">
${p.outcomes.map(
  (o) => html`<li><p><strong>Outcome:</strong> ${linked(reg, o.observation)}</p>
<p>${
    o.excludes.length > 0
      ? html`<strong>Rules out:</strong> ${joined(o.excludes.map((id) => entityLink(reg, id)))}.`
      : html`<strong>Rules out nothing.</strong>`
  }${o.note ? html` ${linked(reg, o.note)}` : ''}</p></li>
`,
)}</ul>
</li>
`;
}

/**
 * A specimen as a quoted document, its tell-tale lines marked with <mark> and a visible numbered label
 * (never colour alone), then what each tell signals. Quotes are matched across line breaks.
 */
function specimenFigure(reg: Registry, s: Specimen): Raw {
  const text = s.text;
  const found: Array<{ start: number; end: number; n: number }> = [];
  s.tells.forEach((t, i) => {
    const pattern = t.quote
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+');
    const m = new RegExp(pattern).exec(text);
    if (m && !found.some((f) => m.index < f.end && m.index + m[0].length > f.start))
      found.push({ start: m.index, end: m.index + m[0].length, n: i + 1 });
  });
  found.sort((a, b) => a.start - b.start);
  let body = '';
  let last = 0;
  for (const f of found) {
    body += escapeHtml(text.slice(last, f.start));
    body += `<mark class="tell">${escapeHtml(text.slice(f.start, f.end))}</mark><span class="tell-label" aria-hidden="true">[tell ${f.n}]</span><span class="visually-hidden"> (tell ${f.n})</span>`;
    last = f.end;
  }
  body += escapeHtml(text.slice(last));
  const id = `specimen-${s.id}`;
  return html`<figure class="specimen-figure" id="${id}" aria-labelledby="${id}-caption">
<figcaption id="${id}-caption"><span class="specimen-label">Illustrative, anonymised: not a real employer’s text.</span><br><strong>${s.title}</strong> <span class="muted">(${s.medium})</span></figcaption>
<blockquote class="specimen">${new Raw(body)}</blockquote>
<ol class="tells">
${s.tells.map((t, i) => html`<li value="${i + 1}"><strong>Tell ${i + 1}:</strong> “${t.quote}”. ${linked(reg, t.reading)}</li>\n`)}</ol>
</figure>`;
}

export function artifactMain(reg: Registry, a: Artifact, meanings: Meanings): Raw {
  const result = explain(reg, { artifacts: [a.id] });
  const barriers = result.obstacle.barriers;
  const stages = a.stages.map((s) => ({ stage: s, barriers: barriers.filter((b) => b.stage === s) }));
  const patterns = reg.outgoing(a.id, 'instantiates').map((e) => e.target);
  const scenarios = reg.incoming(a.id, 'observes').map((e) => e.source);
  // Loops that a mechanism producing the observation (the first tier) belongs to.
  const first = new Set(result.behind.mechanisms.filter((m) => m.tier === 'produces').map((m) => m.id));
  const loops = result.behind.loops.filter((l) => l.mechanisms.some((m) => first.has(m))).map((l) => l.id);
  const related =
    patterns.length + scenarios.length + loops.length > 0
      ? html`${patterns.length > 0 ? html`<h3>Patterns it is part of</h3>\n${entityList(reg, patterns)}` : ''}
${loops.length > 0 ? html`<h3>Loops that a mechanism producing it belongs to</h3>\n${entityList(reg, loops)}` : ''}
${scenarios.length > 0 ? html`<h3>Worked scenarios with this observation</h3>\n${entityList(reg, scenarios)}` : ''}`
      : undefined;

  return html`<aside class="note not-established" aria-labelledby="not-established">
<h2 id="not-established">What this does not establish</h2>
<ul>
${a.non_inferences.map((t) => html`<li>${linked(reg, t)}</li>\n`)}</ul>
</aside>
<p><a class="button" href="${SITE.analyze}#a=${a.id}">Analyse this with other things you observed</a></p>
${section('about', 'About this observation', a.description ? prose(reg, a.description) : undefined)}
${section(
  'specimens',
  'What it can look like',
  a.specimens.length > 0
    ? joined(
        a.specimens.map((s) => specimenFigure(reg, s)),
        '',
      )
    : undefined,
  'Examples written for the atlas, with the lines that matter marked. They are composites, not quotations.',
)}
${section(
  'where',
  'Where it occurs',
  html`<ul class="refs">
${stages.map(
  (s) =>
    html`<li><strong>${stageLabel(s.stage)}</strong> <span class="muted">(${s.stage})</span>${
      s.barriers.length > 0
        ? html`: ${joined(
            s.barriers.map((b) => html`<a href="${entityPath(b.id)}"><span class="id">${b.id}</span> ${b.title}</a>`),
            '; ',
          )}`
        : ''
    }</li>\n`,
)}</ul>`,
)}
${section('mechanisms', 'What can produce it', tiersOf(reg, result, meanings))}
${section(
  'probes',
  'What would tell the explanations apart',
  html`<p>If this is all you have seen, the atlas says:</p>
${verdictOf(reg, result)}
<ol class="probes">
${a.probes.map((p) => probeItem(reg, p))}</ol>`,
  'Probes narrow the set only through what each outcome rules out. An outcome that rules nothing out still tells you something, but it makes no explanation less compatible.',
)}
${section(
  'next-steps',
  'What you can still do',
  a.next_steps.length > 0
    ? html`<ol class="steps">
${a.next_steps.map(
  (s) => html`<li id="step-${s.id}"><p><strong>${linked(reg, s.action)}</strong></p>
<p>${linked(reg, s.why)}${inlineSources(reg, s.sources, `${s.action} ${s.why}`)}</p>
${s.by_when ? html`<p class="deadline"><strong>By when:</strong> ${linked(reg, s.by_when)}</p>\n` : ''}</li>
`,
)}</ol>`
    : undefined,
  'These hold whatever produced the observation.',
)}
${lawSection(reg, a.law)}
${section('related', 'Related', related)}
${section('sources', 'Sources', citationList(citationsOf(reg, a)))}`;
}
