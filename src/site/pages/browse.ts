// The browse page of each kind, at browsePath(kind): the full list (a plain page without JavaScript),
// each item carrying its filterable values as data-* attributes and showing them as labelled tags, and a
// filter form that the browse script reveals and applies instantly (browser/browse.ts).
import { KIND_INFO, KINDS, STAGES, type Kind } from '../../model/vocab.ts';
import type { Entity } from '../../model/schemas.ts';
import { compareIds, type Registry } from '../../registry/registry.ts';
import { html, joined, type Raw } from '../html.ts';
import { page } from '../layout.ts';
import { browsePath, entityPath } from '../paths.ts';
import type { SitePage } from '../page.ts';
import { ENTITY_HEAD } from './entity.ts';
import { evidenceBadge, JURISDICTION_LABELS, KIND_NAMES, meaningsOf, stageLabel, tag, titleOf, type Meanings } from './entity-parts.ts';

/** A filter of a browse page: its form name, its label, and the values an entity has for it. */
interface Filter {
  name: string;
  label: string;
  values: (e: Entity, reg: Registry) => readonly string[];
  /** The order of its options (by default, alphabetical). */
  order?: readonly string[];
  /** How an option reads (by default, its value). */
  labelOf?: (value: string) => string;
  /** Whether each item shows its values as tags (the title and summary already say some). */
  show?: boolean;
  /** The vocabulary whose meanings label the tags. */
  vocabulary?: string;
}

const stagesOfMechanism = (e: Entity, reg: Registry) =>
  e.kind === 'mechanism'
    ? [...new Set(e.operates_at.map((b) => reg.getOf('barrier', b)?.stage).filter((s): s is NonNullable<typeof s> => !!s))]
    : [];
const lawOf = (e: Entity) => ('law' in e ? [...new Set(e.law.map((n) => n.jurisdiction))] : []);
const topicsOf = (e: Entity) => (e.kind !== 'source' ? e.topics : []);
const stageFilter = (values: Filter['values']): Filter => ({
  name: 'stage',
  label: 'Stage',
  values,
  order: STAGES,
  labelOf: stageLabel,
  show: true,
});
const topicFilter: Filter = { name: 'topic', label: 'Topic', values: topicsOf, show: false };
const lawFilter: Filter = {
  name: 'law',
  label: 'Law notes for',
  values: lawOf,
  order: Object.keys(JURISDICTION_LABELS),
  labelOf: (v) => JURISDICTION_LABELS[v as keyof typeof JURISDICTION_LABELS] ?? v,
  show: false,
};
const EVIDENCE_ORDER = ['established', 'supported', 'hypothesis', 'illustrative'];
const evidenceFilter: Filter = {
  name: 'evidence',
  label: 'Evidence level',
  values: (e) => ('evidence_level' in e ? [e.evidence_level] : []),
  order: EVIDENCE_ORDER,
  show: true,
  vocabulary: 'evidence',
};
const facet = (name: 'actor' | 'nature' | 'visibility' | 'removability', label: string): Filter => ({
  name,
  label,
  values: (e) => (e.kind === 'mechanism' ? [e.facets[name]] : []),
  show: true,
  vocabulary: name,
});

const FILTERS: Record<Kind, Filter[]> = {
  artifact: [stageFilter((e) => (e.kind === 'artifact' ? e.stages : [])), topicFilter, lawFilter],
  barrier: [stageFilter((e) => (e.kind === 'barrier' ? [e.stage] : []))],
  mechanism: [
    stageFilter(stagesOfMechanism),
    facet('actor', 'Driven by (actor)'),
    facet('nature', 'Nature'),
    facet('visibility', 'Visibility'),
    facet('removability', 'Removable by'),
    evidenceFilter,
    topicFilter,
    lawFilter,
  ],
  pattern: [{ name: 'shape', label: 'Shape', values: (e) => (e.kind === 'pattern' ? [e.shape] : []), show: true }, evidenceFilter],
  loop: [evidenceFilter],
  intervention: [
    {
      name: 'by',
      label: 'Change made by',
      values: (e) => (e.kind === 'intervention' ? [e.actor] : []),
      show: true,
      vocabulary: 'intervention-actor',
    },
    {
      name: 'effect',
      label: 'Does it work? (effect)',
      values: (e) => (e.kind === 'intervention' ? [e.effect.level] : []),
      order: ['established', 'supported', 'mixed', 'contested', 'unmeasured'],
      show: true,
      vocabulary: 'effect',
    },
    { ...evidenceFilter, label: 'Evidence for the problem' },
    {
      name: 'scope',
      label: 'Scope',
      values: (e) => (e.kind === 'intervention' ? [e.scope] : []),
      order: ['process', 'organisation', 'market', 'jurisdiction'],
      show: false,
    },
    {
      name: 'cost',
      label: 'Cost',
      values: (e) => (e.kind === 'intervention' ? [e.cost] : []),
      order: ['low', 'medium', 'high'],
      show: false,
    },
    topicFilter,
    lawFilter,
  ],
  scenario: [
    stageFilter((e, reg) =>
      e.kind === 'scenario'
        ? e.input.stage
          ? [e.input.stage]
          : [...new Set(e.input.artifacts.flatMap((a) => reg.getOf('artifact', a)?.stages ?? []))]
        : [],
    ),
    topicFilter,
  ],
  source: [
    { name: 'type', label: 'Type', values: (e) => (e.kind === 'source' ? [e.type] : []), show: true },
    {
      name: 'status',
      label: 'Status',
      values: (e) => (e.kind === 'source' ? [e.status] : []),
      order: ['current', 'contested', 'superseded', 'withdrawn', 'repealed'],
      show: true,
    },
    {
      name: 'reviewed',
      label: 'Peer reviewed',
      values: (e) => (e.kind === 'source' ? [e.peer_reviewed ? 'yes' : 'no'] : []),
      order: ['yes', 'no'],
      show: false,
    },
  ],
};

