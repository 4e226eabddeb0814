// Content the loader and the validator used to let through (issue #10, items 4, 6, 7, 8, 9): YAML aliases,
// cycles no loop declares, loops whose edges do not close, control characters and invalid UTF-8, and
// names the named-entity rule missed. Each planted fault must be reported under its rule, with file and
// line; the benign forms beside it must not be.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { shortestPath } from '../../src/registry/graph.ts';
import { SourceMap } from '../../src/registry/load.ts';
import { authorSurnames, namedOrganisations } from '../../src/registry/named-entities.ts';
import type { Problem } from '../../src/registry/rules.ts';
import { type AtlasCopy, ofRule, SmallAtlas } from '../helpers.ts';

// Each break is planted in a copy of a small atlas (the entities this file names); a copy's problems are
// those the small atlas does not have without the break (see SmallAtlas).
const small = new SmallAtlas(import.meta.url);
after(() => small.dispose());
const copy = (): AtlasCopy => small.copy();

/** The file of an entity, relative to the copy (as problems name it). */
const relFile = (c: AtlasCopy, id: string) => c.fileOf(id).slice(c.dir.length + 1);

/** The 1-based line of the first line of a file that matches. */
function lineMatching(c: AtlasCopy, id: string, re: RegExp): number {
  const i = readFileSync(c.fileOf(id), 'utf8')
    .split('\n')
    .findIndex((l) => re.test(l));
  assert.ok(i >= 0, `no line of ${id} matches ${re}`);
  return i + 1;
}

const show = (ps: Problem[]) =>
  ps.map((p) => `  ${p.rule} ${p.entity ?? ''} ${p.file ?? ''}:${p.line ?? ''} ${p.message}`).join('\n') || '  none';

/** Four levels of nine aliases each: 9^4 values from a few lines (a small "billion laughs"). */
const ALIAS_BOMB = [
  'x1: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'x2: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'x3: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'x4: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
].join('\n');

describe('YAML aliases (item 4)', () => {
  test('an undefined alias is a yaml-syntax problem at its line, and references to the entity do not dangle', () => {
    const c = copy();
    c.write(relFile(c, 'M-004'), readFileSync(c.fileOf('M-004'), 'utf8').replace(/^title: .*$/m, 'title: *nowhere'));
    const problems = c.problems();
    const [p] = ofRule(problems, 'yaml-syntax');
    assert.ok(p, show(problems));
    assert.equal(p.file, relFile(c, 'M-004'));
    assert.equal(p.line, lineMatching(c, 'M-004', /^title: \*nowhere/));
    assert.match(p.message, /\*nowhere refers to no anchor/);
    assert.deepEqual(
      ofRule(problems, 'dangling-reference').filter((d) => d.message.includes('M-004')),
      [],
    );
  });

  test('an alias bomb is a yaml-syntax problem, not a crash, and its expansion is bounded', () => {
    const c = copy();
    c.write(relFile(c, 'M-006'), readFileSync(c.fileOf('M-006'), 'utf8') + ALIAS_BOMB + '\n');
    const [p, more] = ofRule(c.problems(), 'yaml-syntax');
    assert.ok(p && !more, 'one yaml-syntax problem');
    assert.equal(p.file, relFile(c, 'M-006'));
    assert.ok(p.line !== undefined && p.line >= lineMatching(c, 'M-006', /^x2: /), `the line of an alias (got ${p.line})`);
    assert.match(p.message, /too much data/);
  });

  test('an alias bomb in atlas.yaml is reported on the manifest', () => {
    const c = copy();
    c.write('content/atlas.yaml', readFileSync(join(c.dir, 'content/atlas.yaml'), 'utf8') + ALIAS_BOMB + '\n');
    const found = ofRule(c.problems(), 'yaml-syntax');
    assert.ok(
      found.some((p) => p.file === 'content/atlas.yaml'),
      show(found),
    );
  });

  test('a modest alias is ordinary YAML and still loads', () => {
    const c = copy();
    c.edit('A-001', (d) => d.setIn(['stages'], d.createNode(['screening'])));
    const text = readFileSync(c.fileOf('A-001'), 'utf8')
      .replace(/^title: (.*)$/m, 'title: &t $1')
      .replace(/^summary: >-\n(?: {2}.*\n)+/m, 'summary: *t\n');
    c.write(relFile(c, 'A-001'), text);
    const problems = c.problems().filter((p) => p.severity === 'error');
    assert.deepEqual(
      problems.filter((p) => p.rule === 'yaml-syntax'),
      [],
      show(problems),
    );
  });
});

