// Loading a checkout's content/ into a Registry. Reports every problem it meets (bad YAML, schema
// failures, misplaced files, duplicate IDs) instead of stopping, and remembers where every entity and
// field sits so later checks can point at file:line.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { KIND_INFO, KINDS, Manifest, SCHEMAS, kindOfId, type Entity, type Kind } from '../model/index.ts';
import type { PathSegment } from './references.ts';
import { MANIFEST_FILE } from './checkout.ts';
import { Registry } from './registry.ts';
import { problem, type Location, type Problem, type RuleId } from './rules.ts';
import { didYouMean } from './suggest.ts';

export { findCheckout, MANIFEST_FILE } from './checkout.ts';

/** Where each entity and each of its fields sits in the content files. */
export class SourceMap {
  private readonly files = new Map<string, { file: string; doc: Document; lines: LineCounter }>();

  add(id: string, file: string, doc: Document, lines: LineCounter): void {
    this.files.set(id, { file, doc, lines });
  }

  /** File and line of an entity, or of a field inside it (the nearest existing ancestor if absent). */
  locate(id: string, path: readonly PathSegment[] = []): Location {
    const entry = this.files.get(id);
    if (!entry) return {};
    return { file: entry.file, line: lineOf(entry.doc, entry.lines, path) };
  }
}

export interface LoadResult {
  /** Absolute path of the checkout. */
  dir: string;
  /** Entities that passed their schema. When the manifest is broken, a placeholder stands in. */
  registry: Registry;
  /** Every ID declared by a file, valid or not, with its kind (so one bad file does not make every
   * reference to it dangle). */
  declared: Map<string, Kind>;
  sourceMap: SourceMap;
  problems: Problem[];
}

/** Stands in for a manifest that failed to load; its problems are already reported. */
const PLACEHOLDER_MANIFEST: Manifest = {
  name: 'Hiring Obstacles & Barriers Atlas',
  registry_version: '0.0.0',
  schema_version: '0.0.0',
  description_version: '0.4.1',
  licences: { code: 'MIT', content: 'CC-BY-SA-4.0' },
  released: '1970-01-01',
  description: 'Manifest missing or invalid',
};

/** Field-level schema failures that have a rule of their own (reported under it, not `schema`). */
const FIELD_RULES: Partial<Record<Kind, Record<string, RuleId>>> = {
  artifact: { non_inferences: 'artifact-non-inferences', probes: 'artifact-probes' },
  pattern: { non_inferences: 'pattern-non-inferences', establishes: 'pattern-non-inferences' },
  mechanism: { operates_at: 'mechanism-relations', emits: 'mechanism-relations' },
  intervention: {
    targets: 'intervention-targets',
    measurements: 'intervention-measurements',
    expected_effects: 'intervention-measurements',
  },
};

