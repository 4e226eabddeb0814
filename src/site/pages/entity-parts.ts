// Building blocks shared by the entity pages and the browse pages: links to entities, prose with its IDs
// linked, tags, citations, law notes. Everything here renders what the registry and the analysis layer
// computed; nothing decides anything about the atlas.
import { ID_GROUP_SOURCE, ID_SOURCE, KIND_INFO, isDocumentNumberAt, type Kind, type Stage } from '../../model/vocab.ts';
import type { Entity, LawNote } from '../../model/schemas.ts';
import { sourceTitle } from '../../model/source.ts';
import type { Registry } from '../../registry/registry.ts';
import { methodology } from '../../analysis/methodology.ts';
import type { Citation, EntityRef, Methodology } from '../../analysis/schemas.ts';
import { LEGAL_NOTICE } from '../../analysis/terms.ts';
import { API_BASE } from '../../publish/routes.ts';
import { escapeHtml, html, joined, Raw } from '../html.ts';
import { entityPath } from '../paths.ts';

/** How each kind is named on the site: singular, plural, and what a page of that kind is for. */
export const KIND_NAMES: Record<Kind, { one: string; many: string; blurb: string }> = {
  artifact: {
    one: 'Observation',
    many: 'Observations',
    blurb: 'What a candidate directly sees or receives: silence, a template rejection, a reposted role.',
  },
  barrier: { one: 'Barrier', many: 'Barriers', blurb: 'The gates of the hiring funnel a candidate must pass, in funnel order.' },
  mechanism: {
    one: 'Mechanism',
    many: 'Mechanisms',
    blurb: 'The processes that make a gate reject, stall or misclassify someone, honest ones included.',
  },
  pattern: { one: 'Pattern', many: 'Patterns', blurb: 'Observations that, seen together, form a recognisable configuration.' },
  loop: { one: 'Loop', many: 'Loops', blurb: 'Cycles among mechanisms, where each makes the next stronger or hides it.' },
  intervention: {
    one: 'Intervention',
    many: 'Interventions',
    blurb: 'Changes an employer, vendor, platform, regulator or intermediary can make, with the evidence on whether they work.',
  },
  scenario: {
    one: 'Scenario',
    many: 'Worked scenarios',
    blurb: 'Situations told in a candidate’s own words, and what the atlas makes of them.',
  },
  source: { one: 'Source', many: 'Sources', blurb: 'The studies, surveys, statutes and reports the atlas cites.' },
};

const STAGE_LABELS: Record<Stage, string> = {
  'pre-posting': 'Pre-posting',
  sourcing: 'Sourcing',
  ingestion: 'Ingestion (applying)',
  screening: 'Screening',
  recruiter: 'Recruiter screen',
  technical: 'Technical assessment',
  'take-home': 'Take-home work',
  'hiring-manager': 'Hiring-manager interview',
  team: 'Team interviews',
  compensation: 'Compensation',
  references: 'References and checks',
  offer: 'Offer',
  'post-offer': 'After the offer',
};

export const stageLabel = (s: string) => STAGE_LABELS[s as Stage] ?? s;

export const JURISDICTION_LABELS: Record<LawNote['jurisdiction'], string> = {
  'us-federal': 'United States (federal)',
  'us-state': 'United States (state or city)',
  uk: 'United Kingdom',
  eu: 'European Union',
};

/** The API document of an entity (the REST mirror's item route). */
const jsonPath = (e: { id: string; kind: Kind }) => `${API_BASE}/${KIND_INFO[e.kind].dir}/${e.id}`;

/** The vocabularies with their meanings (from the methodology, so the site says what the CLI says). */
export interface Meanings {
  of(vocabulary: string, id: string): string | undefined;
}

export function meaningsOf(reg: Registry): Meanings {
  const m: Methodology = methodology(reg);
  const table = new Map<string, string>();
  const add = (name: string, terms: ReadonlyArray<{ id: string; meaning: string }>) => {
    for (const t of terms) table.set(`${name}:${t.id}`, t.meaning);
  };
  const v = m.vocabularies;
  add('stage', v.stages);
  add('evidence', v.evidence_levels);
  add('fidelity', v.fidelities);
  add('actor', v.facets.actor);
  add('nature', v.facets.nature);
  add('visibility', v.facets.visibility);
  add('removability', v.facets.removability);
  add('effect', v.effect_levels);
  add('intervention-actor', v.intervention_actors);
  add('jurisdiction', v.jurisdictions);
  add('viewpoint', v.viewpoints);
  add('topic', v.topics);
  add('kind', v.kinds);
  return { of: (vocabulary, id) => table.get(`${vocabulary}:${id}`) };
}

/** The display title of an entity (a source's is its short citation). */
export const titleOf = (e: Entity) => (e.kind === 'source' ? e.cite : e.title);

