// Content that fooled or crashed the validator in the reliability campaign (issue #27, items 3–8), and the
// decisions on a double byte-order mark, U+FEFF inside text and YAML tags. Each attack is planted in a copy
// of a small atlas (the entities this file names) and must be reported under its rule with its file (and
// line); none may crash the loader; the honest forms beside them pass. Randomised versions of each class:
// validator-mutations.test.ts (and test/attacks-validator.test.ts, at least 500 per run). The quadratic
// case runs in a process of its own: test/e2e/validator-quadratic.test.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { fastYaml } from '../../src/registry/fast-yaml.ts';
import type { Problem } from '../../src/registry/rules.ts';
import { presentedAsCurrent, saysNoLongerApplies } from '../../src/registry/status-wording.ts';
import { CONTENT_LIMITS, nestingProblem } from '../../src/registry/yaml-limits.ts';
import { buildCheckout } from '../../src/workflows/build.ts';
import type { WorkflowError } from '../../src/workflows/errors.ts';
import { AtlasCopy, ofRule, SmallAtlas } from '../helpers.ts';

// Each break is planted in a copy of a small atlas (the entities this file names); a copy's problems are
// those the small atlas does not have without the break (see SmallAtlas).
const small = new SmallAtlas(import.meta.url);
after(() => small.dispose());
const copy = (): AtlasCopy => small.copy();

const relFile = (c: AtlasCopy, id: string) => c.fileOf(id).slice(c.dir.length + 1);
const show = (ps: Problem[]) =>
  ps.map((p) => `  ${p.rule} ${p.entity ?? ''} ${p.file ?? ''}:${p.line ?? ''} ${p.message.slice(0, 160)}`).join('\n') || '  none';
const lineOf = (text: string, re: RegExp) => text.split('\n').findIndex((l) => re.test(l)) + 1;

/** Appends lines to an entity's file (top-level keys the schema does not know are fine: the file must not even get that far). */
function append(c: AtlasCopy, id: string, extra: string): string {
  const file = relFile(c, id);
  c.write(file, readFileSync(c.fileOf(id), 'utf8').replace(/\n*$/, '\n') + extra);
  return file;
}

/** Exactly one problem of `rule` in `file` (at `line` when given), and nothing thrown. */
function reportedOnce(problems: Problem[], rule: string, file: string, line?: number): Problem {
  const found = ofRule(problems, rule).filter((p) => p.file === file && (line === undefined || p.line === line));
  assert.ok(found.length >= 1, `expected ${rule} in ${file}${line ? `:${line}` : ''}; got:\n${show(problems)}`);
  return found[0]!;
}

describe('law-note: a status note must say the guidance is withdrawn, not present it as current (item 3)', () => {
  for (const note of [
    'Current guidance: it is in force and applies today.',
    'It has not been withdrawn and still applies.',
    'The agency updated its website in 2025 (E-112).',
    'Withdrawn? It was never withdrawn; it is still in force.',
  ]) {
    test(JSON.stringify(note), () => {
      const c = copy();
      assert.deepEqual(c.get('M-005', ['law', 1, 'sources']), ['E-078', 'E-112'], 'M-005 law[1] cites the withdrawn guidance E-078');
      c.set('M-005', ['law', 1, 'status_note'], note);
      const p = reportedOnce(c.problems(), 'law-note', relFile(c, 'M-005'));
      assert.equal(p.entity, 'M-005');
      assert.match(p.message, /law\[1\]\.status_note/);
      assert.equal(p.line, lineOf(readFileSync(c.fileOf('M-005'), 'utf8'), /status_note: .*(Current|has not|updated|never)/));
    });
  }

  test('a note that says so, and then that another law still applies, passes', () => {
    const c = copy();
    c.set(
      'M-005',
      ['law', 1, 'status_note'],
      'Withdrawn in 2025 (E-112): it is not current guidance. The statute it explained still applies (E-112).',
    );
    assert.deepEqual(ofRule(c.problems(), 'law-note'), []);
  });

  test('a note presenting withdrawn guidance as current after saying the word is still refused', () => {
    const c = copy();
    c.set('M-005', ['law', 1, 'status_note'], 'Withdrawn from the website in 2025, but it is still in force and applies today.');
    const p = reportedOnce(c.problems(), 'law-note', relFile(c, 'M-005'));
    assert.match(p.message, /presents E-078 .* as current \("it is still in force"\)/);
  });
});