function options(reg: Registry, entities: readonly Entity[], f: Filter): Array<{ value: string; count: number }> {
  const counts = new Map<string, number>();
  for (const e of entities) for (const v of new Set(f.values(e, reg))) counts.set(v, (counts.get(v) ?? 0) + 1);
  const order = f.order;
  return [...counts.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => (order ? order.indexOf(a.value) - order.indexOf(b.value) : 0) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

function item(reg: Registry, e: Entity, filters: readonly Filter[], meanings: Meanings): Raw {
  const data = joined(
    filters.map((f) => {
      const v = f.values(e, reg);
      return v.length > 0 ? html` data-${f.name}="${v.join(' ')}"` : '';
    }),
    '',
  );
  const tags = filters
    .filter((f) => f.show)
    .flatMap((f) => {
      const values = f.values(e, reg);
      if (values.length === 0) return [];
      const label = f.label.replace(/ \(.*\)$/, '').toLowerCase();
      const meaning = f.vocabulary && values.length === 1 ? meanings.of(f.vocabulary, values[0]!) : undefined;
      if (f.name === 'evidence' || f.name === 'effect') return [evidenceBadge(values[0]!, meaning, label)];
      return [tag(values.length > 1 ? `${label}s` : label, values.map((v) => (f.labelOf ? f.labelOf(v) : v)).join(', '), meaning)];
    });
  const deprecated = e.kind !== 'source' && e.status === 'deprecated';
  const summary = e.kind === 'source' ? `${e.title} (${e.year ?? 'undated'})` : e.summary;
  return html`<li${data}>
<p class="item-title"><a href="${entityPath(e.id)}"><span class="id">${e.id}</span> ${titleOf(e)}</a>${deprecated ? html` <span class="tag">deprecated</span>` : ''}${
    e.kind === 'mechanism' && e.honest_baseline && !/honest baseline/i.test(e.title) ? html` <span class="tag">honest baseline</span>` : ''
  }</p>
<p>${summary}</p>
${tags.length > 0 ? html`<p class="tags">${tags}</p>\n` : ''}</li>
`;
}

/** The browse page of one kind. */
function browsePage(reg: Registry, kind: Kind, meanings: Meanings = meaningsOf(reg)): string {
  const all = reg.all(kind) as readonly Entity[];
  const entities = [...all].sort((a, b) => {
    const deprecated = (e: Entity) => (e.kind !== 'source' && e.status === 'deprecated' ? 1 : 0);
    const order = (e: Entity) => (e.kind === 'barrier' ? e.order : 0);
    return deprecated(a) - deprecated(b) || order(a) - order(b) || compareIds(a.id, b.id);
  });
  const names = KIND_NAMES[kind];
  const filters = FILTERS[kind];
  const many = names.many.toLowerCase();
  const form = html`<form class="filter-form" method="get" action="${browsePath(kind)}" hidden>
<details class="filter-details"><summary>Filter the ${many}</summary>
<fieldset class="filters">
<legend class="visually-hidden">Filter the ${many} (the list updates as you choose)</legend>
<div class="field words"><label for="filter-q">Words</label><input type="search" id="filter-q" name="q" autocomplete="off" placeholder="e.g. ${kind === 'source' ? 'audit' : 'silence'}"></div>
${filters.map(
  (f) => html`<div class="field"><label for="filter-${f.name}">${f.label}</label><select id="filter-${f.name}" name="${f.name}">
<option value="">Any</option>
${options(reg, entities, f).map((o) => html`<option value="${o.value}">${f.labelOf ? f.labelOf(o.value) : o.value} (${o.count})</option>\n`)}</select></div>
`,
)}<div class="field reset"><button type="reset">Clear filters</button></div>
</fieldset>
</details>
</form>`;
  const meaning = meanings.of('kind', kind);
  return page(reg, {
    title: names.many,
    path: browsePath(kind),
    description: `${names.many} of the atlas: ${names.blurb}`,
    head: ENTITY_HEAD,
    scripts: ['browse'],
    main: html`<nav aria-label="Breadcrumb" class="crumbs"><ol><li><a href="/browse/">Browse</a></li><li><span aria-current="page">${names.many}</span></li></ol></nav>
<h1>${names.many}</h1>
<p class="lede">${names.blurb}</p>
${meaning ? html`<p class="muted">${meaning}</p>\n` : ''}${
  kind === 'mechanism'
    ? html`<p class="note"><strong>Compatible is not proven.</strong> A mechanism listed here is a process that can happen; nothing on this page says how often, or whether it happened to you. The honest baselines (ordinary explanations such as a genuine skill gap or a stronger candidate) are listed alongside the rest.</p>\n`
    : ''
}${kind === 'scenario' ? html`<p>Each one is also a preset for the <a href="/analyze/">analyser</a> and a regression test of the atlas.</p>\n` : ''}${form}
<p id="shown" class="filter-status" role="status" aria-live="polite">${entities.length} ${entities.length === 1 ? names.one.toLowerCase() : many}.</p>
<ul class="entity-list" data-many="${many}">
${entities.map((e) => item(reg, e, filters, meanings))}</ul>
<p>The same list as JSON: <a href="/api/v1/${KIND_INFO[kind].dir}"><code>/api/v1/${KIND_INFO[kind].dir}</code></a>.</p>`,
  });
}

/** Every kind's browse page. */
export function* browsePages(reg: Registry): Generator<SitePage> {
  const meanings = meaningsOf(reg);
  for (const kind of KINDS) yield { url: browsePath(kind), bytes: Buffer.from(browsePage(reg, kind, meanings), 'utf8') };
}
