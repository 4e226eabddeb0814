// Loading a checkout's content/ into a Registry. Reports every problem it meets (bad YAML, schema
// failures, misplaced files, duplicate IDs) instead of stopping, and remembers where every entity and
// field sits so later checks can point at file:line.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import { KIND_INFO, KINDS, Manifest, SCHEMAS, kindOfId, withArticle, type Entity, type Kind } from '../model/index.ts';
import { fastYaml } from './fast-yaml.ts';
import type { PathSegment } from './references.ts';
import { MANIFEST_FILE } from './checkout.ts';
import { Registry } from './registry.ts';
import { problem, type Location, type Problem, type RuleId } from './rules.ts';
import { didYouMean } from './suggest.ts';
import {
  dataMessage,
  dataProblem,
  isStackOverflow,
  nestingProblem,
  sizeProblem,
  stackOverflowProblem,
  structureProblems,
  type LimitProblem,
} from './yaml-limits.ts';

export { findCheckout, MANIFEST_FILE } from './checkout.ts';

/**
 * Where each entity and each of its fields sits in the content files. It keeps only each file's path: a
 * line is asked for only when a problem is reported, and the file is then parsed again for its nodes.
 * The last few documents parsed are kept, by their text (LOCATED_KEPT, shared by every source map of the
 * process: an atlas validated again, or a copy of it, finds the same files). Keeping every file's YAML
 * document instead held the whole atlas in memory several times over.
 */
export class SourceMap {
  private readonly files = new Map<string, { file: string; path: string }>();

  /** `file`: as reported (relative to the checkout); `path`: where to read it. */
  add(id: string, file: string, path: string): void {
    this.files.set(id, { file, path });
  }

  /** File and line of an entity, or of a field inside it (the nearest existing ancestor if absent). */
  locate(id: string, path: readonly PathSegment[] = []): Location {
    const entry = this.files.get(id);
    if (!entry) return {};
    let text: string;
    try {
      text = readFileSync(entry.path, 'utf8');
    } catch {
      return { file: entry.file };
    }
    let located = LOCATED.get(text);
    if (located) LOCATED.delete(text);
    else {
      located = documentOf(text);
      if (LOCATED.size >= LOCATED_KEPT) LOCATED.delete(LOCATED.keys().next().value!);
    }
    LOCATED.set(text, located);
    return { file: entry.file, line: lineOf(located.doc, located.lines, path) };
  }
}

/** How many parsed documents the source maps keep (the most recently used), by the file's text. */
const LOCATED_KEPT = 64;
const LOCATED = new Map<string, { doc: Document; lines: LineCounter }>();

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

/** The name the manifest (content/atlas.yaml) is located by in the source map: never an entity ID. */
export const MANIFEST_SOURCE = 'atlas.yaml';