describe('source-status-unstated: a negation does not say a source no longer applies (item 4)', () => {
  test('"This rule (E-124) has not been withdrawn or repealed and still applies today." is reported for the repealed E-124', () => {
    const c = copy();
    const text = readFileSync(c.fileOf('M-005'), 'utf8');
    const data = parse(text) as Record<string, unknown>;
    const field = (['summary', 'description'] as const).find((k) => typeof data[k] === 'string' && (data[k] as string).includes('E-124'))!;
    assert.ok(field, 'M-005 names E-124 in its prose');
    c.set('M-005', [field], 'This rule (E-124) has not been withdrawn or repealed and still applies today.');
    const p = reportedOnce(c.problems(), 'source-status-unstated', relFile(c, 'M-005'));
    assert.equal(p.entity, 'M-005');
    assert.match(p.message, /E-124/);
  });

  test('a status word about something else in the paragraph does not say it: A-004’s posting "taken down", then E-120 "neither withdrawn nor repealed"', () => {
    const c = copy();
    const data = parse(readFileSync(c.fileOf('A-004'), 'utf8')) as { summary: string; sources?: string[] };
    assert.match(data.summary, /taken down/, 'the summary speaks of a posting taken down');
    c.set('A-004', ['sources'], [...(data.sources ?? []), 'E-120']);
    c.set(
      'A-004',
      ['summary'],
      `${data.summary.trimEnd()} It also has other parts. The US guidance on such tools (E-120) is neither withdrawn nor repealed.`,
    );
    const p = reportedOnce(c.problems(), 'source-status-unstated', relFile(c, 'A-004'));
    assert.match(p.message, /summary cites E-120/);
  });

  test('said in the sentence before the one that names the source counts (a status note: "Withdrawn in 2025. … (E-120).")', () => {
    const c = copy();
    c.set('A-004', ['sources'], [...((parse(readFileSync(c.fileOf('A-004'), 'utf8')) as { sources?: string[] }).sources ?? []), 'E-120']);
    c.set('A-004', ['summary'], 'A posting came back. Its guidance was withdrawn in 2025. The statutory duty is unaffected (E-120).');
    assert.deepEqual(
      c.problems().filter((p) => p.rule === 'source-status-unstated'),
      [],
    );
  });

  const W = /\b(withdrawn|rescinded|revoked|no\s+longer\s+current)\b/i;
  const denials = [
    'It has not been withdrawn.',
    'It was never withdrawn.',
    'It hasn’t been rescinded.',
    'It was not, as some believe, quietly withdrawn.',
    'Neither withdrawn nor revoked.',
    'It is not true that it was withdrawn.',
    'It remains un-withdrawn.',
  ];
  for (const d of denials) test(`denied: ${JSON.stringify(d)}`, () => assert.equal(saysNoLongerApplies(W, d), false));
  const statements = [
    'Withdrawn in 2025.',
    'The statute was not changed, and the guidance was withdrawn.',
    'With no notice, the agency withdrew it and it was withdrawn from its site.',
    'It never took effect. It was rescinded in 2026.',
    'It is no longer current.',
  ];
  for (const s of statements) test(`said: ${JSON.stringify(s)}`, () => assert.equal(saysNoLongerApplies(W, s), true));
  test('claims of current force about the cited instrument are found; another law that still applies is not', () => {
    assert.ok(presentedAsCurrent('Current guidance: it is in force.'));
    assert.equal(presentedAsCurrent('Current guidance: see the agency.'), 'Current guidance');
    assert.equal(presentedAsCurrent('Withdrawn, but it still applies today.'), 'it still applies');
    assert.equal(presentedAsCurrent('Withdrawn. It is not current guidance; the statute it explained still applies (E-112).'), undefined);
    assert.equal(presentedAsCurrent('Title VII and the Uniform Guidelines still apply (E-112).'), undefined);
  });
});

