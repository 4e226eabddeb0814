// Turning what a person or an agent typed into atlas entities: lenient ID parsing, deprecation
// (a deprecated ID resolves, and names its successor), and errors that say what to try instead.
import { ID_LETTERS, KIND_INFO, KINDS, kindOfId, withArticle, type Kind } from '../model/vocab.ts';
import type { Entity } from '../model/schemas.ts';
import { compareIds, titleOf, type Registry } from '../registry/registry.ts';
import { closest } from '../registry/suggest.ts';
import type { EntityRef } from './schemas.ts';

export type AnalysisErrorCode = 'unknown-id' | 'invalid-argument' | 'not-found';

/**
 * An expected failure of an analysis call: an unknown ID (with close matches), an argument that does
 * not fit (with the allowed values), or a description that matches nothing in the atlas (not-found).
 * Surfaces map it to their own error form: CLI exit 1 or 2, an MCP tool error.
 */
export class AnalysisError extends Error {
  constructor(
    readonly code: AnalysisErrorCode,
    message: string,
    readonly suggestions: EntityRef[] = [],
    readonly allowed: string[] = [],
  ) {
    super(message);
    this.name = 'AnalysisError';
  }
}

const LOOSE_ID = new RegExp(`^\\s*([${ID_LETTERS}])-?0*(\\d+)\\s*$`, 'i');

/** "m-1", "M1", "m001" → "M-001"; undefined when the text is not shaped like an ID. */
export function normaliseId(input: string): string | undefined {
  const m = LOOSE_ID.exec(input);
  if (!m) return undefined;
  return `${m[1]!.toUpperCase()}-${m[2]!.padStart(3, '0')}`;
}

/**
 * Text in parentheses, for prose: "(Genuine skill or experience gap [honest baseline])". Parentheses
 * inside it become brackets, so they never nest (titles often end in one).
 */
export function inParentheses(text: string): string {
  return `(${text.replace(/\(/g, '[').replace(/\)/g, ']')})`;
}

/** An ID with its title in parentheses: "M-001 (Genuine skill or experience gap [honest baseline])". */
export function titled(ref: { id: string; title: string }): string {
  return `${ref.id} ${inParentheses(ref.title)}`;
}

export function refOf(entity: Entity): EntityRef {
  return { id: entity.id, kind: entity.kind, title: titleOf(entity), status: entity.status === 'deprecated' ? 'deprecated' : 'active' };
}

/**
 * Reference to an entity that must exist (an ID taken from the registry's own edges), made without
 * reading the entity: the registry knows every entity's kind, title and status.
 */
export function refById(reg: Registry, id: string): EntityRef {
  const kind = reg.kindOf(id);
  if (kind === undefined) throw new Error(`internal: ${id} is not in the registry`);
  return { id, kind, title: reg.titleOf(id)!, status: reg.statusOf(id) === 'deprecated' ? 'deprecated' : 'active' };
}

/** The active entity that finally replaces a deprecated one (following a chain), or undefined. */
export function successorOf(reg: Registry, entity: Entity): Entity | undefined {
  if (entity.kind === 'source' || entity.status !== 'deprecated') return undefined;
  const seen = new Set<string>([entity.id]);
  let current: Entity = entity;
  while (current.kind !== 'source' && current.status === 'deprecated' && current.superseded_by) {
    const next = reg.get(current.superseded_by);
    if (!next || seen.has(next.id)) break;
    seen.add(next.id);
    current = next;
  }
  return current === entity ? undefined : current;
}

const isActive = (e: Entity) => e.kind === 'source' || e.status !== 'deprecated';

/**
 * The entity an input names, of one of `kinds` (any kind when omitted). Throws AnalysisError: unknown-id
 * (with suggestions) when nothing has that ID, invalid-argument when it exists but is of another kind.
 */
