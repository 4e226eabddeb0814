// The validator: the real atlas passes --strict, and every rule catches the break it is for, naming the
// rule and the entity, with file:line where there is one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { toSourceRecord } from '../../src/registry/bibliography.ts';
import { RULES, type Problem } from '../../src/registry/rules.ts';
import { AtlasCopy, BIBLIOGRAPHY, ofRule, ROOT, SmallAtlas } from '../helpers.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { validateAtlas } from '../../src/registry/validate.ts';

test('the real atlas passes validate --strict (no errors, no warnings)', () => {
  assert.ok(BIBLIOGRAPHY, 'the shared bibliography must sit beside the checkout (../shared/bibliography.yaml)');
  const problems = validateAtlas(loadAtlas(ROOT), { bibliography: BIBLIOGRAPHY });
  assert.deepEqual(
    problems.map((p) => `${p.rule} ${p.entity ?? ''} ${p.file ?? ''}:${p.line ?? ''} ${p.message}`),
    [],
  );
});

interface Case {
  rule: keyof typeof RULES;
  what: string;
  /** Entity the problem must name (undefined: an atlas-wide problem, or one only a file can name). */
  entity?: string;
  /** Path fragment of the file the problem must point at. */
  file?: string;
  /** Text the message must contain. */
  says?: RegExp;
  plant: (copy: AtlasCopy) => void;
}

/** Edits the manifest (content/atlas.yaml) as text. */
function editManifest(copy: AtlasCopy, change: (text: string) => string): void {
  copy.write('content/atlas.yaml', change(readFileSync(join(copy.dir, 'content', 'atlas.yaml'), 'utf8')));
}

/** Writes a copy of an existing entity under a new ID (and new probe IDs, for artifacts). */
function cloneAs(copy: AtlasCopy, from: string, to: string, dir: string): void {
  const text = readFileSync(copy.fileOf(from), 'utf8')
    .replace(new RegExp(`^id: "?${from}"?$`, 'm'), `id: ${to}`)
    .replace(/^(\s+- id: )([a-z0-9-]+)$/gm, (_, lead: string, probe: string) => `${lead}${probe}-clone`);
  copy.write(`content/${dir}/${to}-clone.yaml`, text);
}

/** Replaces the manifest's "not cited, and why" list (content/atlas.yaml) with the given body. */
function withUncited(copy: AtlasCopy, body: string): void {
  const manifest = readFileSync(join(copy.dir, 'content', 'atlas.yaml'), 'utf8').replace(/^uncited:\n(?: {2}[^\n]*\n)*/m, '');
  copy.write('content/atlas.yaml', `${manifest}uncited:\n${body}`);
}

/** Clones A-001 as A-950 and makes exactly these mechanisms emit it. */
function emitFrom(copy: AtlasCopy, mechanisms: string[]): void {
  cloneAs(copy, 'A-001', 'A-950', 'artifacts');
  for (const m of mechanisms) copy.set(m, ['emits', (copy.get(m, ['emits']) as unknown[]).length], { artifact: 'A-950', fidelity: 'void' });
}

