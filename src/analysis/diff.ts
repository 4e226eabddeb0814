// What changed between two versions of the atlas, in categories a user can act on: added, removed,
// changed (which fields, per entity: before/after for values, added/removed items for lists), deprecated
// or superseded, restored; and the semver bump the change needs. Pure: registry data in, diff out. The
// data may come from a release recorded under an older schema (releases/): the diff compares plain JSON,
// so fields one schema has and the other lacks show up as what they are, and an absent list is the same
// as an empty one (an older schema simply had no such list).
import { z } from 'zod';
import { KINDS, type Kind } from '../model/vocab.ts';
import { compareIds, type RegistryData } from '../registry/registry.ts';
import type { Problem } from '../registry/rules.ts';
import { BUMPS, bumpSatisfies, compareVersions, effectiveBump, nextVersion, versionBump, type Bump } from '../registry/release-model.ts';

const Version = z
  .string()
  .regex(/^\d+\.\d+\.\d+$/)
  .describe('A registry version (semver)');
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const DiffEntity = z
  .strictObject({
    id: z.string(),
    kind: z.enum(KINDS),
    title: z.string(),
  })
  .describe('An entity named in a diff, with its title in the newer version (the older one for a removed entity)');

const ValueChange = z
  .strictObject({
    field: z.string().describe('Dotted path of the field, e.g. title or facets.actor'),
    change: z.literal('value'),
    before: Scalar.optional().describe('The value before; absent when the field was added'),
    after: Scalar.optional().describe('The value after; absent when the field was removed'),
  })
  .describe('A field holding one value that changed');

const ListChange = z
  .strictObject({
    field: z.string().describe('Dotted path of the list, e.g. sources or probes'),
    change: z.literal('list'),
    added: z
      .array(z.string())
      .describe('Items added: the item itself for a list of words or IDs, its key (id, artifact, mechanism…) for a list of records'),
    removed: z.array(z.string()).describe('Items removed, named as in added'),
    changed: z.array(z.string()).describe('Records present in both versions whose content changed, by key'),
    reordered: z.boolean().describe('The items kept are in another order'),
  })
  .describe('A list whose items changed');

export const FieldChange = z.discriminatedUnion('change', [ValueChange, ListChange]);

export const ChangedEntity = DiffEntity.extend({
  previous_title: z.string().optional().describe('The title before, when it changed'),
  fields: z.array(FieldChange).describe('Every field that changed, in field order'),
}).describe('An entity present in both versions whose content changed');

const DeprecatedEntity = ChangedEntity.extend({
  superseded_by: z.string().optional().describe('The successor that old links lead to'),
}).describe('An entity deprecated (and superseded) in the newer version; its ID keeps resolving');

const VersionInfo = z.strictObject({
  version: Version,
  schema_version: z.string().describe('Version of the content model the data was recorded under'),
  released: z.string().describe('Authored release date'),
});

export const RegistryDiff = z
  .strictObject({
    from: VersionInfo,
    to: VersionInfo,
    required_bump: z
      .enum(BUMPS)
      .describe(
        'The least semver bump these changes need (major: an ID removed; minor: entities added, deprecated or restored; patch: edits only)',
      ),
    reasons: z.array(z.string()).describe('Why that bump, in words'),
    counts: z.strictObject({
      added: z.int().min(0),
      removed: z.int().min(0),
      changed: z.int().min(0),
      deprecated: z.int().min(0),
      restored: z.int().min(0),
    }),
    manifest: z.array(FieldChange).describe('Changes to the manifest (content/atlas.yaml) other than the version and date'),
    added: z.array(DiffEntity).describe('New IDs'),
    removed: z.array(DiffEntity).describe('IDs that no longer exist: links to them stop resolving'),
    changed: z.array(ChangedEntity).describe('Entities whose content changed (not counting those deprecated or restored)'),
    deprecated: z.array(DeprecatedEntity).describe('Entities newly deprecated or superseded'),
    restored: z.array(ChangedEntity).describe('Deprecated entities made active again'),
  })
  .describe('What changed between two versions of the atlas');

export type DiffEntity = z.infer<typeof DiffEntity>;
export type FieldChange = z.infer<typeof FieldChange>;
export type ChangedEntity = z.infer<typeof ChangedEntity>;
export type RegistryDiff = z.infer<typeof RegistryDiff>;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Record_ = { [key: string]: unknown };

