// A fast reader for the plain subset of YAML that content files are written in: block mappings and
// sequences, plain scalars (over one line or several) and simply quoted ones, flow sequences of IDs
// (wrapped or not), one-line flow mappings of words ({ probe: x, outcome: y }), folded and literal block
// scalars, comments. It exists because parsing with the `yaml` package (a full YAML 1.2 parser that
// builds a document of nodes) is most of the time `validate` and `build` take on a large atlas; this
// reads the same files about ten times faster.
//
// It never guesses: anything outside the subset (anchors, aliases, tags, nested or wrapped flow mappings,
// multi-line quoted scalars, plain ones with blank or comment lines inside, escapes, tabs, CR line ends, duplicate keys, numbers other than plain integers…)
// returns undefined, and the caller parses the file with the `yaml` package instead, which also reports
// every error with its line. Whatever it returns is exactly what `parseDocument(text).toJS()` returns
// (YAML 1.2 core schema); test/unit/fast-yaml.test.ts checks that on every content file, on corner cases and
// on content files edited with Unicode spaces, tabs and odd line ends (a differential fuzz test).
//
// YAML's whitespace is the space and the tab, its line breaks LF and CR; JavaScript's trim() and \s also
// take the Unicode spaces (NBSP, U+2000–U+200A, U+202F, U+3000…), U+FEFF, VT, FF and U+2028/U+2029. So a
// file holding any of those is left to the library: read here, `year: 2000\u202f` would be the number 2000.

/** Thrown inside the reader when the text leaves the subset; caught by fastYaml. */
class OutsideSubset extends Error {}
const outside = (): never => {
  throw new OutsideSubset();
};

interface Line {
  indent: number;
  /** The line without its indentation. */
  text: string;
  /** The raw line (block scalars need the spaces beyond their indentation). */
  raw: string;
}

/** A key: a word, or a word in double quotes ("n", which YAML 1.1 would read as false). */
const KEY = /^(?:([A-Za-z_][A-Za-z0-9_-]*)|"([A-Za-z_][A-Za-z0-9_-]*)"):(?: |$)/;
/** What may start a plain scalar here: letters, digits and a few safe punctuation marks. */
const PLAIN_START = /^[\p{L}\p{N}(/$€£]/u;
/** A plain scalar the core schema reads as a number other than a plain integer (yaml's own tests). */
const OTHER_NUMBER =
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)|0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/;
const INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;
const FLOW_ITEM = /^[\p{L}\p{N}][\p{L}\p{N}_.()/ -]*$/u;
/** An entry of a flow mapping: a key as in a block mapping, ": ", then its value. */
const FLOW_ENTRY = /^(?:([A-Za-z_][A-Za-z0-9_-]*)|"([A-Za-z_][A-Za-z0-9_-]*)"): (.+)$/;

/** Characters JavaScript counts as whitespace or line ends and YAML does not (see the header), and NEL. */
const NOT_YAML_WHITESPACE = /[\v\f\u0085\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;

/** The data of a YAML file in the subset, or undefined when the `yaml` package must read it. */
export function fastYaml(text: string): unknown {
  if (text.includes('\t') || text.includes('\r') || text.includes('\\') || NOT_YAML_WHITESPACE.test(text)) return undefined;
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    const body = raw.trimStart();
    lines.push({ indent: raw.length - body.length, text: body.trimEnd(), raw });
  }
  try {
    const reader = new Reader(lines);
    const first = reader.nextContent();
    if (first === undefined) return undefined; // an empty document: let the library say what it is
    if (first.indent !== 0) return undefined;
    const value = reader.block(0);
    if (reader.nextContent() !== undefined) return undefined;
    return value;
  } catch (err) {
    if (err instanceof OutsideSubset) return undefined;
    throw err;
  }
}