/** Stands in for a manifest that failed to load; its problems are already reported. */
const PLACEHOLDER_MANIFEST: Manifest = {
  name: 'Hiring Obstacles & Barriers Atlas',
  registry_version: '0.0.0',
  schema_version: '0.0.0',
  description_version: '0.4.1',
  licences: { code: 'MIT', content: 'CC-BY-SA-4.0' },
  released: '1970-01-01',
  description: 'Manifest missing or invalid',
  not_covered: [],
  distinctions: [],
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
  sourceMap.add(MANIFEST_SOURCE, MANIFEST_FILE, join(dir, MANIFEST_FILE));

  const contentDir = join(dir, 'content');
  const kindOfDir = new Map(KINDS.map((k) => [KIND_INFO[k].dir, k] as const));
  for (const name of listDir(contentDir)) {
    const path = join(contentDir, name);
    if (statSync(path).isDirectory()) {
      if (!kindOfDir.has(name)) {
        for (const f of listDir(path).filter(isYamlName)) {
          problems.push(
            problem(
              'stray-file',
              `This file is in content/${name}/, which holds no kind, so it is ignored. Move it to one of: ${KINDS.map((k) => `content/${KIND_INFO[k].dir}/`).join(', ')}.`,
              { file: rel(join(path, f)) },
            ),
          );
        }
      }
    } else if (isYamlName(name) && name !== 'atlas.yaml') {
      problems.push(
        problem(
          'stray-file',
          'Only atlas.yaml belongs directly in content/; entity files go in a kind directory, so this one is ignored.',
          { file: rel(path) },
        ),
      );
    }
  }

  for (const kind of KINDS) {
    const kindDir = join(contentDir, KIND_INFO[kind].dir);
    for (const name of listDir(kindDir)) {
      const path = join(kindDir, name);
      const file = rel(path);
      if (statSync(path).isDirectory()) {
        problems.push(
          problem('stray-file', `Sub-directories of content/${KIND_INFO[kind].dir}/ are not read; move the files up one level.`, { file }),
        );
        continue;
      }
      if (name.startsWith('.')) continue;
      if (!name.endsWith('.yaml')) {
        if (name.endsWith('.yml'))
          problems.push(problem('file-name', 'Content files end in .yaml; rename this .yml file, otherwise it is ignored.', { file }));
        else problems.push(problem('stray-file', 'Only .yaml files are read from content directories; this one is ignored.', { file }));
        continue;
      }
      const text = readText(path, file, problems);
      if (text === undefined) continue;
      const parsed = parseYaml(text, file, problems);
      if (!parsed) continue;
      const { data } = parsed;
      if (parsed.unreadable) {
        // The file parsed but its values could not be built (a bad alias): still record its ID, so that
        // references to it do not all dangle because of this one file.
        const id = parsed.document().doc.get('id');
        if (typeof id === 'string' && kindOfId(id) === kind && !declaredIn.has(id)) {
          declaredIn.set(id, file);
          declared.set(id, kind);
        }
        continue;
      }
      const at = (p: readonly PathSegment[]) => ({ file, line: parsed.line(p) });

      if (!isPlainObject(data)) {
        problems.push(
          problem('yaml-syntax', `A ${kind} file must hold one YAML mapping (key: value lines), not ${describeValue(data)}.`, {
            file,
            line: 1,
          }),
        );
        continue;
      }
      const id = data['id'];
      if (typeof id !== 'string' || id.length === 0) {
        problems.push(
          problem('schema', `This ${kind} has no "id". Add one such as ${KIND_INFO[kind].prefix}-001 (use the next free number).`, {
            file,
            line: 1,
          }),
        );
        continue;
      }
      const idKind = kindOfId(id);
      if (idKind !== kind) {
        const hint =
          idKind !== undefined
            ? `${id} is ${withArticle(idKind)} ID but the file is in content/${KIND_INFO[kind].dir}/: move it to content/${KIND_INFO[idKind].dir}/ or fix the ID.`
            : `${kind} IDs look like ${KIND_INFO[kind].prefix}-001 (the letter ${KIND_INFO[kind].prefix}, a hyphen and at least three digits).`;
        problems.push(problem('id-shape', `"${id}" is not a valid ${kind} ID: ${hint}`, { entity: id, ...at(['id']) }));
        continue;
      }
      if (!name.startsWith(`${id}-`) && name !== `${id}.yaml`) {
        problems.push(
          problem('file-name', `The file name must start with the entity's ID: rename it to ${id}-<short-title>.yaml.`, {
            entity: id,
            ...at(['id']),
          }),
        );
      }
      const first = declaredIn.get(id);
      if (first !== undefined) {
        problems.push(
          problem(
            'duplicate-id',
            `${id} is already declared in ${first}. IDs are permanent and unique: give this entity the next free ID.`,
            { entity: id, ...at(['id']) },
          ),
        );
        continue;
      }
      declaredIn.set(id, file);
      declared.set(id, kind);
      sourceMap.add(id, file, path);

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
    problems.push(
      problem('manifest', `${MANIFEST_FILE} is missing. Every atlas needs a manifest with its name, versions, licences and release date.`, {
        file: MANIFEST_FILE,
      }),
    );
    return undefined;
  }
  const text = readText(path, MANIFEST_FILE, problems);
  const parsed = text === undefined ? undefined : parseYaml(text, MANIFEST_FILE, problems);
  if (!parsed || parsed.unreadable) return undefined;
  const result = Manifest.safeParse(parsed.data, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    problems.push(
      problem('manifest', schemaMessage('manifest', issue), {
        file: MANIFEST_FILE,
        line: parsed.line(issue.path as PathSegment[]),
      }),
    );
  }
  return undefined;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LENIENT_UTF8 = new TextDecoder('utf-8');

/**
 * Characters that have no place in text meant for people: C0 and C1 controls other than tab, line feed
 * and carriage return, noncharacters (U+FFFE, U+FDD0…) and unpaired surrogates (only a YAML escape can
 * make one), and the invisible format characters that change how text reads without showing: U+FEFF
 * anywhere but the very start of a file (a second byte-order mark, or one inside a title), the zero-width
 * space and word joiner, and the bidirectional marks, embeddings and isolates ("Trojan Source" text).
 * They are invisible in editors and would be published as they are.
 */
const FORBIDDEN_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it matches
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\p{Noncharacter_Code_Point}\p{Cs}\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;
const HAS_FORBIDDEN_CHARACTER = new RegExp(FORBIDDEN_CHARACTER.source, 'u');

function forbiddenIn(text: string): string[] {
  return [...new Set(text.match(FORBIDDEN_CHARACTER) ?? [])].map((ch) => {
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    if (/\p{Cc}/u.test(ch)) return `the control character ${code}`;
    if (/\p{Cs}/u.test(ch)) return `the unpaired surrogate ${code}`;
    if (ch === '\uFEFF') return `the invisible character ${code} (a byte-order mark that is not the first character of the file)`;
    return /\p{Cf}/u.test(ch) ? `the invisible format character ${code}` : `the noncharacter ${code}`;
  });
}

/**
 * A content file's text, read as bytes so that invalid UTF-8 is reported (with the line of the first bad
 * byte) instead of silently becoming U+FFFD, and with every line holding a forbidden character reported.
 * The text is returned even then (decoded leniently), so the file's entity still loads and the rest of
 * the atlas is checked against it. A leading byte-order mark is dropped; CRLF line ends are fine.
 */
function readText(path: string, file: string, problems: Problem[]): string | undefined {
  const tooLarge = sizeProblem(statSync(path).size);
  if (tooLarge) {
    problems.push(limitProblem(tooLarge, file));
    return undefined;
  }
  const bytes = readFileSync(path);
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    problems.push(
      problem(
        'text-encoding',
        'This line holds bytes that are not valid UTF-8 (the first bad byte is here); they would be published as "\uFFFD". Re-save the file as UTF-8 and check the characters on this line.',
        { file, line: firstInvalidUtf8Line(bytes) },
      ),
    );
    text = LENIENT_UTF8.decode(bytes);
  }
  // One pass over the whole text first: clean files (nearly all) are not split into lines.
  if (HAS_FORBIDDEN_CHARACTER.test(text)) {
    text.split('\n').forEach((lineText, i) => {
      const found = forbiddenIn(lineText);
      if (found.length > 0) problems.push(problem('text-encoding', forbiddenMessage(found), { file, line: i + 1 }));
    });
  }
  return text;
}

function forbiddenMessage(found: string[]): string {
  return `This line holds ${found.join(', ')}, invisible in most editors and never meant for readers. Delete it: content is plain text, where tab, line feed and carriage return are the only control characters allowed, and one byte-order mark may open the file.`;
}

/** The line of the first byte that is not valid UTF-8. A line feed byte never occurs inside a multi-byte
 * sequence, so decoding line by line finds it. */
function firstInvalidUtf8Line(bytes: Uint8Array): number {
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      STRICT_UTF8.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    if (end === -1) break;
    start = end + 1;
  }
  return line;
}