/** Every change from one version of the atlas to another. Entities in each category are sorted by ID. */
export function diffRegistries(from: RegistryData, to: RegistryData): RegistryDiff {
  const before = new Map(from.entities.map((e) => [e.id, e as unknown as Record_]));
  const after = new Map(to.entities.map((e) => [e.id, e as unknown as Record_]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort(compareIds);
  const diff: RegistryDiff = {
    from: versionInfo(from),
    to: versionInfo(to),
    required_bump: 'none',
    reasons: [],
    counts: { added: 0, removed: 0, changed: 0, deprecated: 0, restored: 0 },
    manifest: fieldChanges(from.manifest as unknown as Record_, to.manifest as unknown as Record_, ['registry_version', 'released']),
    added: [],
    removed: [],
    changed: [],
    deprecated: [],
    restored: [],
  };
  for (const id of ids) {
    const a = before.get(id);
    const b = after.get(id);
    if (!a) diff.added.push(ref(b!));
    else if (!b) diff.removed.push(ref(a));
    else {
      const fields = fieldChanges(a, b, ['id', 'kind']);
      if (fields.length === 0) continue;
      const changed: ChangedEntity = { ...ref(b), ...(a['title'] !== b['title'] ? { previous_title: String(a['title']) } : {}), fields };
      const wasDeprecated = a['status'] === 'deprecated';
      const isDeprecated = b['status'] === 'deprecated';
      if (isDeprecated && !wasDeprecated) {
        diff.deprecated.push({ ...changed, ...(typeof b['superseded_by'] === 'string' ? { superseded_by: b['superseded_by'] } : {}) });
      } else if (wasDeprecated && !isDeprecated) diff.restored.push(changed);
      else diff.changed.push(changed);
    }
  }
  for (const key of ['added', 'removed', 'changed', 'deprecated', 'restored'] as const) diff.counts[key] = diff[key].length;
  const { bump, reasons } = bumpOf(diff);
  diff.required_bump = bump;
  diff.reasons = reasons;
  return diff;
}

function versionInfo(data: RegistryData) {
  return { version: data.manifest.registry_version, schema_version: data.manifest.schema_version, released: data.manifest.released };
}

function ref(e: Record_): DiffEntity {
  return { id: String(e['id']), kind: e['kind'] as Kind, title: String(e['title'] ?? e['cite'] ?? e['id']) };
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const listed = (entities: readonly DiffEntity[]) =>
  entities.length <= 6
    ? entities.map((e) => e.id).join(', ')
    : `${entities
        .slice(0, 5)
        .map((e) => e.id)
        .join(', ')} and ${entities.length - 5} more`;

function bumpOf(diff: RegistryDiff): { bump: Bump; reasons: string[] } {
  const reasons: string[] = [];
  if (diff.removed.length > 0) {
    reasons.push(
      `${count(diff.removed.length, 'ID', 'IDs')} removed (${listed(diff.removed)}), so links to ${diff.removed.length === 1 ? 'it' : 'them'} stop resolving`,
    );
  }
  if (diff.added.length > 0) reasons.push(`${count(diff.added.length, 'new entity', 'new entities')} (${listed(diff.added)})`);
  if (diff.deprecated.length > 0)
    reasons.push(`${count(diff.deprecated.length, 'entity', 'entities')} deprecated (${listed(diff.deprecated)})`);
  if (diff.restored.length > 0) reasons.push(`${count(diff.restored.length, 'entity', 'entities')} restored (${listed(diff.restored)})`);
  if (diff.changed.length > 0) reasons.push(`${count(diff.changed.length, 'entity', 'entities')} edited`);
  if (diff.manifest.length > 0) reasons.push(`the manifest changed (${[...new Set(diff.manifest.map((f) => f.field))].join(', ')})`);
  const bump: Bump =
    diff.removed.length > 0
      ? 'major'
      : diff.added.length + diff.deprecated.length + diff.restored.length > 0
        ? 'minor'
        : diff.changed.length + diff.manifest.length > 0
          ? 'patch'
          : 'none';
  return { bump, reasons };
}

// ---------------------------------------------------------------------------------------------------
// Field by field

/** The changes between two records, field by field (nested records as dotted paths), skipping `skip`. */
function fieldChanges(a: Record_, b: Record_, skip: readonly string[]): FieldChange[] {
  const out: FieldChange[] = [];
  diffRecord('', a, b, out, new Set(skip));
  return out;
}

function diffRecord(prefix: string, a: Record_ | undefined, b: Record_ | undefined, out: FieldChange[], skip = new Set<string>()): void {
  // The newer record's field order first, then fields only the older one has.
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])].filter((k) => !skip.has(k));
  for (const key of keys) diffValue(prefix ? `${prefix}.${key}` : key, a?.[key], b?.[key], out);
}