const cases: Case[] = [
  {
    rule: 'yaml-syntax',
    what: 'malformed YAML',
    file: 'M-004',
    says: /Malformed YAML/,
    plant: (c) => c.write(c.fileOf('M-004').slice(c.dir.length + 1), 'id: M-004\ntitle: [unclosed\nsummary: x\n'),
  },
  {
    rule: 'yaml-duplicate-key',
    what: 'a YAML key repeated',
    file: 'M-004',
    says: /appears twice/,
    plant: (c) => c.write(c.fileOf('M-004').slice(c.dir.length + 1), readFileSync(c.fileOf('M-004'), 'utf8') + 'title: Again\n'),
  },
  {
    rule: 'yaml-syntax',
    what: 'an alias with no anchor',
    file: 'M-004',
    says: /\*nowhere refers to no anchor/,
    plant: (c) =>
      c.write(
        c.fileOf('M-004').slice(c.dir.length + 1),
        readFileSync(c.fileOf('M-004'), 'utf8').replace(/^title: .*$/m, 'title: *nowhere'),
      ),
  },
  {
    rule: 'text-encoding',
    what: 'control characters in a title',
    file: 'M-004',
    says: /U\+0000.*U\+0007/,
    plant: (c) =>
      c.write(
        c.fileOf('M-004').slice(c.dir.length + 1),
        readFileSync(c.fileOf('M-004'), 'utf8').replace(/^title: /m, 'title: \u0000\u0007'),
      ),
  },
  {
    rule: 'manifest',
    what: 'manifest without a registry version',
    file: 'atlas.yaml',
    says: /registry_version/,
    plant: (c) => c.write('content/atlas.yaml', readFileSync(`${c.dir}/content/atlas.yaml`, 'utf8').replace(/^registry_version:.*$/m, '')),
  },
  {
    rule: 'schema',
    what: 'a bad enum value',
    entity: 'M-004',
    says: /"chaos" is not allowed.*rule, incentive, bias, noise, void/,
    plant: (c) => c.set('M-004', ['facets', 'nature'], 'chaos'),
  },
  {
    rule: 'schema',
    what: 'an unknown key',
    entity: 'A-001',
    says: /unknown key "colour"/,
    plant: (c) => c.set('A-001', ['colour'], 'blue'),
  },
  {
    rule: 'schema',
    what: 'a misspelt key, with a suggestion',
    entity: 'M-004',
    says: /unknown key "summery".*Did you mean "summary"/,
    plant: (c) => c.edit('M-004', (d) => d.set('summery', 'x')),
  },
  {
    rule: 'id-shape',
    what: 'an ID of the wrong shape',
    entity: 'M-04',
    says: /not a valid mechanism ID/,
    plant: (c) => c.set('M-004', ['id'], 'M-04'),
  },
  {
    rule: 'id-shape',
    what: 'an artifact ID in the mechanisms directory',
    entity: 'A-950',
    says: /move it to content\/artifacts/,
    plant: (c) => c.set('M-004', ['id'], 'A-950'),
  },
  {
    rule: 'file-name',
    what: 'a file name that does not start with the ID',
    entity: 'M-950',
    says: /rename it to M-950-/,
    plant: (c) => c.set('M-004', ['id'], 'M-950'),
  },
  {
    rule: 'duplicate-id',
    what: 'two files with one ID',
    entity: 'M-004',
    says: /already declared in content\/mechanisms\/M-004-/,
    plant: (c) => c.write('content/mechanisms/M-004-zz-copy.yaml', readFileSync(c.fileOf('M-004'), 'utf8')),
  },
  {
    rule: 'stray-file',
    what: 'an entity file outside a kind directory',
    file: 'content/notes.yaml',
    plant: (c) => c.write('content/notes.yaml', 'id: M-999\n'),
  },
  {
    rule: 'dangling-reference',
    what: 'a dangling operates_at',
    entity: 'M-004',
    says: /operates_at\[1\] refers to B-099, which does not exist/,
    plant: (c) => c.set('M-004', ['operates_at', 1], 'B-099'),
  },
  {
    rule: 'dangling-reference',
    what: 'a cited source that does not exist',
    entity: 'M-004',
    says: /E-999/,
    plant: (c) => c.set('M-004', ['sources', 0], 'E-999'),
  },
  {
    rule: 'wrong-kind-reference',
    what: 'an artifact where a barrier belongs',
    entity: 'M-004',
    says: /A-001 is a artifact|A-001 is an? artifact/,
    plant: (c) => c.set('M-004', ['operates_at', 0], 'A-001'),
  },
  {
    rule: 'self-reference',
    what: 'a mechanism amplifying itself',
    entity: 'M-004',
    says: /itself/,
    plant: (c) => c.set('M-004', ['amplifies'], ['M-004']),
  },
  {
    rule: 'duplicate-reference',
    what: 'a barrier listed twice',
    entity: 'M-004',
    says: /more than once/,
    plant: (c) => c.set('M-004', ['operates_at'], ['B-004', 'B-004']),
  },
  {
    rule: 'deprecated-reference',
    what: 'an active pattern pointing at a deprecated mechanism',
    entity: 'P-007',
    says: /M-003, which is deprecated; point at its successor M-004/,
    plant: (c) => c.set('M-003', ['status'], 'deprecated').set('M-003', ['superseded_by'], 'M-004'),
  },
  {
    rule: 'deprecated-successor',
    what: 'a deprecated mechanism without successor',
    entity: 'M-003',
    says: /names no successor/,
    plant: (c) => c.set('M-003', ['status'], 'deprecated'),
  },
  {
    rule: 'deprecated-successor',
    what: 'an active mechanism naming a successor',
    entity: 'M-003',
    says: /is active but names a successor/,
    plant: (c) => c.set('M-003', ['superseded_by'], 'M-004'),
  },
  {
    rule: 'barrier-cycle',
    what: 'a cycle in the funnel',
    entity: 'B-006',
    says: /B-006 → B-009 → B-006/,
    plant: (c) => c.set('B-009', ['precedes'], ['B-010', 'B-006']),
  },
  {
    rule: 'barrier-order',
    what: 'an order that contradicts precedes',
    entity: 'B-005',
    says: /order 99/,
    plant: (c) => c.set('B-005', ['order'], 99),
  },
  {
    rule: 'stage-without-barrier',
    what: 'a stage with no barrier',
    says: /stage "take-home"/,
    plant: (c) => c.set('B-008', ['stage'], 'technical'),
  },
  {
    rule: 'loop-declaration',
    what: 'an entry point outside the loop',
    entity: 'L-001',
    says: /entry point M-004/,
    plant: (c) => c.set('L-001', ['entry_points'], ['M-004']),
  },
  {
    rule: 'loop-declaration',
    what: 'loop edges that do not close the cycle',
    entity: 'L-003',
    says: /does not close/,
    plant: (c) =>
      c.set(
        'L-003',
        ['edges'],
        [
          { from: 'M-012', to: 'M-029', relation: 'amplifies' },
          { from: 'M-029', to: 'M-013', relation: 'masks' },
        ],
      ),
  },
  {
    rule: 'loop-declaration',
    what: 'a loop edge declared twice',
    entity: 'L-001',
    says: /repeats edges\[0\]/,
    plant: (c) => c.edit('L-001', (d) => d.addIn(['edges'], d.createNode({ from: 'M-019', to: 'M-020', relation: 'amplifies' }))),
  },
  {
    rule: 'loop-edge-missing',
    what: 'a declared edge the mechanisms do not hold',
    entity: 'L-001',
    says: /M-020 amplifies M-019/,
    plant: (c) => c.set('M-020', ['amplifies'], []),
  },
  {
    rule: 'loop-not-strongly-connected',
    what: 'loop members that are not strongly connected',
    entity: 'L-001',
    says: /M-001/,
    plant: (c) => c.set('L-001', ['mechanisms'], ['M-019', 'M-020', 'M-001']),
  },
  {
    rule: 'loop-undeclared-cycle',
    what: 'a mechanism cycle no loop declares',
    entity: 'M-001',
    says: /M-001 → M-002 → M-001/,
    plant: (c) => c.set('M-001', ['amplifies'], ['M-002']).set('M-002', ['amplifies'], ['M-001']),
  },
  {
    rule: 'loop-undeclared-cycle',
    what: 'a cycle through two declared loops',
    entity: 'M-019',
    says: /M-019 amplifies M-004 lies on a cycle/,
    plant: (c) => c.edit('M-019', (d) => d.addIn(['amplifies'], 'M-004')),
  },
  {
    rule: 'honest-baseline-missing',
    what: 'no honest baseline left',
    says: /honest_baseline/,
    plant: (c) => {
      for (const m of ['M-001', 'M-002', 'M-031']) c.set(m, ['honest_baseline'], false);
    },
  },
  {
    rule: 'evidence-unsourced',
    what: 'supported without sources',
    entity: 'M-004',
    says: /no source is cited/,
    plant: (c) => c.set('M-004', ['evidence_level'], 'supported').set('M-004', ['sources'], []),
  },
  {
    rule: 'source-bibliography',
    what: 'a source edited away from the bibliography',
    entity: 'E-001',
    says: /differs from the shared bibliography in: year/,
    plant: (c) => c.set('E-001', ['year'], 2005),
  },
  {
    rule: 'source-bibliography',
    what: 'an invented source',
    entity: 'E-950',
    says: /not in the shared bibliography/,
    plant: (c) =>
      c.write('content/sources/E-950-invented.yaml', stringify({ ...toSourceRecord(BIBLIOGRAPHY!.get('E-001')!), id: 'E-950' })),
  },
  {
    rule: 'source-status-unstated',
    what: 'prose citing withdrawn guidance as current',
    entity: 'M-005',
    says: /description cites E-078 .*withdrawn/,
    plant: (c) => c.set('M-005', ['description'], 'US guidance treats these tools as selection procedures (E-078, E-080).'),
  },
  {
    rule: 'named-entity',
    what: 'a vendor named in prose',
    entity: 'M-004',
    says: /names Workday/,
    plant: (c) => c.set('M-004', ['summary'], 'Filters in Workday reject résumés.'),
  },
  {
    rule: 'named-entity',
    what: 'a platform in lower case, and a domain',
    entity: 'M-004',
    says: /names linkedin, Indeed\.com/,
    plant: (c) => c.set('M-004', ['summary'], 'Filters on linkedin and Indeed.com reject résumés.'),
  },
  {
    rule: 'named-entity',
    what: 'a study author named in prose',
    entity: 'M-022',
    says: /names Bertrand/,
    plant: (c) => c.set('M-022', ['summary'], 'As Bertrand showed, names matter.'),
  },
  {
    rule: 'pattern-non-inferences',
    what: 'a pattern without non-inferences',
    entity: 'P-001',
    says: /does not establish/,
    plant: (c) => c.set('P-001', ['non_inferences'], []),
  },
  {
    rule: 'pattern-non-inferences',
    what: 'a pattern without establishes',
    entity: 'P-001',
    says: /establishes/,
    plant: (c) => c.remove('P-001', ['establishes']),
  },
  {
    rule: 'artifact-non-inferences',
    what: 'an artifact without non-inferences',
    entity: 'A-001',
    plant: (c) => c.remove('A-001', ['non_inferences']),
  },
  {
    rule: 'artifact-probes',
    what: 'an artifact without probes',
    entity: 'A-001',
    says: /probe/,
    plant: (c) => c.set('A-001', ['probes'], []),
  },
  {
    rule: 'probe-duplicate-id',
    what: 'a probe ID used twice',
    entity: 'A-002',
    says: /already defined on A-001/,
    plant: (c) => c.set('A-002', ['probes', 0, 'id'], c.get('A-001', ['probes', 0, 'id'])),
  },
  {
    rule: 'mechanism-relations',
    what: 'a mechanism that emits nothing',
    entity: 'M-004',
    says: /artifact/,
    plant: (c) => c.set('M-004', ['emits'], []),
  },
  {
    rule: 'mechanism-relations',
    what: 'a mechanism that operates nowhere',
    entity: 'M-004',
    plant: (c) => c.remove('M-004', ['operates_at']),
  },
  { rule: 'intervention-targets', what: 'an intervention without targets', entity: 'I-001', plant: (c) => c.set('I-001', ['targets'], []) },
  {
    rule: 'intervention-measurements',
    what: 'an intervention without measurements',
    entity: 'I-001',
    plant: (c) => c.set('I-001', ['measurements'], []),
  },
  {
    rule: 'family-uncovered',
    what: 'a family no mechanism covers',
    says: /"candidate-decline"/,
    plant: (c) => c.set('M-030', ['family'], 'skill-gap'),
  },
  {
    rule: 'mechanism-untargeted',
    what: 'a mechanism no intervention targets',
    entity: 'M-950',
    plant: (c) => cloneAs(c, 'M-004', 'M-950', 'mechanisms'),
  },
  {
    rule: 'artifact-orphan',
    what: 'an artifact no mechanism emits',
    entity: 'A-950',
    plant: (c) => cloneAs(c, 'A-001', 'A-950', 'artifacts'),
  },
  {
    rule: 'artifact-emitters',
    what: 'an artifact only one mechanism emits',
    entity: 'A-950',
    says: /Only M-004 emits A-950/,
    plant: (c) => emitFrom(c, ['M-004']),
  },
  {
    rule: 'artifact-emitters',
    what: 'an artifact nine mechanisms emit',
    entity: 'A-950',
    says: /9 mechanisms emit A-950.*at most 8/,
    plant: (c) => emitFrom(c, ['M-001', 'M-002', 'M-003', 'M-004', 'M-005', 'M-006', 'M-007', 'M-008', 'M-009']),
  },
  {
    rule: 'artifact-candidate-narrowing',
    what: 'an artifact only an insider can narrow',
    entity: 'A-001',
    says: /No probe of A-001 that the candidate can run/,
    plant: (c) =>
      (c.get('A-001', ['probes']) as unknown[]).forEach((_, i) => {
        c.set('A-001', ['probes', i, 'agency'], 'intermediary');
      }),
  },
  {
    rule: 'artifact-next-steps',
    what: 'an artifact without next steps',
    entity: 'A-001',
    says: /can still do/,
    plant: (c) => c.set('A-001', ['next_steps'], []),
  },
  {
    rule: 'next-step-source-unlisted',
    what: 'a next step relying on a source the artifact does not list',
    entity: 'A-001',
    says: /relies on E-165.*Add E-165 to sources/,
    plant: (c) => c.set('A-001', ['next_steps', 0, 'sources'], ['E-165']),
  },
  {
    rule: 'nested-source-unlisted',
    what: 'an effect citing a source the intervention does not list',
    entity: 'I-001',
    says: /effect cites E-165, which I-001's sources do not list/,
    plant: (c) => c.set('I-001', ['effect', 'sources'], ['E-165']),
  },
  {
    rule: 'law-note',
    what: 'a state law note that does not say which state',
    entity: 'A-024',
    says: /which state/,
    plant: (c) =>
      c.set(
        'A-024',
        ['law'],
        [{ jurisdiction: 'us-state', instrument: 'A state statute', says: 'What it provides.', sources: [c.get('A-024', ['sources', 0])] }],
      ),
  },
  {
    rule: 'law-limit',
    what: 'a law note with a remedy whose time limit is only words',
    entity: 'A-024',
    says: /gives a remedy but its time limit is not data/,
    plant: (c) =>
      c.set(
        'A-024',
        ['law'],
        [
          {
            jurisdiction: 'uk',
            instrument: 'An Act',
            says: 'What it provides.',
            remedy: 'Claim.',
            time_limit: 'Three months.',
            sources: [c.get('A-024', ['sources', 0])],
          },
        ],
      ),
  },
  {
    rule: 'law-limit',
    what: 'a limit stated where the words say the sources give none',
    entity: 'A-024',
    says: /words say the sources give no time limit, but limit states one/,
    plant: (c) =>
      c.set(
        'A-024',
        ['law'],
        [
          {
            jurisdiction: 'uk',
            instrument: 'An Act',
            says: 'What it provides.',
            remedy: 'Claim.',
            time_limit: "The atlas's source gives no time limit.",
            limit: { stated: true, action: 'Claim', from: 'act', length: 3, unit: 'months' },
            sources: [c.get('A-024', ['sources', 0])],
          },
        ],
      ),
  },
  {
    rule: 'law-limit',
    what: 'a law note for a place the atlas does not know',
    entity: 'A-024',
    says: /names "Atlantis", which is not a place the atlas knows/,
    plant: (c) =>
      c.set(
        'A-024',
        ['law'],
        [
          {
            jurisdiction: 'us-state',
            where: 'Atlantis',
            instrument: 'A statute',
            says: 'What it provides.',
            sources: [c.get('A-024', ['sources', 0])],
          },
        ],
      ),
  },
  {
    rule: 'effect-unsourced',
    what: 'a mixed effect with no evidence cited',
    entity: 'I-001',
    says: /effect\.level is "mixed" but effect\.sources is empty/,
    plant: (c) => c.set('I-001', ['effect'], { level: 'mixed', summary: 'Results differ.', sources: [] }),
  },
  {
    rule: 'specimen-tells',
    what: 'a tell that the specimen does not contain',
    entity: 'A-001',
    says: /not in the specimen's text/,
    plant: (c) => c.set('A-001', ['specimens', 0, 'tells', 0, 'quote'], 'a line nobody wrote'),
  },
  {
    rule: 'mechanism-perspectives',
    what: 'a mechanism without perspectives',
    entity: 'M-001',
    says: /gives perspectives for none/,
    plant: (c) => c.set('M-001', ['perspectives'], []),
  },
  {
    rule: 'uncalibrated-likelihood',
    what: 'a likelihood word in a summary',
    entity: 'A-001',
    says: /summary says "probably"/,
    plant: (c) => c.set('A-001', ['summary'], 'The role was probably filled.'),
  },
  {
    rule: 'unsourced-frequency',
    what: 'a frequency word in an entity citing nothing',
    entity: 'M-031',
    says: /summary says "often".*cites no source/,
    plant: (c) => c.set('M-031', ['summary'], 'Employers often keep a runner-up waiting.'),
  },
  // Added with the content audit of 2026-11 (atlas 0.4.0): a planted example of each kind the audit found.
  {
    rule: 'source-finding-missing',
    what: 'a citation of a source whose entry has no finding',
    entity: 'A-001',
    says: /sources\[0\] cites E-001\. E-001's bibliography entry has no finding/,
    plant: (c) => c.set('E-001', ['finding'], null),
  },
  {
    rule: 'source-finding-missing',
    what: 'an inline citation of a source whose entry has no finding',
    entity: 'A-001',
    says: /summary cites E-001 in its text/,
    plant: (c) => c.set('E-001', ['finding'], null),
  },
  {
    rule: 'uncalibrated-likelihood',
    what: 'a superlative of likelihood',
    entity: 'A-001',
    says: /summary says "likeliest"/,
    plant: (c) => c.set('A-001', ['summary'], 'The likeliest reading is a filled role.'),
  },
  {
    rule: 'uncalibrated-likelihood',
    what: 'a "most likely" in a probe note',
    entity: 'A-001',
    says: /note says "most likely"/,
    plant: (c) => c.set('A-001', ['probes', 1, 'outcomes', 0, 'note'], 'The role is most likely filled.'),
  },
  {
    rule: 'unsourced-frequency',
    what: 'a rate paraphrase in a sentence citing nothing, in a sourced entity',
    entity: 'A-016',
    says: /non_inferences\[0\] says "routinely".*sentence cites no source/,
    plant: (c) =>
      c.set(
        'A-016',
        ['non_inferences', 0],
        'It does not establish that the gap counts against you; interviewers ask about gaps routinely.',
      ),
  },
  {
    rule: 'unsourced-frequency',
    what: '"the usual" wording and "tends to" without a sourced rate',
    entity: 'A-019',
    says: /description says "tends to"/,
    plant: (c) => c.set('A-019', ['description'], 'Contradictory signals are what a loosely structured process tends to produce.'),
  },
  {
    rule: 'causal-overclaim',
    what: 'an emission note claiming the observation shows the cause',
    entity: 'M-004',
    says: /emits\[0\]\.note says "shows that"/,
    plant: (c) => c.set('M-004', ['emits', 0, 'note'], 'It shows that a rule made the decision.'),
  },
  {
    rule: 'causal-overclaim',
    what: 'a probe outcome note calling an observation the plainest sign',
    entity: 'A-001',
    says: /note says "the plainest sign"/,
    plant: (c) => c.set('A-001', ['probes', 0, 'outcomes', 0, 'note'], 'An unchanged posting is the plainest sign of a stale listing.'),
  },
  {
    rule: 'voice-shared',
    what: 'one account given as a voice of two artifacts',
    entity: 'A-002',
    says: /is also a voice of A-001/,
    plant: (c) => c.set('A-002', ['voices', 0], c.get('A-001', ['voices', 0])),
  },
  {
    rule: 'voice-id',
    what: 'an atlas ID in a voice',
    entity: 'A-001',
    says: /holds an atlas ID \(A-009\)/,
    plant: (c) => c.set('A-001', ['voices', 0], 'They said to read A-009 and then nothing came'),
  },
  {
    rule: 'distinction',
    what: 'a distinction whose answer names an artifact the atlas does not have',
    file: 'content/atlas.yaml',
    says: /names A-999, which is not an artifact/,
    plant: (c) => editManifest(c, (text) => text.replace('      - artifact: A-027\n', '      - artifact: A-999\n')),
  },
  {
    rule: 'not-covered-topic',
    what: 'two not-covered topics with one ID',
    file: 'content/atlas.yaml',
    says: /the ID after-starting is used by another topic/,
    plant: (c) => editManifest(c, (text) => text.replace('  - id: probation\n', '  - id: after-starting\n')),
  },
  {
    rule: 'named-entity',
    what: 'a product name in an alias',
    entity: 'M-047',
    says: /aliases\[0\] names ChatGPT/,
    plant: (c) => c.set('M-047', ['aliases', 0], 'ChatGPT applications'),
  },
  {
    rule: 'exclusion-on-say-so',
    what: "an exclusion of a discrimination mechanism on the employer's own word",
    entity: 'A-001',
    says: /outcome reply-application-not-found: the observation is the employer's own word.*excludes M-022/,
    plant: (c) => c.set('A-001', ['probes', 1, 'outcomes', 3, 'excludes'], ['M-001', 'M-022']),
  },
  {
    rule: 'discrimination-law-unreached',
    what: 'a discrimination law note on an artifact no mechanism of that ground reaches',
    entity: 'A-024',
    says: /is about religion discrimination, but no mechanism of religion discrimination emits A-024/,
    plant: (c) =>
      c.set(
        'A-024',
        ['law'],
        [
          ...(c.get('A-024', ['law']) as unknown[]),
          {
            jurisdiction: 'us-federal',
            instrument: 'Title VII of the Civil Rights Act of 1964',
            says: 'An offer withdrawn because of your religion can be challenged.',
            sources: ['E-113'],
          },
        ],
      ),
  },
  {
    rule: 'alias-title-clash',
    what: "an alias that is another artifact's title",
    entity: 'A-003',
    says: /is the title of A-033/,
    plant: (c) => c.set('A-003', ['aliases', 0], String(c.get('A-033', ['title'])).toUpperCase()),
  },
  {
    rule: 'perspective-citation',
    what: "a research finding with its citation in a recruiter's perspective",
    entity: 'M-006',
    says: /perspectives\[1\]\.reads \(recruiter\) cites E-069/,
    plant: (c) => c.set('M-006', ['perspectives', 1, 'reads'], 'A first screen lasted 7.4 seconds on average (E-069).'),
  },
  {
    rule: 'uncited-source',
    what: 'the "not cited, and why" list naming a source the atlas cites',
    // A-013 cites E-169 (the small atlas keeps the entities this file names).
    file: 'content/atlas.yaml',
    says: /uncited lists E-169 as not cited, but the atlas cites it/,
    plant: (c) => withUncited(c, '  from: E-169\n  to: E-207\n  sources:\n    - id: E-169\n      reason: Planted.\n'),
  },
  {
    rule: 'uncited-source',
    what: 'the "not cited, and why" list naming an entry outside its revision',
    file: 'content/atlas.yaml',
    says: /uncited lists E-150, which is outside the revision it accounts for \(E-169 to E-207\)/,
    plant: (c) => withUncited(c, '  from: E-169\n  to: E-207\n  sources:\n    - id: E-150\n      reason: Planted.\n'),
  },
  // Added with the 0.4.0 follow-ups: IDs written inside prose name entities that exist.
  {
    rule: 'inline-reference',
    what: 'a mechanism ID in prose that names nothing',
    entity: 'A-001',
    says: /summary names M-999 in its text, but no mechanism M-999 exists/,
    plant: (c) => c.set('A-001', ['summary'], 'You heard nothing back (see M-999).'),
  },
  {
    rule: 'inline-reference',
    what: 'an inline citation of a source the atlas does not hold',
    entity: 'A-016',
    says: /non_inferences\[0\] names E-999 in its text.*sources:sync/,
    plant: (c) => c.set('A-016', ['non_inferences', 0], 'It does not establish that the gap counts against you (E-999).'),
  },
  {
    rule: 'scenario-reference',
    what: 'a scenario reporting a probe of another artifact',
    entity: 'S-001',
    says: /is a probe of A-001; add A-001/,
    plant: (c) =>
      c.set(
        'S-001',
        ['input', 'probes'],
        [{ probe: c.get('A-001', ['probes', 0, 'id']), outcome: c.get('A-001', ['probes', 0, 'outcomes', 0, 'id']) }],
      ),
  },
  {
    rule: 'scenario-reference',
    what: 'a scenario reporting an outcome its probe does not have',
    entity: 'S-001',
    says: /has no outcome "won-the-lottery"/,
    plant: (c) => c.set('S-001', ['input', 'probes'], [{ probe: c.get('A-009', ['probes', 0, 'id']), outcome: 'won-the-lottery' }]),
  },
  {
    rule: 'scenario-reference',
    what: 'a mechanism expected both in the first tier and absent',
    entity: 'S-001',
    says: /both in the first tier and absent/,
    plant: (c) => c.set('S-001', ['expect', 'absent'], [c.get('S-001', ['expect', 'first_tier', 0])]),
  },
  {
    rule: 'dangling-reference',
    what: 'a scenario observing an artifact that does not exist',
    entity: 'S-001',
    says: /input\.artifacts\[0\] refers to A-999/,
    plant: (c) => c.set('S-001', ['input', 'artifacts', 0], 'A-999'),
  },
  {
    rule: 'source-unused',
    what: 'a source nothing cites',
    entity: 'E-950',
    plant: (c) => {
      cloneAs(c, 'E-001', 'E-950', 'sources');
    },
  },
];