describe('cycles among mechanisms (item 6)', () => {
  test('a relation closing a cycle through two declared loops is loop-undeclared-cycle at its line', () => {
    const c = copy();
    c.edit('M-019', (d) => d.addIn(['amplifies'], 'M-004'));
    const found = ofRule(c.problems(), 'loop-undeclared-cycle');
    const p = found.find((f) => f.entity === 'M-019');
    assert.ok(p, show(found));
    assert.equal(p.file, relFile(c, 'M-019'));
    const lines = readFileSync(c.fileOf('M-019'), 'utf8').split('\n');
    assert.match(lines[p.line! - 1]!, /M-004/, 'points at the amplifies entry');
    assert.match(p.message, /M-019 amplifies M-004 lies on a cycle of amplifies\/masks \(M-019 → M-004 → M-019\)/);
  });

  test('a masks relation inside a loop’s component that the loop does not declare is reported', () => {
    const c = copy();
    // M-006 and M-004 are both in L-002, which declares only amplifies between them.
    c.edit('M-004', (d) => d.setIn(['masks'], d.createNode(['M-006'])));
    const found = ofRule(c.problems(), 'loop-undeclared-cycle');
    assert.ok(
      found.some((p) => p.entity === 'M-004' && /M-004 masks M-006/.test(p.message)),
      show(found),
    );
  });

  test('declaring the new edges in a loop accounts for the cycle', () => {
    const c = copy();
    c.edit('M-019', (d) => d.addIn(['amplifies'], 'M-004'));
    c.edit('L-001', (d) => {
      d.addIn(['mechanisms'], 'M-004');
      d.addIn(['edges'], d.createNode({ from: 'M-019', to: 'M-004', relation: 'amplifies' }));
      d.addIn(['edges'], d.createNode({ from: 'M-004', to: 'M-019', relation: 'amplifies' }));
    });
    assert.deepEqual(ofRule(c.problems(), 'loop-undeclared-cycle'), []);
  });
});

describe('loop declarations (item 7)', () => {
  /** The line of the n-th declared edge (0-based) of a loop file. */
  const edgeLine = (c: AtlasCopy, id: string, n: number) =>
    readFileSync(c.fileOf(id), 'utf8')
      .split('\n')
      .flatMap((l, i) => (/^\s+- from: /.test(l) ? [i + 1] : []))[n];

  test('edges that do not lead back are loop-declaration at the edge’s line', () => {
    const c = copy();
    c.set(
      'L-002',
      ['edges'],
      [
        { from: 'M-006', to: 'M-004', relation: 'amplifies' },
        { from: 'M-004', to: 'M-006', relation: 'amplifies' },
        { from: 'M-006', to: 'M-005', relation: 'amplifies' },
      ],
    );
    const found = ofRule(c.problems(), 'loop-declaration');
    assert.equal(found.length, 1, show(found));
    assert.equal(found[0]!.entity, 'L-002');
    assert.equal(found[0]!.line, edgeLine(c, 'L-002', 2));
    assert.match(found[0]!.message, /edges\[2\] \(M-006 amplifies M-005\) does not close: no declared edge leads from M-005 back to M-006/);
  });

  test('a chain of edges with nothing back to its start is reported', () => {
    const c = copy();
    c.set(
      'L-003',
      ['edges'],
      [
        { from: 'M-012', to: 'M-029', relation: 'amplifies' },
        { from: 'M-029', to: 'M-013', relation: 'masks' },
      ],
    );
    const found = ofRule(c.problems(), 'loop-declaration').filter((p) => p.entity === 'L-003');
    assert.equal(found.length, 2, show(found));
  });

  test('a member no edge touches is reported at the member', () => {
    const c = copy();
    c.set(
      'L-002',
      ['edges'],
      [
        { from: 'M-006', to: 'M-004', relation: 'amplifies' },
        { from: 'M-004', to: 'M-006', relation: 'amplifies' },
      ],
    );
    const found = ofRule(c.problems(), 'loop-declaration');
    const p = found.find(
      (f) => f.entity === 'L-002' && /M-005 is one of the loop's mechanisms, but none of its edges touches it/.test(f.message),
    );
    assert.ok(p, show(found));
    assert.equal(p.line, lineMatching(c, 'L-002', /^\s+- M-005$/));
  });

  test('a repeated edge is reported at the repeat', () => {
    const c = copy();
    c.edit('L-001', (d) => d.addIn(['edges'], d.createNode({ from: 'M-019', to: 'M-020', relation: 'amplifies' })));
    const found = ofRule(c.problems(), 'loop-declaration');
    assert.ok(
      found.some((p) => p.entity === 'L-001' && /edges\[2\] repeats edges\[0\]/.test(p.message)),
      show(found),
    );
  });

  test('two separate cycles in one loop are reported', () => {
    const c = copy();
    // M-019 ⇄ M-020 and M-018 ⇄ M-023 are real cycles, but not one cycle.
    c.set('L-001', ['mechanisms'], ['M-019', 'M-020', 'M-018', 'M-023']);
    c.set(
      'L-001',
      ['edges'],
      [
        { from: 'M-019', to: 'M-020', relation: 'amplifies' },
        { from: 'M-020', to: 'M-019', relation: 'amplifies' },
        { from: 'M-018', to: 'M-023', relation: 'amplifies' },
        { from: 'M-023', to: 'M-018', relation: 'amplifies' },
      ],
    );
    const found = ofRule(c.problems(), 'loop-declaration');
    assert.ok(
      found.some((p) => p.entity === 'L-001' && /separate cycles/.test(p.message)),
      show(found),
    );
  });
});