class Reader {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  /** The next line that holds content (not blank, not a comment), without consuming it. */
  nextContent(): Line | undefined {
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.text === '' || line.text.startsWith('#')) this.i++;
      else {
        if (line.indent === 0 && /^(?:---|\.\.\.|%)/.test(line.text)) outside();
        return line;
      }
    }
    return undefined;
  }

  /** A block node whose lines start at `indent`: a sequence or a mapping. */
  block(indent: number): unknown {
    const line = this.nextContent()!;
    return line.text === '-' || line.text.startsWith('- ') ? this.sequence(indent) : this.mapping(indent, line.text);
  }

  /** A mapping whose keys sit at `indent`; `first` is its first key's text when it shares a line with a dash. */
  mapping(indent: number, firstText: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let text: string | undefined = firstText;
    for (;;) {
      const key = KEY.exec(text);
      if (!key) return outside();
      const name = key[1] ?? key[2]!;
      if (name === '__proto__' || Object.hasOwn(out, name)) outside();
      this.i++;
      const rest = text.slice(key[0].length).trim();
      out[name] = rest === '' ? this.nested(indent, true) : this.inline(rest, indent);
      const next = this.nextContent();
      if (next === undefined || next.indent < indent) return out;
      if (next.indent > indent) outside();
      text = next.text;
    }
  }

  /** A sequence whose dashes sit at `indent`. */
  sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const line = this.nextContent();
      if (line === undefined || line.indent < indent) return out;
      if (line.indent > indent || !(line.text === '-' || line.text.startsWith('- '))) return line.indent > indent ? outside() : out;
      const rest = line.text.slice(1).trim();
      if (rest === '') {
        this.i++;
        out.push(this.nested(indent, false));
      } else if (KEY.test(rest)) {
        // "- key: value": a mapping whose keys line up with the first one.
        const column = indent + (line.raw.length - line.raw.trimStart().length - indent) + line.text.indexOf(rest);
        out.push(this.mapping(column, rest));
      } else {
        this.i++;
        out.push(this.inline(rest, indent));
      }
    }
  }

  /** The value below a key (or a lone dash): more indented lines, a sequence at the key's own indent, or null. */
  private nested(indent: number, sameIndentSequence: boolean): unknown {
    const next = this.nextContent();
    if (next === undefined || next.indent < indent) return null;
    if (next.indent === indent)
      return sameIndentSequence && (next.text === '-' || next.text.startsWith('- ')) ? this.sequence(indent) : null;
    return this.block(next.indent);
  }

  /** A value on the same line as its key or dash. `indent` is that line's key or dash column. */
  private inline(text: string, indent: number): unknown {
    const c = text[0]!;
    if (c === '>' || c === '|') return this.blockScalar(text, indent);
    if (c === '[') return flowSequence(text.endsWith(']') ? text : this.flowContinued(text, indent));
    if (c === '{') return flowMapping(text);
    if (c === '"') return text.length >= 2 && text.endsWith('"') && !text.slice(1, -1).includes('"') ? text.slice(1, -1) : outside();
    if (c === "'") return singleQuoted(text);
    return plain(this.plainContinued(text, indent));
  }

  /**
   * A plain scalar and the more indented lines that go on with it (a law note's `remedy:` wrapped at the
   * margin), joined by spaces as YAML folds them. A continuation line must start as a plain scalar may;
   * a blank or comment line inside one, or more indented content after it, is outside the subset.
   */
  private plainContinued(first: string, indent: number): string {
    let text = first;
    for (let line = this.lines[this.i]; line !== undefined && line.text !== '' && line.indent > indent; line = this.lines[this.i]) {
      if (!PLAIN_START.test(line.text)) outside();
      text += ` ${line.text}`;
      this.i++;
    }
    this.noContinuation(indent);
    return text;
  }

  /**
   * A flow sequence of IDs wrapped over several lines (a long `excludes: [M-001, …,` list): its more
   * indented continuation lines, up to the one that closes it, joined by spaces as YAML folds them.
   */
  private flowContinued(first: string, indent: number): string {
    let text = first;
    while (!text.endsWith(']')) {
      const line = this.lines[this.i];
      if (line === undefined || line.text === '' || line.indent <= indent || line.text.includes('#')) outside();
      text += ' ' + line!.text;
      this.i++;
    }
    return text;
  }

  /** More indented content after a value (past blank or comment lines) is outside the subset. */
  private noContinuation(indent: number): void {
    const next = this.nextContent();
    if (next !== undefined && next.indent > indent) outside();
  }

  /** A folded (>) or literal (|) block scalar, clipped or stripped (-). */
  private blockScalar(header: string, indent: number): string {
    if (header !== '>' && header !== '>-' && header !== '|' && header !== '|-') outside();
    const folded = header[0] === '>';
    const strip = header.endsWith('-');
    // Its lines: every following line that is blank or indented beyond the key.
    const body: string[] = [];
    let contentIndent = -1;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.text === '') {
        if (contentIndent < 0 || line.raw.length > contentIndent) outside(); // leading or over-indented blanks
        body.push('');
        this.i++;
        continue;
      }
      if (line.indent <= indent) break;
      if (contentIndent < 0) contentIndent = line.indent;
      else if (line.indent < contentIndent) outside();
      if (line.indent > contentIndent && folded) outside(); // "more indented" lines keep their breaks
      body.push(line.raw.slice(contentIndent).trimEnd() === line.raw.slice(contentIndent) ? line.raw.slice(contentIndent) : outside());
      this.i++;
    }
    while (body.length > 0 && body.at(-1) === '') body.pop();
    if (body.length === 0) return outside();
    let value: string;
    if (folded) {
      value = body[0]!;
      for (let k = 1; k < body.length; k++) {
        if (body[k] === '') {
          value += '\n';
        } else value += body[k - 1] === '' ? body[k] : ` ${body[k]}`;
      }
    } else value = body.join('\n');
    return strip ? value : `${value}\n`;
  }
}