/**
 * How many alias expansions a content file may make (the yaml package's check: expansions times the
 * aliases inside the anchored value). Content has no need of deep aliasing; the bound keeps a "billion
 * laughs" file from exhausting memory.
 */
const MAX_ALIAS_COUNT = 100;

/** A parsed file: its values, and the line of any field; `unreadable` when the values could not be built
 * (the problem is reported). Undefined when the YAML itself is malformed. */
interface ParsedYaml {
  data: unknown;
  unreadable: boolean;
  /** The YAML document and its line index (built on first use when the fast reader read the file). */
  document(): { doc: Document; lines: LineCounter };
  /** Line of the node at `path`, or of its nearest existing ancestor. */
  line(path: readonly PathSegment[]): number;
}

/** The YAML document of a text. Repeated keys are found by structureProblems (yaml-limits.ts) in one walk:
 * the package's own check (uniqueKeys) compares every key with every other. */
function documentOf(text: string): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false }), lines };
}

const limitProblem = (p: LimitProblem, file: string): Problem =>
  problem('yaml-syntax', p.message, { file, ...(p.line !== undefined ? { line: p.line } : {}) });

function parsed(data: unknown, unreadable: boolean, document: () => { doc: Document; lines: LineCounter }): ParsedYaml {
  return {
    data,
    unreadable,
    document,
    line: (path) => {
      const { doc, lines } = document();
      return lineOf(doc, lines, path);
    },
  };
}

function parseYaml(text: string, file: string, problems: Problem[]): ParsedYaml | undefined {
  // Nesting is bounded before anything recurses into the file (yaml-limits.ts).
  const deep = nestingProblem(text);
  if (deep) {
    problems.push(limitProblem(deep, file));
    return undefined;
  }
  try {
    return parseWithin(text, file, problems);
  } catch (err) {
    // The nesting check is an estimate from the text; a stack overflow is still the same problem.
    if (!isStackOverflow(err)) throw err;
    problems.push(limitProblem(stackOverflowProblem(), file));
    return undefined;
  }
}

