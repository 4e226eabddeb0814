// A small YAML writer for the synthetic atlas, in the style of the hand-written content files: keys in
// the order given, short ID lists in flow style, long prose as folded block scalars. It is not a
// general YAML serialiser: it quotes anything it is not sure of, and the smoke test checks that every
// file it writes parses back to the record it was given.

export type Value = string | number | boolean | null | readonly Value[] | { readonly [key: string]: Value | undefined };

const WIDTH = 100;
// Words YAML 1.1 reads as booleans or null: quoted, as the real atlas quotes "n" and "yes".
const SPECIAL = /^(true|false|null|yes|no|y|n|on|off|~)$/i;
const PLAIN = /^[A-Za-z][\w ,.()'&-]*$/;
const FLOW_ITEM = /^[A-Za-z][A-Za-z0-9-]*$/;

function scalar(s: string): string {
  return PLAIN.test(s) && !SPECIAL.test(s) && !s.endsWith(' ') && !s.includes('  ') ? s : JSON.stringify(s);
}

const isScalar = (v: Value): v is string | number | boolean | null => v === null || typeof v !== 'object';

function inline(v: string | number | boolean | null): string {
  return typeof v === 'string' ? scalar(v) : String(v);
}

/** Prose too long for one line, or with paragraphs: a folded block, wrapped at WIDTH. */
function needsBlock(s: string): boolean {
  return s.includes('\n') || s.length > WIDTH - 20;
}

function folded(s: string, indent: string): string {
  const lines: string[] = [];
  for (const [i, paragraph] of s.split('\n\n').entries()) {
    // In a folded scalar one empty line is a line break; two make the blank line between paragraphs.
    if (i > 0) lines.push('', '');
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > WIDTH - indent.length) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return '>-\n' + lines.map((l) => (l ? indent + l : '')).join('\n');
}

/** Lines kept as they are (a specimen's text): a literal block, when no line starts or ends with a space. */
const literal = (s: string) =>
  s.includes('\n') && !s.endsWith('\n') && s.split('\n').every((l) => !/[^\S ]|^ | $/.test(l)) && !s.startsWith('\n');

/** Paragraphs of single-spaced words: what a folded block reproduces exactly. Anything else is quoted. */
const foldable = (s: string) => s.split('\n\n').every((p) => p.length > 0 && !/[^\S ]|  |^ | $/.test(p));

/**
 * The text after "key:" or "-": a scalar on the same line, or the lines below. `indent` is that of the
 * line holding the key or the dash; what belongs to the value is indented two more.
 */
function valueText(v: Value, indent: string): string {
  if (isScalar(v)) {
    if (typeof v === 'string' && needsBlock(v) && foldable(v)) return ' ' + folded(v, indent + '  ');
    if (typeof v === 'string' && literal(v))
      return (
        ' |-\n' +
        v
          .split('\n')
          .map((l) => (l ? indent + '  ' + l : ''))
          .join('\n')
      );
    return ' ' + inline(v);
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    if (v.every((x) => typeof x === 'string' && FLOW_ITEM.test(x) && !SPECIAL.test(x))) {
      const flow = `[${v.join(', ')}]`;
      if (flow.length + indent.length < WIDTH) return ' ' + flow;
    }
    return '\n' + v.map((item) => `${indent}  -${itemText(item, indent + '  ')}`).join('\n');
  }
  const body = mapping(v as Record<string, Value | undefined>, indent + '  ');
  return body ? '\n' + body : ' {}';
}

function itemText(v: Value, indent: string): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    // "- key: value", the other keys aligned under the first.
    return ' ' + mapping(v as Record<string, Value | undefined>, indent + '  ').slice(indent.length + 2);
  }
  return valueText(v, indent);
}

function mapping(record: Record<string, Value | undefined>, indent: string): string {
  return Object.entries(record)
    .filter((entry): entry is [string, Value] => entry[1] !== undefined)
    .map(([key, value]) => `${indent}${scalar(key)}:${valueText(value, indent)}`)
    .join('\n');
}

/** A YAML document holding one mapping, with an optional leading comment. */
export function toYaml(record: Record<string, Value | undefined>, comment?: string): string {
  const head = comment
    ? comment
        .split('\n')
        .map((l) => `# ${l}`)
        .join('\n') + '\n'
    : '';
  return `${head}${mapping(record, '')}\n`;
}

/** A YAML document holding a list of mappings (the bibliography), with an optional leading comment. */
export function toYamlList(records: ReadonlyArray<Record<string, Value | undefined>>, comment?: string): string {
  const head = comment
    ? comment
        .split('\n')
        .map((l) => `# ${l}`)
        .join('\n') + '\n'
    : '';
  return head + records.map((r) => `-${itemText(r, '')}\n`).join('\n');
}