describe('the fast YAML reader leaves Unicode spaces to the yaml package (item 5)', () => {
  const spaces = [
    '\u00A0',
    '\u1680',
    '\u2000',
    '\u2005',
    '\u200A',
    '\u2028',
    '\u2029',
    '\u202F',
    '\u205F',
    '\u3000',
    '\uFEFF',
    '\u000B',
    '\u000C',
    '\u0085',
  ];
  for (const ch of spaces) {
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    test(`${code} anywhere in a file: declined`, () => {
      for (const text of [`year: 2000${ch}\n`, `a:\n${ch}${ch}b: 1\n`, `a: x${ch}y\n`, `a: [x,${ch}y]\n`])
        assert.equal(fastYaml(text), undefined, JSON.stringify(text));
    });
  }

  test('a number followed by U+202F is text, as the yaml package reads it: a schema problem, not the number', () => {
    const c = copy();
    const file = relFile(c, 'B-001');
    c.write(file, readFileSync(c.fileOf('B-001'), 'utf8').replace(/^order: (\d+)$/m, 'order: $1\u202F'));
    const p = reportedOnce(c.problems(), 'schema', file);
    assert.match(p.message, /order: expected number, found string/);
  });

  test('a key indented with no-break spaces is not read as nested: the yaml package reads a key with spaces in it', () => {
    const c = copy();
    const file = relFile(c, 'M-004');
    const text = readFileSync(c.fileOf('M-004'), 'utf8');
    const line = text.split('\n').findIndex((l) => /^ {2}actor: /.test(l));
    assert.ok(line >= 0, 'M-004 has facets.actor');
    const lines = text.split('\n');
    lines[line] = lines[line]!.replace(/^ {2}/, '\u00A0\u00A0');
    c.write(file, lines.join('\n'));
    assert.ok(
      c.problems().some((p) => p.severity === 'error' && p.file === file),
      'the edited file has an error',
    );
  });
});

describe('nesting, size and aliases are bounded before the slow or recursive paths (items 6, 7, 8)', () => {
  test('2,500 nested keys are yaml-syntax naming the file, not a stack overflow', () => {
    // 2,500 levels of indentation are beyond the file size limit (3 MB); 1,200 are within it.
    for (const levels of [2500, 1200]) {
      const c = copy();
      const deep = Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x\n';
      const file = append(c, 'M-006', `x_deep:\n${deep.replace(/^/gm, ' ')}`);
      const p = reportedOnce(c.problems(), 'yaml-syntax', file);
      if (levels === 1200) assert.match(p.message, new RegExp(`nested more than ${CONTENT_LIMITS.depth} levels`));
    }
  });

  test('deep flow collections, deep compact sequences and deep values made by aliases are refused the same way', () => {
    for (const extra of [
      `x_flow: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
      `x_seq:\n  ${'- '.repeat(3000)}x\n`,
      `x_map: ${'{a: '.repeat(3000)}1${'}'.repeat(3000)}\n`,
    ]) {
      const c = copy();
      const file = append(c, 'M-006', extra);
      const p = reportedOnce(c.problems(), 'yaml-syntax', file);
      assert.match(p.message, /nested more than/, extra.slice(0, 20));
    }
    const c = copy();
    // 40 levels, then an alias of it 40 levels down: each line is within the limit, the value is 80 deep.
    const file = append(c, 'M-006', `x_a: &deep ${'['.repeat(40)}x${']'.repeat(40)}\nx_b: ${'['.repeat(40)}*deep${']'.repeat(40)}\n`);
    assert.match(reportedOnce(c.problems(), 'yaml-syntax', file).message, /nested more than/);
  });

  test('the nesting estimate counts levels of indentation, dashes and brackets, and skips block scalar text', () => {
    assert.equal(nestingProblem('a:\n  b:\n    c: 1\n'), undefined);
    assert.ok(nestingProblem(`a: ${'['.repeat(CONTENT_LIMITS.depth + 1)}`));
    assert.equal(
      nestingProblem(`a: |\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i + 2)}code`).join('\n')}\nb: 1\n`),
      undefined,
    );
    assert.equal(nestingProblem(`a: "${'['.repeat(200)}"\n`), undefined, 'brackets inside quotes are text');
  });

  test('aliases as keys (a repeat the yaml package does not see) and more aliases than the limit are refused before they are resolved', () => {
    const c = copy();
    const file = append(c, 'M-006', 'x_k: {&k a: 1, *k : 2}\n');
    assert.match(reportedOnce(c.problems(), 'yaml-syntax', file).message, /A key here is an alias \(\*k\)/);
    const d = copy();
    const many = ['x_v: &v 1', ...Array.from({ length: CONTENT_LIMITS.aliases + 1 }, (_, i) => `x_${i}: *v`)].join('\n');
    const file2 = append(d, 'M-006', `${many}\n`);
    assert.match(reportedOnce(d.problems(), 'yaml-syntax', file2).message, new RegExp(`${CONTENT_LIMITS.aliases + 1} aliases`));
  });

  test('a file larger than the limit is yaml-syntax at line 1, not read', () => {
    const c = copy();
    const file = append(
      c,
      'M-006',
      `x_big: >-\n${'  word word word word word word word word word word word word word word\n'.repeat(16_000)}`,
    );
    const p = reportedOnce(c.problems(), 'yaml-syntax', file, 1);
    assert.match(p.message, /at most 1024 KiB/);
  });

  test('a 512 KiB anchored description repeated by 99 aliases is refused by its expanded size, and nothing is built', (t) => {
    // A whole atlas: the small one has problems of its own, and would not be built either.
    const c = new AtlasCopy();
    t.after(() => c.dispose());
    const big = 'lorem ipsum '.repeat((512 * 1024) / 12);
    const file = append(c, 'M-006', `x_anchor: &big "${big}"\n${Array.from({ length: 99 }, (_, i) => `x_copy${i}: *big`).join('\n')}\n`);
    const p = reportedOnce(c.problems(), 'yaml-syntax', file);
    assert.match(p.message, /aliases \(\*name\) expanded, hold more than 1024 KiB/);
    assert.throws(
      () => buildCheckout(c.dir, join(c.dir, '_site')),
      (err: WorkflowError) => err.code === 'invalid-content' && err.exit === 1,
    );
    assert.equal(existsSync(join(c.dir, '_site')), false, 'no site written');
  });
});