describe('control characters and invalid UTF-8 (item 8)', () => {
  const plantRaw = (c: AtlasCopy, id: string, bytes: Buffer) => {
    const text = readFileSync(c.fileOf(id));
    const at = text.indexOf('\ntitle: ') + '\ntitle: '.length;
    writeFileSync(c.fileOf(id), Buffer.concat([text.subarray(0, at), bytes, text.subarray(at)]));
  };

  for (const [what, bytes, says] of [
    ['NUL and BEL', Buffer.from([0x00, 0x01, 0x07]), /U\+0000, the control character U\+0001, the control character U\+0007/],
    ['U+FFFE', Buffer.from('\uFFFE', 'utf8'), /noncharacter U\+FFFE/],
    ['a C1 control (U+0085)', Buffer.from('\u0085', 'utf8'), /control character U\+0085/],
    ['DEL', Buffer.from([0x7f]), /U\+007F/],
  ] as const) {
    test(`${what} in a title is text-encoding at its line`, () => {
      const c = copy();
      plantRaw(c, 'M-004', bytes);
      const [p, more] = ofRule(c.problems(), 'text-encoding');
      assert.ok(p && !more, 'one text-encoding problem');
      assert.equal(p.file, relFile(c, 'M-004'));
      assert.equal(p.line, lineMatching(c, 'M-004', /^title: /));
      assert.match(p.message, says);
    });
  }

  test('invalid UTF-8 is reported at the line of the first bad byte', () => {
    const c = copy();
    const text = readFileSync(c.fileOf('M-004'));
    const at = text.indexOf('\ntitle: ') + '\ntitle: '.length + 4;
    writeFileSync(c.fileOf('M-004'), Buffer.concat([text.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), text.subarray(at)]));
    const found = ofRule(c.problems(), 'text-encoding');
    assert.equal(found.length, 1, show(found));
    assert.equal(found[0]!.line, lineMatching(c, 'M-004', /^title: /));
    assert.match(found[0]!.message, /not valid UTF-8/);
  });

  test('escapes that produce control characters are reported at the scalar', () => {
    const c = copy();
    c.write(
      relFile(c, 'M-004'),
      readFileSync(c.fileOf('M-004'), 'utf8').replace(/^title: .*$/m, 'title: "\\0\\a\\x07Role redefined \\uFFFE"'),
    );
    const [p, more] = ofRule(c.problems(), 'text-encoding');
    assert.ok(p && !more, 'one text-encoding problem');
    assert.equal(p.line, lineMatching(c, 'M-004', /^title: /));
    assert.match(p.message, /escape .* U\+0000.*U\+0007.*U\+FFFE/);
  });

  test('atlas.yaml is checked too', () => {
    const c = copy();
    c.write('content/atlas.yaml', readFileSync(join(c.dir, 'content/atlas.yaml'), 'utf8').replace(/^name: /m, 'name: \u0007'));
    const found = ofRule(c.problems(), 'text-encoding');
    assert.ok(
      found.some((p) => p.file === 'content/atlas.yaml' && p.line !== undefined),
      show(found),
    );
  });

  test('a BOM, CRLF line ends, tabs in comments and Unicode prose are fine', () => {
    const c = copy();
    for (const id of ['M-004', 'A-001']) {
      const text = readFileSync(c.fileOf(id), 'utf8').replace(/^title: (.*)$/m, 'title: "Über-naïve café résumé — “quoted” 求职 🙂 ‽ $1"');
      c.write(relFile(c, id), '\uFEFF# a comment\twith a tab\n' + text.replace(/\n/g, '\r\n'));
    }
    c.write('content/atlas.yaml', '\uFEFF' + readFileSync(join(c.dir, 'content/atlas.yaml'), 'utf8').replace(/\n/g, '\r\n'));
    const problems = c.problems();
    assert.deepEqual(
      problems.filter((p) => p.severity === 'error' || p.rule === 'text-encoding'),
      [],
      show(problems),
    );
  });
});