function parseWithin(text: string, file: string, problems: Problem[]): ParsedYaml | undefined {
  // Files in the plain subset of YAML that content is written in are read by fastYaml (same values, many
  // times faster); the YAML document, with its line positions, is then built only if a problem needs it.
  // Escapes (any backslash) are left to the library, which reports a forbidden character they produce.
  const fast = fastYaml(text);
  if (fast !== undefined) {
    let document: { doc: Document; lines: LineCounter } | undefined;
    return parsed(fast, false, () => (document ??= documentOf(text)));
  }
  const { doc, lines } = documentOf(text);
  const document = () => ({ doc, lines });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const line = lines.linePos(err.pos[0]).line;
      problems.push(
        problem(
          'yaml-syntax',
          `Malformed YAML: ${err.message}. Check indentation, colons and quoting here (quote text that contains ": ").`,
          { file, line },
        ),
      );
    }
    return undefined;
  }
  // Tags, keys that are not words, repeated keys and too many aliases: the values are not built (the
  // file's ID is still declared, so references to it do not dangle because of this one file).
  const structure = structureProblems(doc, lines);
  if (structure.length > 0) {
    for (const p of structure)
      problems.push(p.duplicate ? problem('yaml-duplicate-key', p.message, { file, line: p.line ?? 1 }) : limitProblem(p, file));
    return parsed(undefined, true, document);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (isStackOverflow(err)) throw err;
    // toJS throws when an alias names no earlier anchor, or when aliases expand past the bound.
    problems.push(aliasProblem(doc, lines, file, err));
    return parsed(undefined, true, document);
  }
  // Aliases can make deep or large values from a few short lines: bound what they expand to.
  const tooMuch = dataProblem(data);
  if (tooMuch) {
    let first: number | undefined;
    visit(doc, {
      Alias(_, node) {
        first = node.range ? lines.linePos(node.range[0]).line : undefined;
        return visit.BREAK;
      },
    });
    problems.push(problem('yaml-syntax', dataMessage(tooMuch), { file, line: first ?? 1 }));
    return parsed(undefined, true, document);
  }
  reportEscapedCharacters(doc, lines, text, file, problems);
  return parsed(data, false, document);
}

/** The yaml-syntax problem for an alias that toJS refused, at the line of the alias at fault. */
function aliasProblem(doc: Document, lines: LineCounter, file: string, err: unknown): Problem {
  let unresolved: { source: string; offset: number } | undefined;
  let first: number | undefined;
  visit(doc, {
    Alias(_, node) {
      const offset = node.range?.[0] ?? 0;
      first ??= offset;
      if (node.resolve(doc) === undefined) {
        unresolved = { source: node.source, offset };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  const at = (offset: number | undefined) => ({ file, line: offset === undefined ? 1 : lines.linePos(offset).line });
  if (unresolved) {
    return problem(
      'yaml-syntax',
      `The alias *${unresolved.source} refers to no anchor: YAML needs "&${unresolved.source}" on an earlier value. Define the anchor before the alias, or write the value out in full.`,
      at(unresolved.offset),
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  if (/alias count/i.test(reason)) {
    return problem(
      'yaml-syntax',
      `The aliases in this file expand to too much data (more than ${MAX_ALIAS_COUNT} alias expansions, the shape of a "billion laughs" attack). Write the values out instead of nesting aliases.`,
      at(first),
    );
  }
  return problem('yaml-syntax', `The YAML could not be read: ${reason}. Check the aliases (*name) and anchors (&name) here.`, at(first));
}

/**
 * Forbidden characters that a double-quoted escape (\0, \a, \x07, \uFFFE…) puts in a value without
 * any raw byte in the file. Scalars whose source holds the raw character were reported by readText.
 */
function reportEscapedCharacters(doc: Document, lines: LineCounter, text: string, file: string, problems: Problem[]): void {
  if (!text.includes('\\')) return; // no escape anywhere
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value !== 'string' || !node.range) return;
      const found = forbiddenIn(node.value);
      if (found.length === 0 || forbiddenIn(text.slice(node.range[0], node.range[1])).length > 0) return;
      problems.push(
        problem(
          'text-encoding',
          `An escape in this quoted text produces ${found.join(', ')}, invisible in most editors and never meant for readers. Remove the escape.`,
          { file, line: lines.linePos(node.range[0]).line },
        ),
      );
    },
  });
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
  const field =
    issue.path.length > 0
      ? issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : '';
  const where = field ? `${field}: ` : '';
  const schema = kind === 'manifest' ? Manifest : SCHEMAS[kind];
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = issue.path.length === 0 ? Object.keys(schema.shape) : [];
      return issue.keys
        .map(
          (k) =>
            `${where}unknown key "${k}".${didYouMean(k, allowed)} Remove it or fix its spelling${allowed.length ? ` (allowed keys: ${allowed.join(', ')})` : ''}.`,
        )
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
      const found = target ? `, but ${issue.input} is ${withArticle(target)}` : '';
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
