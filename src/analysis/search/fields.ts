// Search, what is indexed: the fields of an entity, their text and boosts, and each document's boost.
import type { Entity } from '../../model/schemas.ts';

// An artifact's voices (first-person accounts) are a field of their own: people search in those words.
export const FIELDS = ['id', 'title', 'aliases', 'summary', 'voices', 'body'] as const;
type Field = (typeof FIELDS)[number];

function texts(...parts: Array<string | readonly string[] | undefined>): string {
  return parts.flatMap((p) => (p === undefined ? [] : typeof p === 'string' ? [p] : p)).join('\n');
}

/** The text of each indexed field of an entity. */
export function fieldText(e: Entity, field: Field): string {
  if (field === 'id') return e.id;
  if (e.kind === 'source') {
    if (field === 'title') return texts(e.cite, e.title ?? undefined);
    if (field === 'aliases' || field === 'voices') return '';
    if (field === 'summary') return e.finding ?? '';
    return texts(e.authors, e.venue ?? undefined, e.design, e.relevant_to, e.year === null ? undefined : String(e.year));
  }
  if (field === 'title') return e.title;
  if (field === 'aliases') return texts(e.aliases);
  if (field === 'voices') return e.kind === 'artifact' ? texts(e.voices ?? []) : '';
  if (field === 'summary') return e.summary;
  const common = [e.description];
  switch (e.kind) {
    case 'artifact':
      return texts(
        ...common,
        e.stages,
        e.non_inferences,
        e.probes.flatMap((p) => [p.action, p.risk ?? '', ...p.outcomes.flatMap((o) => [o.observation, o.note ?? ''])]),
        // The marked lines of its specimens: the words an employer's message uses, which a person may paste.
        e.specimens.flatMap((sp) => [sp.title, ...sp.tells.map((t) => t.quote)]),
      );
    case 'barrier':
      return texts(...common, e.stage, e.pass_condition);
    case 'mechanism':
      return texts(
        ...common,
        e.family.replace(/-/g, ' '),
        e.emits.map((x) => x.note ?? ''),
      );
    case 'pattern':
      return texts(...common, e.shape, e.trigger_rule, e.establishes, e.non_inferences);
    case 'loop':
      return texts(...common);
    case 'intervention':
      return texts(...common, e.expected_effects, e.measurements, e.tradeoffs);
    case 'scenario':
      return texts(...common, e.situation);
  }
}

const BOOST: Record<Field, number> = { id: 8, title: 4, aliases: 3, summary: 2, voices: 1, body: 1 };
export const FIELD_BOOST = FIELDS.map((f) => BOOST[f]);
export const F = FIELDS.length;

/**
 * Observations are how people describe what happened to them; deprecated entities sink. Of an entity,
 * only its kind and status (which the registry knows without reading it), or undefined for none.
 */
export function documentBoost(e: Pick<Entity, 'kind' | 'status'> | undefined): number {
  if (!e) return 0;
  if (e.kind !== 'source' && e.status === 'deprecated') return 0.5;
  // A scenario is told in a person's words too, but it is an example; the observation comes first.
  return e.kind === 'artifact' ? 1.2 : e.kind === 'scenario' ? 0.7 : 1;
}