describe('named entities (item 9)', () => {
  const named: Array<[string, string]> = [
    ['Candidates on linkedin see it.', 'linkedin'],
    ['LINKEDIN profiles', 'LINKEDIN'],
    ['A Google-style interview loop', 'Google'],
    ['Posted on Indeed.com and elsewhere', 'Indeed.com'],
    ['See www.example.org for details', 'www.example.org'],
    ['Apply through careers.example.co.uk today', 'careers.example.co.uk'],
    ["Google's process", 'Google'],
    ['former ex-Meta engineers', 'Meta'],
    ['Jobs posted on Indeed go stale', 'Indeed'],
    ['INDEED postings', 'INDEED'],
    ["Amazon's filters", 'Amazon'],
    ['Workday-style knockout questions', 'Workday'],
    ['Workday rejects the form. Greenhouse too.', 'Workday, Greenhouse'],
    ['an applicant-tracking system such as Greenhouse', 'Greenhouse'],
    ['a ZipRecruiter listing', 'ZipRecruiter'],
    ['an iCIMS form', 'iCIMS'],
    ['as Elon Musk put it', 'Elon Musk'],
    ['a Zuckerberg memo', 'Zuckerberg'],
    ['an SAP module', 'SAP'],
  ];
  for (const [text, name] of named) {
    test(`"${text}" names ${name}`, () => assert.deepEqual(namedOrganisations(text), name.split(', ')));
  }

  const ordinary = [
    'Indeed, the filter rejects most applications.',
    'indeed the filter rejects them',
    'a monster workload',
    'an apple a day',
    'pull the lever',
    'a workday of eight hours',
    'a greenhouse effect',
    'the ladders of promotion',
    'an oracle of truth',
    'Meta-analyses find that structured interviews predict better.',
    'A meta-analysis of field experiments',
    'a musk scent',
    'jobs and gates',
    'to target a mechanism',
    'Criteria fixed and shared in advance',
    'Seek feedback. Target roles that fit.',
    'Node.js, atlas.yaml, e.g. and i.e. are not domains; 3.5 years is not one either.',
  ];
  for (const text of ordinary) {
    test(`"${text}" names nobody`, () => assert.deepEqual(namedOrganisations(text), []));
  }

  test('an issuing body among a source\'s authors is no person: "Employment Appeal Tribunal" gives no surname', () => {
    assert.deepEqual(authorSurnames(['Employment Appeal Tribunal', 'Court of Appeal', 'Jane Q. Doe']), ['Doe']);
  });

  test('through the validator: a lower-case platform and a domain in prose are named-entity problems', () => {
    const c = copy();
    c.set('M-004', ['summary'], 'Filters on linkedin and on jobs.example.com reject résumés.');
    const found = ofRule(c.problems(), 'named-entity');
    const p = found.find((f) => f.entity === 'M-004');
    assert.ok(p, show(found));
    assert.match(p.message, /summary names linkedin, jobs\.example\.com/);
    assert.equal(p.line, lineMatching(c, 'M-004', /^summary:/));
  });
});

test('shortestPath finds a shortest path within a set, or none', () => {
  const adj = new Map([
    ['a', ['b', 'c']],
    ['b', ['d']],
    ['c', ['d']],
    ['d', ['a']],
  ]);
  assert.deepEqual(shortestPath('a', 'd', adj), ['a', 'b', 'd']);
  assert.deepEqual(shortestPath('d', 'b', adj), ['d', 'a', 'b']);
  assert.deepEqual(shortestPath('a', 'd', adj, new Set(['a', 'c', 'd'])), ['a', 'c', 'd']);
  assert.equal(shortestPath('a', 'd', adj, new Set(['a'])), undefined);
  assert.deepEqual(shortestPath('a', 'a', adj), ['a']);
});

describe('where a problem is', () => {
  test('a line is read from the file as it is now: the same path with new text is parsed again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoba-sourcemap-'));
    try {
      const path = join(dir, 'A-001.yaml');
      const map = new SourceMap();
      map.add('A-001', 'content/artifacts/A-001.yaml', path);
      writeFileSync(path, 'id: A-001\ntitle: T\nsummary: S\n');
      assert.deepEqual(map.locate('A-001', ['summary']), { file: 'content/artifacts/A-001.yaml', line: 3 });
      writeFileSync(path, 'id: A-001\n# a comment\n\ntitle: T\nsummary: S\n');
      assert.deepEqual(map.locate('A-001', ['summary']), { file: 'content/artifacts/A-001.yaml', line: 5 });
      // Another map (another load of the atlas) over a file of the same text finds the same line.
      const other = new SourceMap();
      other.add('A-001', 'elsewhere.yaml', path);
      assert.deepEqual(other.locate('A-001', ['title']), { file: 'elsewhere.yaml', line: 4 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