export function loadAtlas(dir: string): LoadResult {
  const problems: Problem[] = [];
  const sourceMap = new SourceMap();
  const declared = new Map<string, Kind>();
  const declaredIn = new Map<string, string>();
  const entities: Entity[] = [];
  const rel = (path: string) => relative(dir, path).split(sep).join('/');

  const manifest = loadManifest(dir, problems);

  const contentDir = join(dir, 'content');
  const kindOfDir = new Map(KINDS.map((k) => [KIND_INFO[k].dir, k] as const));
  for (const name of listDir(contentDir)) {
    const path = join(contentDir, name);
    if (statSync(path).isDirectory()) {
      if (!kindOfDir.has(name)) {
        for (const f of listDir(path).filter(isYamlName)) {
          problems.push(
            problem('stray-file', `This file is in content/${name}/, which holds no kind, so it is ignored. Move it to one of: ${KINDS.map((k) => `content/${KIND_INFO[k].dir}/`).join(', ')}.`, { file: rel(join(path, f)) }),
          );
        }
      }
    } else if (isYamlName(name) && name !== 'atlas.yaml') {
      problems.push(problem('stray-file', 'Only atlas.yaml belongs directly in content/; entity files go in a kind directory, so this one is ignored.', { file: rel(path) }));
    }
  }

  for (const kind of KINDS) {
    const kindDir = join(contentDir, KIND_INFO[kind].dir);
    for (const name of listDir(kindDir)) {
      const path = join(kindDir, name);
      const file = rel(path);
      if (statSync(path).isDirectory()) {
        problems.push(problem('stray-file', `Sub-directories of content/${KIND_INFO[kind].dir}/ are not read; move the files up one level.`, { file }));
        continue;
      }
      if (name.startsWith('.')) continue;
      if (!name.endsWith('.yaml')) {
        if (name.endsWith('.yml')) problems.push(problem('file-name', 'Content files end in .yaml; rename this .yml file, otherwise it is ignored.', { file }));
        else problems.push(problem('stray-file', 'Only .yaml files are read from content directories; this one is ignored.', { file }));
        continue;
      }
      const parsed = parseYaml(readFileSync(path, 'utf8'), file, problems);
      if (!parsed) continue;
      const { doc, lines, data } = parsed;
      const at = (p: readonly PathSegment[]) => ({ file, line: lineOf(doc, lines, p) });

      if (!isPlainObject(data)) {
        problems.push(problem('yaml-syntax', `A ${kind} file must hold one YAML mapping (key: value lines), not ${describeValue(data)}.`, { file, line: 1 }));
        continue;
      }
      const id = data['id'];
      if (typeof id !== 'string' || id.length === 0) {
        problems.push(problem('schema', `This ${kind} has no "id". Add one such as ${KIND_INFO[kind].prefix}-001 (use the next free number).`, { file, line: 1 }));
        continue;
      }
      const idKind = kindOfId(id);
      if (idKind !== kind) {
        const hint =
          idKind !== undefined
            ? `${id} is a ${idKind} ID but the file is in content/${KIND_INFO[kind].dir}/: move it to content/${KIND_INFO[idKind].dir}/ or fix the ID.`
            : `${kind} IDs look like ${KIND_INFO[kind].prefix}-001 (the letter ${KIND_INFO[kind].prefix}, a hyphen and at least three digits).`;
        problems.push(problem('id-shape', `"${id}" is not a valid ${kind} ID: ${hint}`, { entity: id, ...at(['id']) }));
        continue;
      }
      if (!name.startsWith(`${id}-`) && name !== `${id}.yaml`) {
        problems.push(problem('file-name', `The file name must start with the entity's ID: rename it to ${id}-<short-title>.yaml.`, { entity: id, ...at(['id']) }));
      }
      const first = declaredIn.get(id);
      if (first !== undefined) {
        problems.push(problem('duplicate-id', `${id} is already declared in ${first}. IDs are permanent and unique: give this entity the next free ID.`, { entity: id, ...at(['id']) }));
        continue;
      }
      declaredIn.set(id, file);
      declared.set(id, kind);
      sourceMap.add(id, file, doc, lines);

      const result = SCHEMAS[kind].safeParse(data, { reportInput: true });
      if (!result.success) {
        for (const issue of result.error.issues) {
          problems.push(problem(ruleOf(kind, issue), schemaMessage(kind, issue), { entity: id, ...at(issue.path as PathSegment[]) }));
        }
        continue;
      }
      entities.push({ ...result.data, kind } as Entity);
    }
  }

  return {
    dir,
    registry: new Registry({ manifest: manifest ?? PLACEHOLDER_MANIFEST, entities }),
    declared,
    sourceMap,
    problems,
  };
}

function loadManifest(dir: string, problems: Problem[]): Manifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) {
    problems.push(problem('manifest', `${MANIFEST_FILE} is missing. Every atlas needs a manifest with its name, versions, licences and release date.`, { file: MANIFEST_FILE }));
    return undefined;
  }
  const parsed = parseYaml(readFileSync(path, 'utf8'), MANIFEST_FILE, problems);
  if (!parsed) return undefined;
  const result = Manifest.safeParse(parsed.data, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    problems.push(
      problem('manifest', schemaMessage('manifest', issue), {
        file: MANIFEST_FILE,
        line: lineOf(parsed.doc, parsed.lines, issue.path as PathSegment[]),
      }),
    );
  }
  return undefined;
}

