// The bounds a content file must stay within before it is parsed, and the YAML features content does not
// use, checked so that no file can crash the loader or make it slow: deep nesting overflowed the stack
// (2,500 nested keys), the `yaml` package's duplicate-key check is quadratic in a mapping's keys (40,000
// keys took 31 s) and resolving an alias walks the whole document (a 115 KB file of aliases took 211 s),
// and a few aliases of one large anchored value made a 430 MiB site. Each limit is far above anything the
// atlas holds (its largest file is under 20 KB, its deepest value 6 levels down), and each is reported as
// `yaml-syntax` naming the file and line, with what to do. README.md (Validation) lists them.
import { isAlias, isCollection, isMap, isScalar, visit, type Document, type LineCounter } from 'yaml';

export const CONTENT_LIMITS = {
  /** Bytes of one content file. */
  fileBytes: 1024 * 1024,
  /** Nesting of mappings and sequences in one file (the top-level mapping is level 1). */
  depth: 64,
  /** Aliases (*name) in one file. */
  aliases: 100,
  /** Characters of a file's values once its aliases are expanded (keys and scalars counted): a file's data
   * can be no larger than a file within the size limit could hold written out. */
  expandedChars: 1024 * 1024,
} as const;

export interface LimitProblem {
  message: string;
  /** 1-based line, when there is one. */
  line?: number | undefined;
}

const KIB = (n: number) => `${Math.round(n / 1024)} KiB`;

/** Whether the file's size is within the limit (checked on its bytes, before it is decoded). */
export function sizeProblem(bytes: number): LimitProblem | undefined {
  if (bytes <= CONTENT_LIMITS.fileBytes) return undefined;
  return {
    message: `This file is ${KIB(bytes)}; a content file may hold at most ${KIB(CONTENT_LIMITS.fileBytes)}, so it was not read. One file holds one entity: split what does not belong to it into entities of their own, or shorten it.`,
    line: 1,
  };
}

/** A block scalar header ends its line: `key: |`, `- >-`, `key: |2+ # comment`. Its content lines are text. */
const BLOCK_SCALAR_HEADER = /(?:^|:\s+|^-\s+|\s-\s+)[|>][0-9+-]*\s*(?:#.*)?$/;

/**
 * The first line at which the nesting of the file may exceed the depth limit, from its text alone (before
 * any parser recurses into it): the open block levels by indentation, the dashes that open sequences on
 * the line, and the open flow brackets ([ {) outside quotes. It over-counts rather than under-counts
 * (a multi-line plain scalar counts as a level), which costs nothing at a limit ten times the atlas's depth.
 */
export function nestingProblem(text: string): LimitProblem | undefined {
  const levels: number[] = [];
  let flow = 0;
  let scalarIndent = -1;
  let lineNo = 0;
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    lineNo++;
    let indent = 0;
    while (indent < raw.length && raw.charCodeAt(indent) === 32) indent++;
    const body = raw.slice(indent).trimEnd();
    if (body === '') {
      if (end === text.length) break;
      continue;
    }
    if (scalarIndent >= 0) {
      if (indent > scalarIndent) continue;
      scalarIndent = -1;
    }
    if (body.startsWith('#')) continue;
    while (levels.length > 0 && levels[levels.length - 1]! > indent) levels.pop();
    if (levels.length === 0 || levels[levels.length - 1]! < indent) levels.push(indent);
    let dashes = 0;
    for (let i = 0; i < body.length && body[i] === '-' && (i + 1 === body.length || body[i + 1] === ' '); i += 2) {
      dashes++;
      while (i + 2 < body.length && body[i + 2] === ' ') i++;
    }
    const brackets = flowBrackets(body);
    const peak = flow + brackets.peak;
    flow = Math.max(0, flow + brackets.delta);
    if (levels.length + dashes + peak > CONTENT_LIMITS.depth) {
      return { message: nestingMessage(), line: lineNo };
    }
    if (BLOCK_SCALAR_HEADER.test(body)) scalarIndent = indent;
    if (end === text.length) break;
  }
  return undefined;
}

const nestingMessage = () =>
  `The YAML here is nested more than ${CONTENT_LIMITS.depth} levels deep, so the file was not read (content is a few levels deep: keys, lists and their items). Flatten it.`;