/** A link to an entity's page: its ID and title, and a visible mark when it is deprecated. */
export function entityLink(reg: Registry, id: string, options: { title?: boolean } = {}): Raw {
  const e = reg.get(id);
  if (!e) return html`<span>${id}</span>`;
  return refLink(
    { id: e.id, kind: e.kind, title: titleOf(e), status: e.kind !== 'source' && e.status === 'deprecated' ? 'deprecated' : 'active' },
    options,
  );
}

export function refLink(ref: EntityRef, options: { title?: boolean } = {}): Raw {
  const withTitle = options.title ?? true;
  return html`<a href="${entityPath(ref.id)}"><span class="id">${ref.id}</span>${withTitle ? html` ${ref.title}` : ''}</a>${ref.status === 'deprecated' ? html` <span class="tag">deprecated</span>` : ''}`;
}

const ID_IN_TEXT = new RegExp(`\\b(${ID_SOURCE})\\b`, 'g');

/** A parenthesised group of IDs in prose: "(E-070)", "(M-017; E-071)", "(see M-016)". */
const ID_GROUP = new RegExp(ID_GROUP_SOURCE, 'g');

/**
 * An ID of prose as a note that does not interrupt the reading (audit item 8): a source is a superscript
 * link showing its short citation, another entity a superscript "see" link named by its title. The ID is in
 * the link's address and its tooltip.
 */
function noteOf(reg: Registry, id: string): string {
  const e = reg.get(id);
  if (!e) return escapeHtml(id);
  const href = escapeHtml(entityPath(id));
  if (e.kind === 'source') return `<a href="${href}" title="${escapeHtml(`${id}: ${sourceTitle(e)}`)}">${escapeHtml(e.cite)}</a>`;
  return `<a href="${href}" title="${escapeHtml(`${id} ${e.title}`)}" aria-label="${escapeHtml(`see: ${e.title}`)}">see</a>`;
}

/**
 * Inline text with every atlas ID that exists turned into a link to its page, and each of `extra`'s words
 * (such as probe IDs) into a link to its address. A parenthesised group of IDs becomes superscript notes;
 * an ID in the running text becomes a link named by the entity's title (its ID in the tooltip).
 */
export function linked(reg: Registry, text: string, extra?: ReadonlyMap<string, string>): Raw {
  const words =
    extra && extra.size > 0
      ? [...extra.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      : [];
  const pattern = new RegExp(`(${ID_GROUP.source})|\\b(${ID_SOURCE})\\b${words.length > 0 ? `|(${words.join('|')})` : ''}`, 'g');
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    let piece: string | undefined;
    if (m[1] !== undefined) {
      const ids = [...m[1].matchAll(ID_IN_TEXT)].map((x) => x[1]!);
      if (ids.every((id) => reg.has(id)) && !isDocumentNumberAt(text, m.index!))
        piece = `<sup class="ref">${ids.map((id) => noteOf(reg, id)).join(', ')}</sup>`;
    } else if (m[2] !== undefined) {
      // "Handbook M-274" is another body's document number, whether or not the atlas has an M-274.
      const e = isDocumentNumberAt(text, m.index!) ? undefined : reg.get(m[2]);
      const name = e === undefined ? '' : e.kind === 'source' ? e.cite : e.title;
      // "M-008 (Headcount freeze …)": the title follows already, so the ID itself is the link.
      const titled = e !== undefined && text.startsWith(` (${name.slice(0, 12).replace(/\(/g, '[')}`, m.index! + m[0].length);
      if (e)
        piece = titled
          ? `<a href="${escapeHtml(entityPath(e.id))}" class="id">${escapeHtml(e.id)}</a>`
          : `<a href="${escapeHtml(entityPath(e.id))}" title="${escapeHtml(e.id)}">${escapeHtml(name)}</a>`;
    } else {
      const href = extra?.get(m[3]!);
      if (href !== undefined) piece = `<a href="${escapeHtml(href)}">${escapeHtml(m[0])}</a>`;
    }
    if (piece === undefined) continue;
    // A note hangs on the word before it: the space before the parenthesis goes.
    const before = text.slice(last, m.index);
    out += escapeHtml(m[1] !== undefined ? before.replace(/\s+$/, '') : before) + piece;
    last = m.index! + m[0].length;
  }
  return new Raw(out + escapeHtml(text.slice(last)));
}

/** Prose (blank lines separate paragraphs; single line breaks are folded) with its IDs linked. */
export function prose(reg: Registry, text: string | undefined): Raw {
  if (!text) return new Raw('');
  return joined(
    text
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
      .filter((p) => p.length > 0)
      .map((p) => html`<p>${linked(reg, p)}</p>\n`),
    '',
  );
}

/** A small labelled value: "evidence: supported". The label is text, so nothing rests on colour. */
export function tag(label: string, value: string, title?: string): Raw {
  return html`<span class="tag"${title ? html` title="${title}"` : ''}>${label}: <strong>${value}</strong></span>`;
}

/** An evidence level as a badge whose border style repeats the level (the word is always written). */
export function evidenceBadge(level: string, meaning?: string, label = 'evidence'): Raw {
  return html`<span class="badge ev-${level}"${meaning ? html` title="${meaning}"` : ''}>${label}: ${level}</span>`;
}