function plain(text: string): unknown {
  if (!PLAIN_START.test(text) || text.includes(': ') || text.endsWith(':') || text.includes(' #')) return outside();
  switch (text) {
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  if (INTEGER.test(text)) return Number(text);
  if (OTHER_NUMBER.test(text)) return outside();
  return text;
}

function singleQuoted(text: string): string {
  if (text.length < 2 || !text.endsWith("'")) return outside();
  const inner = text.slice(1, -1);
  if (inner.replaceAll("''", '').includes("'")) outside();
  return inner.replaceAll("''", "'");
}

/** A one-line flow mapping of word keys and flow scalars: { probe: x, outcome: y }, {}. */
function flowMapping(text: string): Record<string, unknown> {
  if (!text.endsWith('}')) return outside();
  const out: Record<string, unknown> = {};
  const inner = text.slice(1, -1).trim();
  if (inner === '') return out;
  for (const raw of inner.split(',')) {
    const entry = FLOW_ENTRY.exec(raw.trim());
    if (!entry) return outside();
    const name = entry[1] ?? entry[2]!;
    if (name === '__proto__' || Object.hasOwn(out, name)) outside();
    out[name] = flowScalar(entry[3]!.trim());
  }
  return out;
}

/** A flow sequence of plain or quoted scalars, on one line once continuation lines are joined: [A-001, B-002], []. */
function flowSequence(text: string): unknown[] {
  if (!text.endsWith(']')) return outside();
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  return inner.split(',').map((raw) => flowScalar(raw.trim()));
}

/** An item of a flow collection: a plain scalar of words, or a double-quoted one without brackets or quotes. */
function flowScalar(item: string): unknown {
  if (item.startsWith('"'))
    return item.length >= 2 && item.endsWith('"') && !/["[\]{}]/.test(item.slice(1, -1)) ? item.slice(1, -1) : outside();
  if (!FLOW_ITEM.test(item)) return outside();
  return plain(item);
}