describe('decided: one byte-order mark may open a file; any other U+FEFF, and YAML tags, are refused', () => {
  test('a double byte-order mark is text-encoding at line 1', () => {
    const c = copy();
    const file = relFile(c, 'M-004');
    writeFileSync(c.fileOf('M-004'), `\uFEFF\uFEFF${readFileSync(c.fileOf('M-004'), 'utf8')}`);
    const p = reportedOnce(c.problems(), 'text-encoding', file, 1);
    assert.match(p.message, /U\+FEFF/);
  });

  test('U+FEFF, a zero-width space or a bidirectional override inside a title is text-encoding at its line', () => {
    for (const ch of ['\uFEFF', '\u200B', '\u202E', '\u2066']) {
      const c = copy();
      const file = relFile(c, 'M-004');
      const text = readFileSync(c.fileOf('M-004'), 'utf8').replace(/^title: (\S+) /m, `title: $1${ch} `);
      c.write(file, text);
      const p = reportedOnce(c.problems(), 'text-encoding', file, lineOf(text, /^title: /));
      assert.match(p.message, /invisible/);
    }
  });

  test('one leading byte-order mark is fine', () => {
    const c = copy();
    writeFileSync(c.fileOf('M-004'), `\uFEFF${readFileSync(c.fileOf('M-004'), 'utf8')}`);
    assert.deepEqual(
      c.problems().filter((p) => p.severity === 'error'),
      [],
    );
  });

  for (const [tag, value] of [
    ['!foo', 'x'],
    ['!!str', '1'],
    ['!!binary', 'aGVsbG8='],
    ['!!set', '{a}'],
    ['!!int', '"3"'],
  ] as const) {
    test(`a tag (${tag}) is yaml-syntax at its line: tags change what a value is read as`, () => {
      const c = copy();
      const file = relFile(c, 'M-004');
      const text = readFileSync(c.fileOf('M-004'), 'utf8').replace(/\n*$/, '\n') + `x_tagged: ${tag} ${value}\n`;
      c.write(file, text);
      const p = reportedOnce(c.problems(), 'yaml-syntax', file, lineOf(text, /^x_tagged:/));
      assert.match(p.message, /The tag !/);
    });
  }
});