/** A list of links to entities (each ID resolved in the registry), or undefined when empty. */
export function entityList(reg: Registry, ids: readonly string[], extra?: (id: string) => Raw | string | undefined): Raw | undefined {
  if (ids.length === 0) return undefined;
  return html`<ul class="refs">
${ids.map((id) => html`<li>${entityLink(reg, id)}${extra ? extra(id) : ''}</li>\n`)}</ul>`;
}

/** A section with a heading, only when it has content. */
export function section(id: string, title: string, body: Raw | undefined | false, intro?: Raw | string): Raw {
  if (!body) return new Raw('');
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${title}</h2>
${intro ? html`<p class="muted">${intro}</p>\n` : ''}${body}
</section>
`;
}

/** Sources as a list of citations, each linked to its page and its original, with its caveat when not current. */
export function citationList(citations: readonly Citation[]): Raw | undefined {
  if (citations.length === 0) return undefined;
  return html`<ol class="citations">
${citations.map(
  (c) =>
    html`<li id="cite-${c.id}"><a href="${entityPath(c.id)}"><span class="id">${c.id}</span> ${c.cite}</a>. ${c.title}. <span class="muted">${c.venue}${c.year !== null ? `, ${c.year}` : ''}${c.peer_reviewed ? ', peer reviewed' : ''}.</span>${
      c.status !== 'current' ? html` <span class="tag">status: <strong>${c.status}</strong></span>` : ''
    }${c.caveat ? html`<br><span class="caveat"><strong>Caveat:</strong> ${c.caveat}</span>` : ''}</li>\n`,
)}</ol>`;
}

/**
 * The sources of a claim (a law note's, a step's), inline: "(sources: E-001, E-002)", leaving out those
 * the text already cites by ID.
 */
export function inlineSources(reg: Registry, ids: readonly string[], text = ''): Raw {
  const rest = ids.filter((id) => !new RegExp(`\\b${id}\\b`).test(text));
  if (rest.length === 0) return new Raw('');
  return html` <span class="muted">(${rest.length === 1 ? 'source' : 'sources'}: ${joined(
    rest.map((id) => {
      const s = reg.getOf('source', id);
      return html`<a href="${entityPath(id)}" class="id">${id}</a>${s && s.status !== 'current' ? html` [${s.status}]` : ''}`;
    }),
  )})</span>`;
}

/** Law notes grouped by jurisdiction, time limits set apart, followed by the not-legal-advice notice. */
export function lawSection(reg: Registry, notes: readonly LawNote[], headingId = 'law'): Raw {
  if (notes.length === 0) return new Raw('');
  const groups = (Object.keys(JURISDICTION_LABELS) as LawNote['jurisdiction'][])
    .map((j) => ({ j, notes: notes.filter((n) => n.jurisdiction === j) }))
    .filter((g) => g.notes.length > 0);
  return section(
    headingId,
    'What the law says',
    html`${groups.map(
      (g) => html`<h3>${JURISDICTION_LABELS[g.j]}</h3>
${g.notes.map((n) => {
  const all = [n.says, n.remedy ?? '', n.time_limit ?? '', n.status_note ?? ''].join(' ');
  return html`<div class="law">
<p><strong>${n.instrument}</strong>${n.where ? html` <span class="muted">(${n.where})</span>` : ''}</p>
<p>${linked(reg, n.says)}${inlineSources(reg, n.sources, all)}</p>
${n.remedy ? html`<p><strong>What you can do:</strong> ${linked(reg, n.remedy)}</p>\n` : ''}${n.time_limit ? html`<p class="deadline"><strong>Time limit:</strong> ${linked(reg, n.time_limit)}</p>\n` : ''}${n.status_note ? html`<p class="caveat"><strong>Status:</strong> ${linked(reg, n.status_note)}</p>\n` : ''}</div>
`;
})}`,
    )}<p class="notice">${LEGAL_NOTICE}</p>`,
  );
}

/** "Browse › Mechanisms › M-001": where the page sits. */
export function breadcrumbs(kind: Kind, id: string, browse: string): Raw {
  return html`<nav aria-label="Breadcrumb" class="crumbs"><ol>
<li><a href="/browse/">Browse</a></li>
<li><a href="${browse}">${KIND_NAMES[kind].many}</a></li>
<li><span aria-current="page">${id}</span></li>
</ol></nav>`;
}

/** The page's foot: the same entity as JSON, and how to cite it. */
export function dataFooter(reg: Registry, e: { id: string; kind: Kind }): Raw {
  const json = jsonPath(e);
  return html`<section aria-labelledby="data" class="data-links">
<h2 id="data">Data</h2>
<p>This ${KIND_NAMES[e.kind].one.toLowerCase()} as JSON: <a href="${json}"><code>${json}</code></a>. On the command line: <code>hoba show ${e.id}</code>. Cite it as ${e.id}, atlas version ${reg.version}.</p>
</section>`;
}