describe('every rule catches its break', () => {
  // The rule cases plant their breaks in a small atlas: the entities this file names (about a seventh of
  // the atlas); a case passes only on a problem the small atlas does not have without its break.
  let small: SmallAtlas;
  before(() => {
    small = new SmallAtlas(import.meta.url);
  });
  after(() => small.dispose());

  for (const k of cases) {
    test(`${k.rule}: ${k.what}`, () => {
      const copy = small.copy();
      k.plant(copy);
      const found = ofRule(copy.problems(), k.rule);
      copy.dispose();
      const match = found.find(
        (p) =>
          (k.entity === undefined || p.entity === k.entity) &&
          (k.file === undefined || (p.file ?? '').includes(k.file)) &&
          (k.says === undefined || k.says.test(p.message)),
      );
      assert.ok(
        match,
        `expected a ${k.rule} problem${k.entity ? ` on ${k.entity}` : ''}; got:\n${found.map((p) => `  ${p.entity} ${p.message}`).join('\n') || '  none'}`,
      );
      assert.equal(match.severity, RULES[k.rule].severity);
      if (match.entity && !k.rule.startsWith('family') && k.rule !== 'honest-baseline-missing') {
        assert.match(match.file ?? '', /^content\/.+\.yaml$/, 'entity problems point at their file');
        assert.ok((match.line ?? 0) >= 1, 'entity problems carry a line');
      }
    });
  }

  test('every rule except mirror parity has a case here', () => {
    const covered = new Set(cases.map((k) => k.rule));
    // Mirror parity, scenario expectations and release versions are checked by `hoba validate`
    // (test/e2e/mirror.test.ts, test/e2e/scenarios-cli.test.ts, test/e2e/releases-cli.test.ts).
    const elsewhere = new Set(['mirror-parity', 'scenario-expectation', 'release-version']);
    const missing = Object.keys(RULES).filter((r) => !covered.has(r as keyof typeof RULES) && !elsewhere.has(r));
    assert.deepEqual(missing, []);
  });
});