export function resolveEntity(reg: Registry, input: string, kinds: readonly Kind[] = KINDS, role?: string): Entity {
  const id = normaliseId(input);
  const entity = id ? reg.get(id) : undefined;
  const wanted = kinds.length === KINDS.length ? 'entity' : kinds.map((k) => KIND_INFO[k].label).join(' or ');
  if (!entity) {
    const suggestions = suggestionsFor(reg, input, kinds);
    throw new AnalysisError('unknown-id', unknownMessage(reg, input, id, kinds, wanted, suggestions), suggestions);
  }
  if (!kinds.includes(entity.kind)) {
    const shape = kinds.map((k) => `${KIND_INFO[k].prefix}-…`).join(', ');
    throw new AnalysisError(
      'invalid-argument',
      `${entity.id} is ${withArticle(entity.kind)} ${inParentheses(refOf(entity).title)}; ${role ?? 'this'} takes ${wanted} IDs (${shape}).`,
      [],
      kinds.map((k) => `${KIND_INFO[k].prefix}-…`),
    );
  }
  return entity;
}

/** What someone typed, quoted for an error message; clipped, since it may be any length. */
export function quoted(input: string, max = 60): string {
  return JSON.stringify(input.length > max ? `${input.slice(0, max)}…` : input);
}

function unknownMessage(
  reg: Registry,
  input: string,
  id: string | undefined,
  kinds: readonly Kind[],
  wanted: string,
  suggestions: EntityRef[],
): string {
  const said = quoted(input);
  let message = id ? `There is no ${wanted} ${id}.` : `${said} is not an atlas ID (IDs look like A-001 or M-012).`;
  const kind = id ? kindOfId(id) : undefined;
  if (kind && kinds.includes(kind)) {
    const ids = reg.all(kind).map((e) => e.id);
    if (ids.length > 0)
      message += ` ${KIND_INFO[kind].label[0]!.toUpperCase()}${KIND_INFO[kind].label.slice(1)} IDs run from ${ids[0]} to ${ids.at(-1)}.`;
  }
  if (suggestions.length > 0) message += ` Did you mean ${suggestions.map(titled).join(' or ')}?`;
  return message;
}

/**
 * Close matches for something that resolved to nothing: IDs a typo away when the input looks like an
 * ID, otherwise entities whose title or aliases contain the words typed.
 */
export function suggestionsFor(reg: Registry, input: string, kinds: readonly Kind[] = KINDS, limit = 3): EntityRef[] {
  const pool = reg.entities.filter((e) => kinds.includes(e.kind) && isActive(e));
  const id = normaliseId(input);
  if (id) {
    // IDs of the same kind first: "M-099" should suggest mechanisms, not a source that is one typo away.
    const kind = kindOfId(id);
    const sameKind = pool.filter((e) => e.kind === kind);
    const near = closest(
      id,
      (sameKind.length > 0 ? sameKind : pool).map((e) => e.id),
      limit,
    );
    return near.map((n) => refById(reg, n));
  }
  const words = input
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);
  if (words.length === 0) return [];
  const scored: Array<[Entity, number]> = [];
  for (const e of pool) {
    const names = [refOf(e).title, ...(e.kind === 'source' ? [] : e.aliases)].join(' ').toLowerCase();
    const hits = words.filter((w) => names.includes(w)).length;
    if (hits > 0) scored.push([e, hits]);
  }
  return scored
    .sort((a, b) => b[1] - a[1] || compareIds(a[0].id, b[0].id))
    .slice(0, limit)
    .map(([e]) => refOf(e));
}

/**
 * Data derived from a registry once and kept while the registry lives (a registry never changes): the
 * reverse indexes that let a call read only what concerns its inputs instead of scanning the atlas.
 * `derive` runs on the first call for each registry.
 */
export function perRegistry<T>(derive: (reg: Registry) => T): (reg: Registry) => T {
  const derived = new WeakMap<Registry, T>();
  return (reg) => {
    let value = derived.get(reg);
    if (value === undefined) {
      value = derive(reg);
      derived.set(reg, value);
    }
    return value;
  };
}

/** Appends a value to the list kept under a key, starting the list: how the indexes above are built. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Sorts and de-duplicates IDs. */
export function sortedIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort(compareIds);
}
