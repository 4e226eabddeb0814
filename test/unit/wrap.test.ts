// The plain-text wrapping of the reading commands (src/cli/text.ts): written to allocate little, it
// must lay out every text exactly as the plain form below (split on white space, cut long words, fill
// greedily), which is the definition.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { wrap } from '../../src/cli/text.ts';
import { seedFromEnv } from '../helpers.ts';

const SEED = seedFromEnv(27_2026);

/** The definition: words split on white space, each longer than the room cut into pieces (a web address kept whole), lines filled greedily. */
function plainWrap(text: string, rest: string, first: string, width: number): string {
  const room = Math.max(10, width - Math.max(first.length, rest.length));
  const words = text
    .trim()
    .split(/\s+/)
    .flatMap((w) => {
      if (w.length <= room || /^\(?https?:\/\//.test(w)) return [w];
      const out: string[] = [];
      for (let i = 0; i < w.length; i += room) out.push(w.slice(i, i + room));
      return out;
    });
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const w of words) {
    if (!empty && line.length + 1 + w.length > width) {
      lines.push(line);
      line = rest + w;
    } else line += (empty ? '' : ' ') + w;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

describe(`wrap (HOBA_SEED=${SEED})`, () => {
  const space = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\t', '\u00a0', '\u2003', ' \n ');
  const word = fc.oneof(
    fc.stringMatching(/^[a-zé’'(),.-]{1,12}$/),
    fc.stringMatching(/^[A-Z]-\d{3}$/),
    fc.stringMatching(/^[a-z]{15,60}$/),
    fc.stringMatching(/^\(?https?:\/\/[a-z.]{5,70}\/?$/),
  );
  const text = fc
    .tuple(fc.array(fc.tuple(word, space), { maxLength: 40 }), space, space)
    .map(([pairs, lead, tail]) => lead + pairs.map(([w, s]) => w + s).join('') + tail);
  const indent = fc.constantFrom('', '  ', '    ', '      ', '  • ', '1. ');

  test('lays out any text as the plain definition does', () => {
    fc.assert(
      fc.property(text, indent, indent, fc.integer({ min: 12, max: 100 }), (t, rest, first, width) => {
        assert.equal(wrap(t, rest, first, width), plainWrap(t, rest, first, width));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('the edge cases: nothing, white space only, one long word, a long web address', () => {
    for (const t of [
      '',
      '   ',
      '\n',
      'a',
      `${'x'.repeat(250)}`,
      `see https://example.org/${'a'.repeat(120)} now`,
      'one  two\tthree\nfour',
    ]) {
      for (const width of [12, 40, 100]) assert.equal(wrap(t, '  ', '- ', width), plainWrap(t, '  ', '- ', width), JSON.stringify(t));
    }
  });
});