function diffValue(field: string, a: unknown, b: unknown, out: FieldChange[]): void {
  if (Array.isArray(a) || Array.isArray(b)) {
    // An absent list is an empty one: an older schema had no such field, or a default was left out.
    const change = diffList(field, Array.isArray(a) ? a : [], Array.isArray(b) ? b : []);
    if (change) out.push(change);
  } else if (isRecord(a) || isRecord(b)) {
    diffRecord(field, isRecord(a) ? a : undefined, isRecord(b) ? b : undefined, out);
  } else if (a !== b) {
    const change: FieldChange = { field, change: 'value' };
    if (a !== undefined) change.before = a as z.infer<typeof Scalar>;
    if (b !== undefined) change.after = b as z.infer<typeof Scalar>;
    out.push(change);
  }
}

function diffList(field: string, a: readonly unknown[], b: readonly unknown[]): FieldChange | undefined {
  const ka = keyed(a);
  const kb = keyed(b);
  const added = [...kb.keys()].filter((k) => !ka.has(k));
  const removed = [...ka.keys()].filter((k) => !kb.has(k));
  const changed = [...kb.keys()].filter((k) => ka.has(k) && canonical(ka.get(k)) !== canonical(kb.get(k)));
  const keptA = [...ka.keys()].filter((k) => kb.has(k));
  const keptB = [...kb.keys()].filter((k) => ka.has(k));
  const reordered = keptA.some((k, i) => keptB[i] !== k);
  if (added.length + removed.length + changed.length === 0 && !reordered) return undefined;
  return { field, change: 'list', added, removed, changed, reordered };
}

/** A list's items by key: the item itself for words and IDs, a natural key for records (an entity ID,
 * a probe's or a step's id…), its whole content otherwise; a repeated key gets " #2", " #3"… */
function keyed(items: readonly unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const item of items) {
    const base = keyOf(item);
    let key = base;
    for (let n = 2; map.has(key); n++) key = `${base} #${n}`;
    map.set(key, item);
  }
  return map;
}

/** Fields that name a record within its list, in order of preference. */
const KEY_FIELDS = ['id', 'artifact', 'mechanism', 'viewpoint', 'probe'] as const;

function keyOf(item: unknown): string {
  if (!isRecord(item)) return typeof item === 'string' ? item : canonical(item);
  for (const f of KEY_FIELDS) if (typeof item[f] === 'string') return item[f];
  // A loop's edge: "M-001 amplifies M-002"; a law note: "uk: <instrument>".
  if (typeof item['from'] === 'string' && typeof item['to'] === 'string')
    return `${item['from']} ${String(item['relation'])} ${item['to']}`;
  if (typeof item['jurisdiction'] === 'string' && typeof item['instrument'] === 'string') {
    return `${item['jurisdiction']}${typeof item['where'] === 'string' ? ` (${item['where']})` : ''}: ${item['instrument']}`;
  }
  return canonical(item);
}

function isRecord(v: unknown): v is Record_ {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with sorted keys and absent values dropped: equal for equal content whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value as Json));
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((k) => value[k] !== undefined)
        .map((k) => [k, sortKeys(value[k] as Json)]),
    );
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------
// The release-version rule

/**
 * The release-version check: content that differs from the latest recorded release must carry a
 * registry_version above it, by at least the bump its changes need. Equal content is fine whatever the
 * files look like (a formatting edit changes no release).
 */
