// The differential fuzz test of the fast YAML reader (src/registry/fast-yaml.ts): content files edited with
// Unicode spaces, tabs and odd line ends, and their flow collections ({ probe: x, outcome: y }, [A-001])
// with the marks that make or break them, which the reader must either read exactly as the yaml package
// does or leave to it. fast-yaml.test.ts runs a few hundred edits; attacks-yaml.test.ts runs many more.
// (Not a *.test.ts file.)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { fastYaml } from '../src/registry/fast-yaml.ts';
import { ROOT, Rng } from './helpers.ts';

/** What the loader gets from the library for this text (undefined when the library reports an error). */
function library(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  return doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : name.endsWith('.yaml') ? [path] : [];
  });
}

/** What an edit puts in: every character JavaScript takes for whitespace or a line end and YAML does not,
 * and the whitespace and line ends YAML does know. */
const ODD_WHITESPACE = [
  '\u00A0',
  '\u1680',
  '\u180E',
  '\u2000',
  '\u2001',
  '\u2002',
  '\u2003',
  '\u2004',
  '\u2005',
  '\u2006',
  '\u2007',
  '\u2008',
  '\u2009',
  '\u200A',
  '\u2028',
  '\u2029',
  '\u202F',
  '\u205F',
  '\u3000',
  '\uFEFF',
  '\u0085',
  '\u000B',
  '\u000C',
  '\t',
  '\r',
  '\r\n',
  ' ',
  '\n',
  '  ',
];

/** What an edit of a flow collection puts in or puts instead: its marks, and the ones that end a value. */
const FLOW_MARKS = [' ', ',', ', ', ':', ': ', '{', '}', '[', ']', '"', "'", '#', ' #', '-', '\n', '\n  '];

export interface FuzzResult {
  edits: number;
  /** Edited files the fast reader read (the rest it left to the library). */
  read: number;
}

/** Edits `count` content files at random (seeded) and checks the fast reader against the library on each. */
export function fuzzFastYaml(seed: number, count: number): FuzzResult {
  const r = new Rng(seed);
  const files = yamlFiles(join(ROOT, 'content')).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
  let read = 0;
  for (let n = 0; n < count; n++) {
    const { f, text: original } = r.pick(files);
    let text = original;
    const changes: string[] = [];
    for (let k = 1 + r.int(4); k > 0; k--) {
      // Half the edits are the whitespace YAML knows, so that edited files the reader still reads are compared too.
      const ch = r.next() < 0.5 ? r.pick([' ', '  ', '\n', '\n\n']) : r.pick(ODD_WHITESPACE);
      const how = r.pick([
        'insert',
        'replace a space',
        'replace a line end',
        'end a line',
        'indent a line',
        'edit a flow collection',
      ] as const);
      const positions = (re: RegExp) => [...text.matchAll(re)].map((m) => m.index);
      let at: number;
      if (how === 'edit a flow collection') {
        // A mark inside or beside a flow mapping's or sequence's own marks, put in or put instead of one.
        const found = positions(/[{}[\],:]/g).filter((i) => /[{[]/.test(text.slice(text.lastIndexOf('\n', i) + 1, i + 1)));
        if (found.length === 0) continue;
        at = r.pick(found);
        const mark = r.pick(FLOW_MARKS);
        text = text.slice(0, at) + mark + text.slice(at + r.int(2));
        changes.push(`${how} at ${at}: ${JSON.stringify(mark)}`);
        continue;
      }
      if (how === 'replace a space' || how === 'replace a line end') {
        const found = positions(how === 'replace a space' ? / /g : /\n/g);
        if (found.length === 0) continue;
        at = r.pick(found);
        text = text.slice(0, at) + ch + text.slice(at + 1);
      } else if (how === 'end a line' || how === 'indent a line') {
        const found = positions(/\n/g);
        if (found.length === 0) continue;
        at = how === 'end a line' ? r.pick(found) : r.pick(found) + 1;
        text = text.slice(0, at) + ch + text.slice(at);
      } else {
        at = r.int(text.length + 1);
        text = text.slice(0, at) + ch + text.slice(at);
      }
      changes.push(
        `${how} at ${at}: ${[...ch].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ')}`,
      );
    }
    const fast = fastYaml(text);
    if (fast === undefined) continue;
    read++;
    assert.deepEqual(
      fast,
      library(text),
      `seed ${seed}, edit ${n} of ${f.slice(ROOT.length + 1)} (${changes.join('; ')}): the fast reader and the yaml package disagree`,
    );
  }
  return { edits: count, read };
}