function parseYaml(text: string, file: string, problems: Problem[]) {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const line = lines.linePos(err.pos[0]).line;
      if (err.code === 'DUPLICATE_KEY') {
        problems.push(problem('yaml-duplicate-key', 'A key appears twice in the same mapping; YAML would silently keep only one. Delete or merge the repeated key.', { file, line: duplicateKeyLine(doc, lines) ?? line }));
      } else {
        problems.push(problem('yaml-syntax', `Malformed YAML: ${err.message}. Check indentation, colons and quoting here (quote text that contains ": ").`, { file, line }));
      }
    }
    return undefined;
  }
  return { doc, lines, data: doc.toJS() as unknown };
}

/** The line of the second occurrence of a repeated key, found by walking the document's maps. */
function duplicateKeyLine(doc: Document, lines: LineCounter): number | undefined {
  let found: number | undefined;
  const visit = (node: unknown): void => {
    if (found !== undefined || node === null || typeof node !== 'object') return;
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
        const range = (pair.key as { range?: [number, number, number] } | null)?.range;
        if (seen.has(key) && range) {
          found = lines.linePos(range[0]).line;
          return;
        }
        seen.add(key);
        visit(pair.value);
      }
    } else if ('items' in node && Array.isArray((node as { items: unknown[] }).items)) {
      for (const item of (node as { items: unknown[] }).items) visit(item);
    }
  };
  visit(doc.contents);
  return found;
}

/** Line of the node at `path`, or of its nearest existing ancestor. */
function lineOf(doc: Document, lines: LineCounter, path: readonly PathSegment[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return lines.linePos(range[0]).line;
  }
  return 1;
}

/** The rule a schema issue falls under: a field rule, a reference to the wrong kind, or plain schema. */
function ruleOf(kind: Kind, issue: z.core.$ZodIssue): RuleId {
  const fieldRule = issue.path.length === 1 ? FIELD_RULES[kind]?.[String(issue.path[0])] : undefined;
  if (fieldRule) return fieldRule;
  if (issue.code === 'invalid_format' && typeof issue.input === 'string' && kindOfId(issue.input)) return 'wrong-kind-reference';
  return 'schema';
}

function schemaMessage(kind: Kind | 'manifest', issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '';
  const where = field ? `${field}: ` : '';
  const schema = kind === 'manifest' ? Manifest : SCHEMAS[kind];
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = issue.path.length === 0 ? Object.keys(schema.shape) : [];
      return issue.keys
        .map((k) => `${where}unknown key "${k}".${didYouMean(k, allowed)} Remove it or fix its spelling${allowed.length ? ` (allowed keys: ${allowed.join(', ')})` : ''}.`)
        .join(' ');
    }
    case 'invalid_value':
      return `${where}${JSON.stringify(issue.input)} is not allowed. Use one of: ${issue.values.map(String).join(', ')}.${didYouMean(String(issue.input), issue.values.map(String))}`;
    case 'invalid_type':
      if (issue.input === undefined) return `${where}missing required field. Add "${String(issue.path.at(-1))}" to this ${kind}.`;
      return `${where}expected ${issue.expected}, found ${describeValue(issue.input)}.`;
    case 'too_small':
      return `${where}${issue.message}.`;
    case 'invalid_format': {
      const target = typeof issue.input === 'string' ? kindOfId(issue.input) : undefined;
      const found = target ? `, but ${issue.input} is a ${target}` : '';
      return `${where}${JSON.stringify(issue.input)} ${issue.message}${found}.`;
    }
    default:
      return `${where}${issue.message}.`;
  }
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isYamlName(name: string): boolean {
  return name.endsWith('.yaml') || name.endsWith('.yml');
}

function listDir(path: string): string[] {
  if (!existsSync(path)) return [];
  return readdirSync(path).sort();
}