describe('inline-reference: what is not an atlas ID', () => {
  test("document numbers, other people's words and structured references are not reported; a real ID beside them is", () => {
    const copy = new AtlasCopy();
    try {
      // A document word before the token makes it that document's number, even where the atlas has the ID.
      copy.set(
        'A-047',
        ['description'],
        'Form I-9 (one digit), Form I-129, Handbook M-274 and Publication E-123 are documents, not atlas IDs.',
      );
      // Other people's words: a requisition number in a pasted email, a person's account.
      copy.set('A-003', ['specimens', 0, 'text'], 'Re: your application for role S-940 (requisition A-912).');
      copy.set('A-003', ['voices', 0], 'the portal said job B-777 was closed');
      // A lower-case document word does not exempt the token: ordinary prose names an ID.
      copy.set('A-016', ['description'], 'A question on the form A-915 covers is a different observation; see M-019.');
      const found = ofRule(copy.problems(), 'inline-reference');
      assert.deepEqual(
        found.map((p) => `${p.entity} ${p.message.replace(/ in its text.*/, '')}`),
        ['A-016 description names A-915'],
      );
    } finally {
      copy.dispose();
    }
  });
});

describe('reporting', () => {
  test('several problems planted at once are all reported in one run', () => {
    const copy = new AtlasCopy();
    try {
      copy
        .set('B-009', ['precedes'], ['B-010', 'B-006'])
        .set('M-004', ['operates_at', 1], 'B-099')
        .set('A-001', ['colour'], 'blue')
        .set('M-001', ['amplifies'], ['M-002'])
        .set('M-002', ['amplifies'], ['M-001'])
        .write(copy.fileOf('M-010').slice(copy.dir.length + 1), 'id: M-010\n  bad: indent\n');
      const problems = copy.problems();
      const has = (rule: string, entity?: string) =>
        problems.some((p: Problem) => p.rule === rule && (entity === undefined || p.entity === entity));
      assert.ok(has('barrier-cycle', 'B-006'), 'barrier cycle');
      assert.ok(has('dangling-reference', 'M-004'), 'dangling reference');
      assert.ok(has('schema', 'A-001'), 'unknown key');
      assert.ok(has('loop-undeclared-cycle', 'M-001'), 'undeclared cycle');
      assert.ok(has('yaml-syntax'), 'malformed YAML');
    } finally {
      copy.dispose();
    }
  });

  test('malformed YAML is reported with file and line, not thrown', () => {
    const copy = new AtlasCopy();
    try {
      const rel = copy.fileOf('A-003').slice(copy.dir.length + 1);
      copy.write(rel, 'id: A-003\ntitle: fine\nsummary: "unterminated\nstages: [screening]\n');
      const [p] = ofRule(copy.problems(), 'yaml-syntax');
      assert.ok(p, 'a yaml-syntax problem');
      assert.equal(p.file, rel);
      assert.ok(p.line !== undefined && p.line >= 3, `line points into the file (got ${p.line})`);
    } finally {
      copy.dispose();
    }
  });

  test('a schema problem points at the line of the offending field', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-004', ['facets', 'nature'], 'chaos');
      const [p] = ofRule(copy.problems(), 'schema');
      const lines = readFileSync(copy.fileOf('M-004'), 'utf8').split('\n');
      assert.match(lines[p!.line! - 1]!, /nature: chaos/);
    } finally {
      copy.dispose();
    }
  });

  test('problems are sorted by file, then line', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-004', ['operates_at', 1], 'B-099').set('A-001', ['colour'], 'blue').set('M-004', ['facets', 'nature'], 'chaos');
      const located = copy.problems().filter((p) => p.file);
      const keys = located.map((p) => [p.file!, p.line ?? 0] as const);
      const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
      assert.deepEqual(keys, sorted);
    } finally {
      copy.dispose();
    }
  });
});