/** Open minus closed flow brackets on a line, outside quoted text and comments, and the most open at once. */
function flowBrackets(line: string): { delta: number; peak: number } {
  let delta = 0;
  let peak = 0;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || line[i - 1] === ' ')) break;
    else if (c === '[' || c === '{') peak = Math.max(peak, ++delta);
    else if (c === ']' || c === '}') delta--;
  }
  return { delta, peak };
}

/** A stack overflow while parsing or converting (the nesting check is an estimate): the same problem. */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

export const stackOverflowProblem = (): LimitProblem => ({ message: nestingMessage(), line: 1 });

export interface StructureProblem extends LimitProblem {
  duplicate?: true;
}

/**
 * What a parsed document holds that content never uses, and repeated keys, in one walk (linear in the
 * document, unlike the `yaml` package's own duplicate-key check): tags (`!x`, `!!binary`, which change what
 * a value is read as: a Buffer, a Set…), keys that are not plain scalars (an alias or a collection as a
 * key), and more aliases than the limit (each is resolved by walking the whole document).
 */
export function structureProblems(doc: Document, lines: LineCounter): StructureProblem[] {
  const found: StructureProblem[] = [];
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined) =>
    node?.range ? lines.linePos(node.range[0]).line : undefined;
  let aliases = 0;
  let firstAlias: number | undefined;
  visit(doc, (_, node) => {
    if (isAlias(node)) {
      aliases++;
      firstAlias ??= lineOf(node);
      return;
    }
    if (!isScalar(node) && !isCollection(node)) return;
    if (node.tag !== undefined) {
      const shown = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
      found.push({
        message: `The tag ${shown} is not used in content: YAML tags change what a value is read as (a number, binary data, a set…). Remove it and write the value as plain text; quote it if it must stay text.`,
        line: lineOf(node),
      });
    }
    if (!isMap(node)) return;
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = pair.key;
      if (!isScalar(key)) {
        const what = isAlias(key) ? `an alias (*${key.source})` : isCollection(key) ? 'a list or mapping' : 'missing';
        found.push({
          message: `A key here is ${what}; content keys are plain words (id, title, summary…). Write the key out.`,
          line: lineOf(key as { range?: [number, number, number] } | null) ?? lineOf(node),
        });
        continue;
      }
      const name = String(key.value);
      if (seen.has(name)) {
        found.push({
          message: 'A key appears twice in the same mapping; YAML would silently keep only one. Delete or merge the repeated key.',
          line: lineOf(key),
          duplicate: true,
        });
      }
      seen.add(name);
    }
  });
  if (aliases > CONTENT_LIMITS.aliases) {
    found.push({
      message: `This file has ${aliases} aliases (*name); content files may have at most ${CONTENT_LIMITS.aliases}, so it was not read. Write the values out.`,
      line: firstAlias,
    });
  }
  return found;
}

/**
 * Whether a file's values, with aliases expanded, are nested too deeply or hold more characters than the
 * limit (an anchored value repeated by aliases is written out that many times by every surface). The walk
 * stops as soon as a bound is passed, so its own cost is bounded too.
 */
export function dataProblem(data: unknown): 'depth' | 'size' | undefined {
  let chars = 0;
  const stack: Array<[unknown, number]> = [[data, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') chars += value.length;
    else if (value === null || typeof value !== 'object') chars += String(value).length;
    else {
      if (depth >= CONTENT_LIMITS.depth) return 'depth';
      if (Array.isArray(value)) for (const v of value) stack.push([v, depth + 1]);
      else if (value instanceof Map || value instanceof Set || ArrayBuffer.isView(value)) chars += 1;
      else
        for (const [k, v] of Object.entries(value)) {
          chars += k.length;
          stack.push([v, depth + 1]);
        }
    }
    if (chars > CONTENT_LIMITS.expandedChars) return 'size';
  }
  return undefined;
}

export function dataMessage(kind: 'depth' | 'size'): string {
  return kind === 'depth'
    ? nestingMessage()
    : `The values of this file, with its aliases (*name) expanded, hold more than ${KIB(CONTENT_LIMITS.expandedChars)} of text, the most a content file may hold written out. Write the values out once instead of repeating them through aliases.`;
}