export function releaseVersionProblems(current: RegistryData, latest: RegistryData | undefined): Problem[] {
  if (!latest) return [];
  const version = current.manifest.registry_version;
  const recorded = latest.manifest.registry_version;
  const diff = diffRegistries(latest, current);
  if (diff.required_bump === 'none' && compareVersions(version, recorded) === 0) return [];
  const problem = (message: string): Problem => ({ rule: 'release-version', severity: 'warning', file: 'content/atlas.yaml', message });
  if (compareVersions(version, recorded) < 0) {
    return [
      problem(
        `registry_version ${version} is below the latest recorded release ${recorded} (releases/index.json). Versions only go up: set it to ${nextVersion(recorded, diff.required_bump === 'none' ? 'patch' : diff.required_bump)} or above.`,
      ),
    ];
  }
  if (bumpSatisfies(recorded, version, diff.required_bump)) return [];
  const needs = effectiveBump(recorded, diff.required_bump);
  const zeroNote = needs !== diff.required_bump ? ` (a major change; while the version is 0.x that is a minor bump)` : '';
  const summary = `${diff.reasons.join('; ')}`;
  const what =
    compareVersions(version, recorded) === 0
      ? `The content differs from the recorded release ${recorded} but registry_version was not bumped`
      : `registry_version ${version} is a ${versionBump(recorded, version)} bump from the recorded release ${recorded}, too small for the changes`;
  return [
    problem(
      `${what}: ${summary}. That needs a ${needs} bump${zeroNote}: set registry_version to ${nextVersion(recorded, diff.required_bump)} in content/atlas.yaml, then record it with \`hoba release\` (hoba diff ${recorded} current lists the changes).`,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------------
// The changelog: each release against the one before, by category, with field names (not values)

const ChangelogChanged = DiffEntity.extend({
  previous_title: z.string().optional().describe('The title before, when it changed'),
  fields: z.array(z.string()).describe('The fields that changed (dotted paths for nested fields)'),
});

export const ChangelogEntry = z
  .strictObject({
    version: Version,
    released: z.string().describe('Authored release date'),
    schema_version: z.string().describe('Version of the content model the release was recorded under'),
    previous: Version.nullable().describe('The release this one is compared with; null for the first recorded release'),
    required_bump: z.enum(BUMPS).nullable().describe('The least bump the changes needed (null for the first release)'),
    reasons: z.array(z.string()).describe('Why that bump, in words'),
    entities: z.int().min(0).describe('Number of entities in the release'),
    counts: RegistryDiff.shape.counts,
    added: z.array(DiffEntity).describe('New IDs'),
    changed: z.array(ChangelogChanged).describe('Entities edited, with the fields that changed'),
    deprecated: z
      .array(ChangelogChanged.extend({ superseded_by: z.string().optional() }))
      .describe('Entities deprecated or superseded; their IDs keep resolving'),
    restored: z.array(ChangelogChanged).describe('Deprecated entities made active again'),
    removed: z.array(DiffEntity).describe('IDs that no longer exist'),
    manifest: z.array(z.string()).describe('Manifest fields that changed'),
  })
  .describe('One release in the changelog: what changed since the release before it');
export type ChangelogEntry = z.infer<typeof ChangelogEntry>;

/** A release's changelog entry: its diff against the previous release, fields by name. */
export function changelogEntry(release: RegistryData, previous: RegistryData | undefined): ChangelogEntry {
  const diff = previous ? diffRegistries(previous, release) : undefined;
  const names = (fields: readonly FieldChange[]) => [...new Set(fields.map((f) => f.field))];
  const summary = (e: ChangedEntity) => ({
    id: e.id,
    kind: e.kind,
    title: e.title,
    ...(e.previous_title !== undefined ? { previous_title: e.previous_title } : {}),
    fields: names(e.fields),
  });
  return ChangelogEntry.parse({
    version: release.manifest.registry_version,
    released: release.manifest.released,
    schema_version: release.manifest.schema_version,
    previous: previous?.manifest.registry_version ?? null,
    required_bump: diff?.required_bump ?? null,
    reasons: diff?.reasons ?? [],
    entities: release.entities.length,
    counts: diff?.counts ?? { added: 0, removed: 0, changed: 0, deprecated: 0, restored: 0 },
    added: diff?.added ?? [],
    changed: (diff?.changed ?? []).map(summary),
    deprecated: (diff?.deprecated ?? []).map((e) => ({ ...summary(e), ...(e.superseded_by ? { superseded_by: e.superseded_by } : {}) })),
    restored: (diff?.restored ?? []).map(summary),
    removed: diff?.removed ?? [],
    manifest: diff ? names(diff.manifest) : [],
  });
}

const KIND_HEADINGS: Record<Kind, string> = {
  artifact: 'Artifacts',
  barrier: 'Barriers',
  mechanism: 'Mechanisms',
  pattern: 'Patterns',
  loop: 'Loops',
  intervention: 'Interventions',
  scenario: 'Scenarios',
  source: 'Sources',
};

/** Markdown text with the characters that would start markup escaped (titles are plain text). */
const md = (text: string) => text.replace(/([\\`*_[\]<>|])/g, '\\$1');

/** One entity per line, grouped by kind. */
function entityLines<T extends DiffEntity>(entities: readonly T[], line: (e: T) => string): string[] {
  const out: string[] = [];
  for (const kind of KINDS) {
    const ofKind = entities.filter((e) => e.kind === kind);
    if (ofKind.length === 0) continue;
    out.push(`- ${KIND_HEADINGS[kind]} (${ofKind.length}):`);
    for (const e of ofKind) out.push(`  - ${line(e)}`);
  }
  return out;
}

/**
 * CHANGELOG.md: every recorded release, newest first, each against the release before it, in the
 * categories a user can act on. Generated as a whole from releases/, so it never drifts from them.
 */
/**
 * CHANGELOG.md from the releases' entries, newest first. `notes` gives a release's authored notes (Markdown,
 * from releases/notes/<version>.md), placed under "Notes" after the summary: what a diff cannot say (why
 * something changed, what could not be done, answers to reviews).
 */
export function changelogMarkdown(
  entries: readonly ChangelogEntry[],
  downloadsUrl: (version: string) => string,
  notes: (version: string) => string | undefined = () => undefined,
): string {
  const out = [
    '# Changelog',
    '',
    'What changed in each release of the atlas content (`registry_version` in `content/atlas.yaml`), newest first.',
    'Generated by `hoba release` from the recorded releases in `releases/`; do not edit it by hand.',
    '',
    'IDs are permanent: a removed ID no longer resolves (a major change), a deprecated one keeps resolving and',
    'names its successor. Every release stays downloadable, with SHA-256 checksums, under',
    '`/downloads/<version>/`, and is described at `/api/v1/releases/<version>`. `hoba diff <from> <to>` shows',
    'every change with its before and after values.',
  ];
  for (const e of [...entries].sort((a, b) => compareVersions(b.version, a.version))) {
    out.push('', `## ${e.version} — ${e.released}`, '');
    const where = `Downloads: \`${downloadsUrl(e.version)}\`. Content model (schema) ${e.schema_version}; ${e.entities} entities.`;
    if (e.previous === null) {
      out.push(`The first recorded release: there is no earlier release to compare it with. ${where}`);
      const authored = notes(e.version)?.trim();
      if (authored) out.push('', '### Notes', '', ...authored.split('\n'));
      continue;
    }
    const effective = e.required_bump === null ? null : effectiveBump(e.previous, e.required_bump);
    const zero = effective !== e.required_bump ? ` (a ${effective} bump while the version is 0.x)` : '';
    const bump = e.required_bump === 'none' ? 'no change to the content' : `the changes need a ${e.required_bump} bump${zero}`;
    out.push(`Compared with ${e.previous}, ${bump}${e.reasons.length ? `: ${e.reasons.join('; ')}` : ''}. ${where}`);
    const section = (title: string, lines: string[]) => {
      if (lines.length > 0) out.push('', `### ${title}`, '', ...lines);
    };
    const authored = notes(e.version)?.trim();
    if (authored) section('Notes', authored.split('\n'));
    section(
      `Added (${e.counts.added})`,
      entityLines(e.added, (x) => `${x.id} ${md(x.title)}`),
    );
    section(
      `Changed (${e.counts.changed})`,
      entityLines(
        e.changed,
        (x) =>
          `${x.id} ${md(x.title)}${x.previous_title !== undefined ? ` (was: ${md(x.previous_title)})` : ''}: ${x.fields.map((f) => `\`${f}\``).join(', ')}`,
      ),
    );
    section(
      `Deprecated or superseded (${e.counts.deprecated})`,
      entityLines(e.deprecated, (x) => `${x.id} ${md(x.title)}${x.superseded_by ? `: superseded by ${x.superseded_by}` : ''}`),
    );
    section(
      `Restored (${e.counts.restored})`,
      entityLines(e.restored, (x) => `${x.id} ${md(x.title)}`),
    );
    section(
      `Removed (${e.counts.removed})`,
      entityLines(e.removed, (x) => `${x.id} ${md(x.title)}: links to it no longer resolve`),
    );
    if (e.manifest.length > 0) section('Manifest', [`- ${e.manifest.map((f) => `\`${f}\``).join(', ')}`]);
  }
  return out.join('\n') + '\n';
}
