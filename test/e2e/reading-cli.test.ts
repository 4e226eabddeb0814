// The reading commands as a user runs them (the built dist/cli.cjs): output, --json, --help, exit codes,
// errors without stack traces, colours, and where the atlas comes from (checkout, cache, bundled).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { z } from 'zod';
import { findInterventions } from '../../src/analysis/interventions.ts';
import { ExplainResult, Neighbourhood, NodeView, SearchResult } from '../../src/analysis/schemas.ts';
import { AtlasSearch } from '../../src/analysis/search.ts';
import { KINDS, STAGES } from '../../src/model/vocab.ts';
import { storedText, TEXTS_FILE, type TextsHead } from '../../src/cli/stored-text.ts';
import { layOut } from '../../src/cli/stored-text-build.ts';
import { openBundled, SNAPSHOT_FILE } from '../../src/registry/snapshot.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { AtlasCopy, ROOT } from '../helpers.ts';
import { CLI, hoba as run, type Run, DIST } from '../dist.ts';

// Snapshots of edited copies are cached here, not in the user's cache.
const cache = mkdtempSync(join(tmpdir(), 'hoba-cache-'));
const outside = mkdtempSync(join(tmpdir(), 'hoba-outside-'));
after(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const hoba = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run =>
  run(args, { ...options, env: { HOBA_CACHE_DIR: cache, ...options.env } });

const noStack = (r: Run) => assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .+:\d+:\d+/, 'no stack trace');

function json<T>(schema: z.ZodType<T>, r: Run): T {
  assert.equal(r.status, 0, r.stderr);
  const parsed = schema.safeParse(JSON.parse(r.stdout));
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3)));
  return parsed.data;
}

const version = loadAtlas(ROOT).registry.version;

describe('hoba show', () => {
  test('shows one entity of every kind, with relations and sources', () => {
    const reg = loadAtlas(ROOT).registry;
    for (const kind of KINDS) {
      const e = reg.all(kind)[0]!;
      const r = hoba(['show', e.id]);
      assert.equal(r.status, 0, `${e.id}: ${r.stderr}`);
      assert.ok(r.stdout.startsWith(`${e.id}  `), e.id);
      assert.match(r.stdout, new RegExp(`registry ${version.replace(/\./g, '\\.')}`));
    }
    const m = hoba(['show', 'M-001']).stdout;
    for (const heading of ['facets: actor candidate', 'Operates at', 'Emits', 'Masked by', 'Targeted by', 'Sources', '[E-042]'])
      assert.ok(m.includes(heading), heading);
    const a = hoba(['show', 'A-009']).stdout;
    for (const heading of [
      'stages: team, hiring-manager, offer',
      'Does not establish',
      'Diagnostic probes',
      'final-silence-ask-timeline-once',
      'Emitted by',
    ]) {
      assert.ok(a.includes(heading), heading);
    }
  });

  test('--json is the entity view with registry_version', () => {
    const v = json(NodeView, hoba(['show', 'p-5', '--json']));
    assert.equal(v.registry_version, version);
    assert.equal(v.node.id, 'P-005');
    assert.ok(v.relations.some((l) => l.direction === 'in' && l.label === 'requires (artifacts)'));
  });

  test('an unknown ID exits 1 with close matches; words suggest titles', () => {
    const r = hoba(['show', 'M-099']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^hoba: There is no entity M-099\. .*Did you mean M-009/);
    noStack(r);
    const words = hoba(['show', 'reposted']);
    assert.equal(words.status, 1);
    assert.match(words.stderr, /"reposted" is not an atlas ID.*A-004 \(Role closed, then reposted\)/);
  });

  test('usage errors exit 2', () => {
    for (const args of [['show'], ['show', 'M-001', 'M-002'], ['show', 'M-001', '--bogus']]) {
      const r = hoba(args);
      assert.equal(r.status, 2, args.join(' '));
      noStack(r);
    }
  });
});

describe('hoba explain', () => {
  test('by default, the plain answer: no IDs, what it can mean, the one thing to check, what to do now, the explanations grouped', () => {
    const r = hoba(['explain', 'A-009']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^You saw: Silence after the final interview\n\nCheck one thing first\n {2}This can come from /);
    for (const part of [
      'One thing worth checking: ',
      'What to do now: ',
      'What could explain it',
      'It cannot say how likely each one is',
      'run the same command with --full',
    ]) {
      assert.ok(r.stdout.replace(/\s+/g, ' ').includes(part), part);
    }
    assert.doesNotMatch(r.stdout, /\b[ABMPLISE]-\d{3}\b/, 'no ID in the plain answer');
    for (const l of r.stdout.trimEnd().split('\n')) assert.ok(l.length <= 80, `piped output is wrapped at 80 columns: ${l}`);
  });

  test('--on and --where give the law’s time limits as dates, with the notice; a bad date or place is a usage error', () => {
    const r = hoba(['explain', 'A-024', '--on', '2026-11-20', '--where', 'us-ca']);
    assert.equal(r.status, 0, r.stderr);
    const text = r.stdout.replace(/\s+/g, ' ');
    assert.match(text, /Your deadlines \(not legal advice\)/);
    assert.match(
      text,
      /File a charge with the EEOC by 19 May 2027 \(180 days from 20 November 2026\), or by 16 September 2027 \(300 days\)/,
    );
    assert.match(text, /Complain to the Civil Rights Department by 20 November 2029/);
    assert.match(text, /Check these dates with an adviser/);
    assert.match(text, /Not legal advice/);
    const uk = json(ExplainResult, hoba(['explain', 'A-024', '--on', '2026-08-31', '--where', 'uk-eng', '--json']));
    const tribunal = uk.agency.deadlines.find((d) => d.action === 'Claim in an employment tribunal')!;
    assert.deepEqual(
      tribunal.dates.map((d) => d.date),
      ['2026-11-30', '2032-08-31'],
      'three months less one day from 31 August: 30 November; six years in the civil courts',
    );
    for (const [args, says] of [
      [['--on', '2026-02-30'], /calendar date written YYYY-MM-DD/],
      [['--where', 'atlantis'], /not a place the atlas knows/],
    ] as const) {
      const bad = hoba(['explain', 'A-024', ...args]);
      assert.equal(bad.status, 2, bad.stderr);
      assert.match(bad.stderr, says);
      noStack(bad);
    }
  });

  test('--brief leads with the verdict, fits 80 columns and about 40 lines when piped; --full shows everything', () => {
    const r = hoba(['explain', 'A-009', '--brief']);
    assert.equal(r.status, 0, r.stderr);
    const headings = [
      'You saw: A-009 Silence after the final interview',
      'Verdict: ',
      'What could have produced this',
      'What would tell them apart',
      'What these facts do NOT establish',
    ];
    const order = headings.map((h) => r.stdout.indexOf(h));
    assert.ok(
      order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]!)),
      `headings in order: ${order.join(',')}`,
    );
    assert.match(r.stdout, /compatible, not proven/);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length <= 45, `${lines.length} lines`);
    for (const l of lines) assert.ok(l.length <= 80, `piped output is wrapped at 80 columns: ${l}`);
    const full = hoba(['explain', 'A-009', '--full']);
    assert.equal(full.status, 0, full.stderr);
    assert.ok(full.stdout.split('\n').length > lines.length);
    for (const heading of [
      'Who can change them',
      'Where it happened (barriers)',
      'Topological and uncalibrated',
      'at the same stage; the atlas does not record them as producing what you saw',
    ]) {
      assert.ok(full.stdout.replace(/\s+/g, ' ').includes(heading), heading);
    }
    for (const l of full.stdout.trimEnd().split('\n')) assert.ok(l.length <= 80 || /https?:\/\/\S{60,}/.test(l), l); // a long web address stays whole
  });

  test('--json gives the full structure, with or without --full; probes narrow and low signal is said plainly', () => {
    const full = json(ExplainResult, hoba(['explain', 'A-009', '--json']));
    assert.equal(full.registry_version, version);
    assert.deepEqual(json(ExplainResult, hoba(['explain', 'A-009', '--json', '--full'])), full);
    assert.ok(
      full.behind.mechanisms.some((m) => m.tier === 'same-stage'),
      'the second tier is in the JSON',
    );
    const asked = ['explain', 'A-009', '--probe', 'final-silence-ask-timeline-once=no-reply'];
    const low = json(ExplainResult, hoba([...asked, '--json']));
    const text = hoba([...asked, '--brief']);
    assert.equal(text.status, 0);
    if (low.agency.verdict.code === 'low-signal') assert.match(text.stdout, /Verdict: This alone does not tell you much\n {2}Low signal: /);
    const narrowed = json(
      ExplainResult,
      hoba(['explain', 'A-009', '--json', '--probe', 'final-silence-ask-timeline-once=reply-offer-or-next-step']),
    );
    assert.deepEqual(
      narrowed.behind.excluded.map((x) => x.id),
      ['M-008'],
    );
    const two = json(ExplainResult, hoba(['explain', 'A-009', 'A-027', '--stage', 'offer', '--json']));
    assert.deepEqual(two.obstacle.stages, ['offer']);
    assert.ok(two.behind.patterns.some((p) => p.id === 'P-005' && p.match === 'triggered'));
  });

  test('plain words and scenarios: what was read is said first', () => {
    const words = hoba(['explain', 'I was ghosted after the final interview']);
    assert.equal(words.status, 0, words.stderr);
    assert.match(words.stdout, /^You wrote: "I was ghosted after the final interview"\nRead as: Silence after the final interview\./);
    assert.match(
      hoba(['explain', 'I was ghosted after the final interview', '--brief']).stdout,
      /^You wrote: "I was ghosted after the final interview"\nRead as this observation:\n {2}- A-009 /,
    );
    // Several words, unquoted, are one description too.
    const unquoted = json(ExplainResult, hoba(['explain', 'ghosted', 'after', 'the', 'final', 'interview', '--json']));
    assert.equal(unquoted.input.from_text?.text, 'ghosted after the final interview');
    assert.equal(unquoted.input.artifacts[0], 'A-009');
    const foreign = hoba(['explain', "Je n'ai jamais reçu de réponse après l'entretien final"]);
    assert.equal(foreign.status, 2);
    assert.match(foreign.stderr, /^hoba: .*English/);
    noStack(foreign);
    const reg = loadAtlas(ROOT).registry;
    const scenario = reg.all('scenario').find((x) => x.status === 'active');
    if (scenario) {
      const r = hoba(['explain', '--scenario', scenario.id]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.stdout.startsWith(`Scenario: ${scenario.title}`), r.stdout.slice(0, 100));
      assert.ok(hoba(['explain', '--scenario', scenario.id, '--brief']).stdout.startsWith(`Scenario ${scenario.id}: `));
      const viaId = json(ExplainResult, hoba(['explain', scenario.id.toLowerCase(), '--json']));
      assert.equal(viaId.input.scenario?.id, scenario.id);
      const both = hoba(['explain', 'A-009', '--scenario', scenario.id]);
      assert.equal(both.status, 2);
      assert.match(both.stderr, /either --scenario or what you observed/);
    }
    const unknown = hoba(['explain', '--scenario', 'S-999', '--json']);
    assert.equal(unknown.status, 1);
    assert.equal((JSON.parse(unknown.stdout) as { code: string }).code, 'unknown-id');
  });

  test('--stage takes every stage of the funnel and lists them on a bad value', () => {
    for (const stage of STAGES) assert.equal(hoba(['explain', 'A-001', '--stage', stage, '--json']).status, 0, stage);
    const bad = hoba(['explain', 'A-001', '--stage', 'onsite']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /Allowed choices are pre-posting, sourcing, .*post-offer/);
    noStack(bad);
  });

  test('error paths: exit codes and messages', () => {
    const cases: Array<[args: string[], status: number, message: RegExp]> = [
      [['explain', 'A-099'], 1, /There is no artifact \(observation\) A-099/],
      [['explain', 'M-001'], 2, /M-001 is a mechanism .*takes artifact \(observation\) IDs/],
      [
        ['explain'],
        2,
        /Say what you observed: artifact IDs \(such as A-009\), --scenario S-001, your own words in quotes, or --message <file>/,
      ],
      [['explain', '--message', 'no-such-file.txt'], 2, /could not read the message file no-such-file\.txt: there is no such file/],
      [['explain', 'A-009', '--pick', 'A-046'], 2, /--pick answers a question asked about your words/],
      [['explain', 'words', '--pick', 'M-001'], 2, /Use an observation ID from the question, e\.g\. --pick A-046/],
      [['explain', 'A-009', '--probe', 'no-equals-sign'], 2, /Use <probe_id>=<outcome_id>/],
      [
        ['explain', 'A-009', '--probe', 'ask-nicely=yes'],
        2,
        /no probe "ask-nicely".*Its probes are: final-silence-ask-timeline-once, final-silence-contact-checks-status/,
      ],
      [
        ['explain', 'A-009', '--probe', 'final-silence-ask-timeline-once=maybe'],
        2,
        /no outcome "maybe"\. Its outcomes are: reply-offer-or-next-step/,
      ],
      [['explain', 'A-009', '--probe', 'repost-compare-postings=changed-content'], 2, /belongs to A-004/],
    ];
    for (const [args, status, message] of cases) {
      const r = hoba(args);
      assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      noStack(r);
    }
  });
});

describe('hoba search', () => {
  test('ranks, labels kinds and says how to see more', () => {
    const r = hoba(['search', 'ghosted', 'after', 'final', 'interview', '--limit', '3']);
    assert.equal(r.status, 0);
    assert.match(r.stdout.split('\n')[0]!, /^A-009\s+artifact\s+Silence after the final interview/);
    assert.match(r.stdout, /relevant matches \(showing 3 of \d+; --limit for more\)/);
  });

  test('--json, --kind and --limit', () => {
    const s = json(SearchResult, hoba(['search', 'salary lowered', '--json', '--limit', '3']));
    assert.equal(s.registry_version, version);
    assert.equal(s.results[0]?.id, 'A-007');
    assert.equal(s.results.length, 3);
    const k = json(SearchResult, hoba(['search', 'interview', '--kind', 'mechanism,pattern', '--json']));
    assert.ok(k.results.every((h) => h.kind === 'mechanism' || h.kind === 'pattern'));
  });

  test('no match exits 0 with an empty list and terms to try', () => {
    const r = hoba(['search', 'recsinded']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /No matches for "recsinded"\.\nClose terms to try: rescinded/);
    const j = json(SearchResult, hoba(['search', 'xyzzy', '--json']));
    assert.deepEqual(j.results, []);
    const elsewhere = hoba(['search', 'rescinded', '--kind', 'pattern']);
    assert.equal(elsewhere.status, 0);
    assert.match(elsewhere.stdout, /^No matches for "rescinded" among pattern\.\n\d+ matches in other kinds: drop --kind to see them\.\n$/);
  });

  test('bad options are usage errors', () => {
    for (const [args, message] of [
      [['search', 'x', '--kind', 'mechanisms'], /Allowed kinds are artifact, barrier/],
      [['search', 'x', '--limit', '0'], /Use a whole number from 1 up/],
      [['search'], /missing required argument/],
    ] as const) {
      const r = hoba([...args]);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message);
      noStack(r);
    }
  });
});

describe('hoba graph', () => {
  test('text, mermaid and dot; --json is the neighbourhood', () => {
    assert.match(hoba(['graph', 'M-008']).stdout, /^M-008 Headcount freeze .*depth 1/);
    assert.match(hoba(['graph', 'P-005', '--format', 'mermaid', '--depth', '2']).stdout, /^flowchart LR\n/);
    assert.match(
      hoba(['graph', 'L-002', '--format', 'dot']).stdout,
      /^digraph hoba \{[\s\S]*"M-004" -> "M-006" \[label="amplifies"\];[\s\S]*\}\n$/,
    );
    const n = json(Neighbourhood, hoba(['graph', 'B-005', '--direction', 'in', '--relation', 'operates_at', '--json']));
    assert.ok(n.nodes.slice(1).every((x) => x.kind === 'mechanism'));
  });

  test('bad options are usage errors; unknown IDs exit 1', () => {
    for (const args of [
      ['graph', 'M-008', '--depth', '9'],
      ['graph', 'M-008', '--format', 'svg'],
      ['graph', 'M-008', '--relation', 'causes'],
    ]) {
      const r = hoba(args);
      assert.equal(r.status, 2, args.join(' '));
      noStack(r);
    }
    assert.equal(hoba(['graph', 'L-099']).status, 1);
  });
});

describe('every command', () => {
  test('--help shows examples', () => {
    for (const command of ['search', 'show', 'explain', 'graph', 'methodology']) {
      const r = hoba([command, '--help']);
      assert.equal(r.status, 0, command);
      assert.match(r.stdout, new RegExp(`Usage: hoba ${command}`));
      assert.match(r.stdout, /Examples:\n {2}\$ hoba /);
    }
    const top = hoba(['--help']).stdout;
    for (const command of ['search', 'show', 'explain', 'graph', 'methodology', 'validate'])
      assert.match(top, new RegExp(`\\n  ${command} `));
  });

  test('methodology prints Markdown or JSON', () => {
    const r = hoba(['methodology']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^# How to read the Hiring Obstacles & Barriers Atlas\n/);
    assert.match(r.stdout, /## The HOBA protocol/);
    assert.equal(JSON.parse(hoba(['methodology', '--json']).stdout).registry_version, version);
  });

  test('no colour codes unless on a terminal, even with FORCE_COLOR unset', () => {
    for (const args of [
      ['show', 'M-001'],
      ['explain', 'A-009'],
      ['search', 'reposted'],
    ]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI escape is what it looks for
      assert.doesNotMatch(hoba(args, { env: { NO_COLOR: '' } }).stdout, /\x1b\[/, args.join(' '));
    }
  });
});

describe('standard output of the reading commands', () => {
  // A preload that reports, at exit, the Node built-ins loaded after it: what the command itself loaded.
  const probe = join(outside, 'builtins-probe.cjs');
  before(() =>
    writeFileSync(
      probe,
      "const before = new Set(process.moduleLoadList);\nprocess.on('exit', () => require('fs').writeSync(2, 'LOADED ' + process.moduleLoadList.filter((m) => !before.has(m)).join(',') + '\\n'));\n",
    ),
  );

  test('piped, they write without the stdout stream and load neither node:crypto nor the stream machinery', () => {
    for (const args of [
      ['show', 'M-001'],
      ['explain', 'A-009'],
      ['search', 'reposted'],
      ['show', 'M-001', '--json'],
    ]) {
      const r = spawnSync(process.execPath, ['--require', probe, CLI, ...args], {
        cwd: outside,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', HOBA_DIR: '' },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, hoba(args, { cwd: outside }).stdout, 'the same output as through the stream');
      const loaded = /LOADED (.*)/.exec(r.stderr)?.[1] ?? '';
      assert.doesNotMatch(loaded, /\bcrypto\b/, `${args.join(' ')} loads node:crypto: ${loaded}`);
      assert.doesNotMatch(loaded, /NativeModule (net|stream|tty)\b/, `${args.join(' ')} creates the stdout stream: ${loaded}`);
    }
    // The marker is real: a command that does create the stream shows it.
    const marker = spawnSync(process.execPath, ['--require', probe, '-e', 'process.stdout.write("x")'], { encoding: 'utf8' });
    assert.match(marker.stderr, /NativeModule (net|stream)\b/);
  });

  test('a reader that goes away (| true) ends the command quietly, exit 0', () => {
    for (const args of ['show M-001', 'explain A-009 --full', 'search reposted --json', 'methodology', '--help']) {
      const r = spawnSync('bash', ['-c', `node ${JSON.stringify(CLI)} ${args} | true; echo "status \${PIPESTATUS[0]}" >&2`], {
        cwd: outside,
        encoding: 'utf8',
        env: { ...process.env, HOBA_DIR: '' },
      });
      assert.match(r.stderr, /^status 0\n$/, `${args}: ${r.stderr}`);
    }
  });
});

describe('the texts the build laid out (dist/atlas.texts)', () => {
  test('one for every entity’s show and every observation’s explain, each the layout of the bundled snapshot by this code', () => {
    const bundled = openBundled(join(DIST, SNAPSHOT_FILE))!;
    assert.ok(bundled, 'the bundled snapshot reads');
    const path = join(DIST, TEXTS_FILE);
    let checked = 0;
    for (const e of bundled.registry.entities) {
      for (const command of e.kind === 'artifact' ? (['show', 'explain'] as const) : (['show'] as const)) {
        assert.equal(storedText(bundled, command, e.id, path)?.toString('utf8'), layOut(bundled, command, e.id), `${command} ${e.id}`);
        checked++;
      }
    }
    assert.ok(checked > bundled.registry.size);
  });

  test('piped, show and explain of an ID print the stored text; any option, another spelling or another atlas lays it out', () => {
    // A copy of dist/ whose texts for show M-001 and explain A-009 are replaced by markers.
    const copy = join(outside, 'dist-marked');
    cpSync(DIST, copy, { recursive: true });
    const bytes = readFileSync(join(copy, TEXTS_FILE));
    const split = bytes.indexOf(10);
    const head = JSON.parse(bytes.toString('utf8', 0, split)) as TextsHead;
    const marked = (h: TextsHead) => {
      let at = split + 1;
      const texts = h.names.map((name, i) => {
        const text = bytes.subarray(at, at + head.lengths[i]!);
        at += head.lengths[i]!;
        return name === 'show M-001' || name === 'explain A-009' ? Buffer.from(`stored ${name}\n`) : text;
      });
      writeFileSync(
        join(copy, TEXTS_FILE),
        Buffer.concat([Buffer.from(`${JSON.stringify({ ...h, lengths: texts.map((t) => t.length) })}\n`), ...texts]),
      );
    };
    marked(head);
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, [join(copy, 'cli.cjs'), ...args], {
        cwd: outside,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', HOBA_DIR: '', HOBA_CACHE_DIR: cache },
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    try {
      assert.equal(run(['show', 'M-001']), 'stored show M-001\n');
      assert.equal(run(['explain', 'A-009']), 'stored explain A-009\n');
      const laidOut = hoba(['show', 'M-001'], { cwd: outside }).stdout;
      assert.match(laidOut, /^M-001 {2}/);
      assert.equal(run(['show', 'm-1']), laidOut);
      assert.equal(JSON.parse(run(['show', 'M-001', '--json'])).node.id, 'M-001');
      for (const args of [
        ['explain', 'a-9'],
        ['explain', 'A-009', '--full'],
        ['explain', 'A-009', '--stage', 'offer'],
        ['explain', 'A-009', 'A-027'],
      ])
        assert.doesNotMatch(run(args), /^stored/, args.join(' '));
      // Texts of another atlas are not used.
      marked({ ...head, content_hash: 'another atlas' });
      assert.equal(run(['show', 'M-001']), laidOut);
      // Without the file, each command lays its text out itself, and prints what the stored text holds:
      // the commands' own paths and the build's layout (layOut) cannot drift apart unseen.
      rmSync(join(copy, TEXTS_FILE));
      for (const args of [
        ['show', 'M-001'],
        ['show', 'A-046'],
        ['show', 'E-013'],
        ['explain', 'A-009'],
        ['explain', 'A-046'],
      ])
        assert.equal(run(args), hoba(args, { cwd: outside }).stdout, args.join(' '));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('where the atlas comes from', () => {
  test('outside any checkout, the bundled snapshot is read; validate explains it needs a checkout', () => {
    const r = hoba(['show', 'M-001', '--json'], { cwd: outside });
    assert.equal(json(NodeView, r).node.id, 'M-001');
    const v = hoba(['validate'], { cwd: outside });
    assert.equal(v.status, 2);
    assert.match(v.stderr, /no atlas checkout found.*this command works on the content of a checkout/);
  });

  test('an edited checkout is read fresh, then from the cache; --dir and HOBA_DIR pick it', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-001', ['title'], 'Edited title for the snapshot test');
      copy.set('A-009', ['title'], 'Edited observation for the snapshot test');
      assert.match(hoba(['explain', 'A-009', '--dir', copy.dir]).stdout, /^You saw: Edited observation for the snapshot test/);
      const first = hoba(['show', 'M-001', '--dir', copy.dir]);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /^M-001 {2}Edited title for the snapshot test/);
      assert.ok(
        readdirSync(cache).some((f) => /^atlas-[0-9a-f]{32}\.json$/.test(f)),
        'a snapshot of the copy is cached',
      );
      const again = hoba(['show', 'M-001'], { cwd: outside, env: { HOBA_DIR: copy.dir } });
      assert.match(again.stdout, /^M-001 {2}Edited title for the snapshot test/);
      // The next edit is picked up at once.
      copy.set('M-001', ['title'], 'Edited again');
      assert.match(hoba(['show', 'M-001', '--dir', copy.dir]).stdout, /^M-001 {2}Edited again/);
      // And the checkout itself is unaffected.
      assert.doesNotMatch(hoba(['show', 'M-001']).stdout, /Edited/);
    } finally {
      copy.dispose();
    }
  });

  test('content with errors is reported on stderr and the rest still answers', () => {
    const copy = new AtlasCopy();
    try {
      copy.set('M-004', ['facets', 'actor'], 'robot');
      const r = hoba(['show', 'M-001', '--dir', copy.dir]);
      assert.equal(r.status, 0);
      assert.match(r.stderr, /warning: the content has 1 error \(first: content\/mechanisms\/M-004-[^:]+:\d+: facets\.actor/);
      assert.equal(hoba(['show', 'M-004', '--dir', copy.dir]).status, 1);
    } finally {
      copy.dispose();
    }
  });

  test('--dir must be an atlas checkout', () => {
    const notDir = hoba(['show', 'M-001', '--dir', join(outside, 'nope')]);
    assert.equal(notDir.status, 2);
    assert.match(notDir.stderr, /is not a directory/);
    const empty = hoba(['show', 'M-001', '--dir', outside]);
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /holds no atlas/);
  });

  test('without a checkout or a bundled snapshot, the error says what to do', () => {
    const dist = mkdtempSync(join(tmpdir(), 'hoba-dist-'));
    try {
      cpSync(DIST, dist, { recursive: true, filter: (src) => !src.endsWith('.snapshot.json') });
      assert.ok(!existsSync(join(dist, 'atlas.snapshot.json')));
      const r = spawnSync(process.execPath, [join(dist, 'cli.cjs'), 'show', 'M-001'], {
        cwd: outside,
        encoding: 'utf8',
        env: { ...process.env, HOBA_DIR: '' },
      });
      assert.equal(r.status, 1);
      assert.match(
        r.stderr,
        /no atlas to read: not inside a checkout .* Run inside a checkout, pass --dir <checkout>, or run npm run build/,
      );
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  before(() => assert.ok(existsSync(join(DIST, 'atlas.snapshot.json')), 'npm run build writes the bundled snapshot'));
});

describe('hardening (issue #10)', () => {
  test('prototype keys are words like any other, through the CLI and the search MCP calls', () => {
    const index = AtlasSearch.build(loadAtlas(ROOT).registry);
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf']) {
      const r = hoba(['search', word]);
      assert.equal(r.status, 0, `${word}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /unexpected error/, word);
      assert.doesNotThrow(() => index.search(word), word);
    }
  });

  test('a long query is refused with its length and the limit, and is not echoed back', () => {
    for (const query of ['a'.repeat(40_000), 'ghosted after the final interview '.repeat(20)]) {
      const r = hoba(['search', query]);
      assert.equal(r.status, 2);
      assert.match(
        r.stderr,
        new RegExp(`^hoba: The query is ${query.trim().length} characters long; searches take at most 300\\. Shorten it`),
      );
      assert.ok(r.stderr.length < 400, 'the query is not echoed');
      const j = hoba(['search', query, '--json']);
      assert.equal(j.status, 2);
      assert.equal((JSON.parse(j.stdout) as { code: string }).code, 'invalid-argument');
    }
    assert.equal(hoba(['search', `${'interview '.repeat(30)}`.trim().slice(0, 300)]).status, 0, 'a query at the limit is searched');
  });

  test('with --json every failure is a JSON object on stdout with a stable code; the exit status is unchanged', () => {
    const cases: Array<[args: string[], status: number, code: string, cwd?: string]> = [
      [['show', 'M-099', '--json'], 1, 'unknown-id'],
      [['graph', 'L-099', '--json'], 1, 'unknown-id'],
      [['explain', 'M-001', '--json'], 2, 'invalid-argument'],
      [['explain', 'A-009', '--probe', 'ask-nicely=yes', '--json'], 2, 'invalid-argument'],
      [['show', 'M-001', '--bogus', '--json'], 2, 'usage'],
      [['show', '--json'], 2, 'usage'],
      [['explain', 'A-001', '--stage', 'onsite', '--json'], 2, 'usage'],
      [['search', 'x', '--limit', '0', '--json'], 2, 'usage'],
      [['frobnicate', '--json'], 2, 'usage'],
      [['show', 'M-001', '--dir', join(outside, 'nope'), '--json'], 2, 'not-a-checkout'],
      [['show', 'M-001', '--dir', outside, '--json'], 2, 'not-a-checkout'],
      [['validate', '--json'], 2, 'no-checkout', outside],
    ];
    for (const [args, status, code, cwd] of cases) {
      const r = hoba(args, cwd ? { cwd } : {});
      const what = args.join(' ');
      assert.equal(r.status, status, `${what}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stderr, '', `${what}: nothing on stderr`);
      const error = JSON.parse(r.stdout) as { code: string; message: string };
      assert.equal(error.code, code, what);
      assert.ok(error.message.length > 10 && !error.message.startsWith('hoba:') && !error.message.startsWith('error:'), what);
    }
    const unknown = JSON.parse(hoba(['show', 'M-099', '--json']).stdout) as { suggestions: Array<{ id: string }> };
    assert.ok(
      unknown.suggestions.some((s) => s.id === 'M-009'),
      'close matches come along',
    );
    const stage = JSON.parse(hoba(['explain', 'A-001', '--stage', 'onsite', '--json']).stdout) as { message: string };
    assert.match(stage.message, /Allowed choices are pre-posting, .*Run hoba explain --help for usage\.$/);
  });

  test('every error line starts with hoba:, commander option-parsing errors too', () => {
    for (const args of [['show', 'M-001', '--bogus'], ['search'], ['graph', 'M-008', '--depth', '9'], ['frobnicate'], ['show', 'M-099']]) {
      const r = hoba(args);
      assert.match(r.stderr, /^hoba: \S/, args.join(' '));
      assert.doesNotMatch(r.stderr, /^error:/m, args.join(' '));
    }
    assert.match(hoba(['show', 'M-001', '--bogus']).stderr, /^hoba: unknown option '--bogus'\. Run hoba show --help for usage\.\n$/);
  });

  test('--stage, --format and --direction are read in any case, like IDs', () => {
    const r = json(ExplainResult, hoba(['explain', 'a-9', '--stage', 'TEAM', '--json']));
    assert.equal(r.input.stage, 'team');
    assert.match(hoba(['graph', 'P-005', '--format', 'Mermaid', '--direction', 'OUT']).stdout, /^flowchart LR\n/);
  });

  test('a stage at which an observation is not recorded is said, in text and JSON', () => {
    const moved = json(ExplainResult, hoba(['explain', 'A-001', '--stage', 'technical', '--json']));
    assert.match(
      moved.obstacle.stage_note ?? '',
      /^A-001 \(Silence after applying\) is recorded at ingestion, screening, not at technical\./,
    );
    assert.match(
      hoba(['explain', 'A-001', '--stage', 'technical', '--brief']).stdout,
      /^stage given: technical[^\n]*\n {2}note: A-001 \(Silence after applying\) is recorded at/m,
    );
    assert.match(
      hoba(['explain', 'A-001', '--stage', 'technical']).stdout,
      /^Note: You said this happened at the technical stage, but the atlas does not\s+record “Silence after\s+applying” there\./m,
    );
    assert.equal(json(ExplainResult, hoba(['explain', 'A-009', '--stage', 'team', '--json'])).obstacle.stage_note, undefined);
    assert.equal(json(ExplainResult, hoba(['explain', 'A-009', '--json'])).obstacle.stage_note, undefined);
  });

  test('the help examples of explain pass a stage the observation is recorded at', () => {
    const reg = loadAtlas(ROOT).registry;
    const help = hoba(['--help']).stdout + hoba(['explain', '--help']).stdout;
    const examples = [...help.matchAll(/hoba explain ((?:[Aa]-\d+ )+)--stage (\S+)/g)];
    assert.ok(examples.length >= 2, 'the examples are found');
    for (const [example, ids, stage] of examples) {
      for (const id of ids!.trim().split(' ')) {
        const a = reg.getOf('artifact', id.toUpperCase());
        assert.ok(a?.stages.includes(stage as never), `${example}: ${id} is recorded at ${a?.stages.join(', ')}`);
      }
    }
  });

  test('titles in parentheses do not nest; articles agree with the kind', () => {
    const text = (hoba(['explain', 'A-009', '--full']).stdout + hoba(['show', 'M-099']).stderr).replace(/\s+/g, ' ');
    assert.doesNotMatch(text, /\([^()]*\([^()]*\)\)/, 'no "(Title (note))"');
    assert.match(
      text,
      /M-031 \(Held as backup while the first choice decides \[honest baseline\]\)|M-001 \(Genuine skill or experience gap \[honest baseline\]\)/,
    );
    assert.match(hoba(['explain', 'I-003']).stderr, /I-003 is an intervention \(/);
    assert.throws(
      () => findInterventions(loadAtlas(ROOT).registry, ['A-001']),
      /A-001 is an artifact \(Silence after applying\); get_interventions takes/,
    );
  });
});

test('zod and yaml stay off the start-up path of show, explain and search', async () => {
  const { readFileSync } = await import('node:fs');
  const dist = DIST;
  // dist/cli.cjs, the bin (src/cli/bin.ts, bundled), compiles the bundle, dist/cli-main.cjs, through its code
  // cache (and turns on Node's compile cache before importing any of the program's chunks).
  const bin = readFileSync(join(dist, 'cli.cjs'), 'utf8');
  assert.ok(bin.startsWith('#!/usr/bin/env node'), 'cli.cjs runs as the hoba bin');
  assert.deepEqual(
    [...new Set([...bin.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]))].sort(),
    ['node:fs', 'node:module', 'node:path', 'node:url', 'node:vm'],
    'the bin loads built-ins only',
  );
  assert.match(bin, /["']cli-main\.cjs["']/);
  const bundle = readFileSync(join(dist, 'cli-main.cjs'));
  assert.ok(bundle.toString('latin1').startsWith('(function ('), 'the bundle is one function expression');
  assert.ok(
    bundle.every((b) => b < 0x80),
    'the bundle is ASCII (the bin reads it as Latin-1)',
  );
  assert.match(bin, /enableCompileCache/);
  const cli = readFileSync(join(dist, 'cli-main.cjs'), 'utf8');
  // The modules a command loads: its own chunk and everything reachable through static imports.
  const closure = (entry: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(join(dist, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(m[1]!);
    };
    visit(entry);
    return seen;
  };
  // The reading commands' usual forms load one module, cli-main.cjs, CommonJS (scripts/build.mjs): it
  // requires nothing of its own and imports only the program (any other command) and the content loader
  // (no snapshot fits).
  const own = (file: string) =>
    [...readFileSync(join(dist, file), 'utf8').matchAll(/(?:require\(|from\s*|import\s*\(?|__hobaImport\()"\.\/([^"]+)"/g)].map(
      (m) => m[1]!,
    );
  const loaded = own('cli-main.cjs');
  assert.deepEqual(
    loaded.filter((f) => !/^(?:load|checkout-indexes)-[A-Z0-9]+\.js$/.test(f)),
    ['program.js'],
    'cli-main.cjs loads only the program, the loader and the indexes (when the checkout’s snapshot is built), of its own modules',
  );
  // Through the bin's import function: code compiled by node:vm cannot call import() itself.
  assert.match(cli, /__hobaImport\("\.\/program\.js"\)/, 'the program on demand');
  assert.match(cli, /__hobaImport\("\.\/load-[A-Z0-9]+\.js"\)/, 'the content loader on demand');
  assert.doesNotMatch(cli, /\bimport\(/, 'no import() left in the bundle');
  const path = ['cli.cjs', 'cli-main.cjs'];
  const code = [...path].map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
  assert.doesNotMatch(code, /class ZodError|ZodError=/, 'zod');
  assert.doesNotMatch(code, /LineCounter\d*=class/, 'yaml');
  assert.doesNotMatch(code, /_parseCommand\(/, 'commander');
  // The markers are real: validate loads zod and yaml.
  const validate = /import\("\.\/(validate-[A-Z0-9]+\.js)"\)/.exec(readFileSync(join(dist, 'program.js'), 'utf8'))?.[1];
  assert.ok(validate);
  const validateCode = [...closure(validate)].map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
  assert.match(validateCode, /ZodError=/);
  assert.match(validateCode, /LineCounter\d*=class/);
  // …and the other commands load commander.
  const { readdirSync } = await import('node:fs');
  assert.ok(readdirSync(dist).some((f) => f.endsWith('.js') && /_parseCommand\(/.test(readFileSync(join(dist, f), 'utf8'))));
});

describe('the code cache of dist/cli.cjs', () => {
  const codeCache = mkdtempSync(join(tmpdir(), 'hoba-code-cache-'));
  after(() => rmSync(codeCache, { recursive: true, force: true }));
  const start = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, ...args], {
      cwd: outside,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', HOBA_DIR: '', HOBA_CACHE_DIR: codeCache, ...env },
    });
  const files = () => (existsSync(join(codeCache, 'code')) ? readdirSync(join(codeCache, 'code')).sort() : []);

  test('a command writes one for its form, reads it next time, and answers the same as without', () => {
    for (const args of [
      ['show', 'M-001'],
      ['explain', 'A-009', '--json'],
      ['search', 'ghosted after final interview'],
    ]) {
      const plain = start(args, { NODE_DISABLE_COMPILE_CACHE: '1' });
      assert.equal(plain.status, 0, plain.stderr);
      const before = files();
      const first = start(args);
      assert.equal(first.status, 0, first.stderr);
      const made = files().filter((f) => !before.includes(f));
      const form = args[0] + (args.includes('--json') ? '-json' : '');
      assert.equal(made.length, 1, `one cache for ${args.join(' ')}: ${made}`);
      assert.match(made[0]!, new RegExp(`^cli-main-[0-9a-f]{16}-\\d+-\\d+-${process.version}-${process.arch}-${form}\\.bin$`));
      const bytes = readFileSync(join(codeCache, 'code', made[0]!));
      const second = start(args);
      assert.equal(second.status, 0, second.stderr);
      assert.deepEqual(files(), [...before, ...made].sort(), 'no other cache written');
      assert.ok(readFileSync(join(codeCache, 'code', made[0]!)).equals(bytes), 'a cache V8 accepts is not rewritten');
      assert.equal(first.stdout, plain.stdout, args.join(' '));
      assert.equal(second.stdout, plain.stdout, args.join(' '));
    }
    assert.ok(!existsSync(join(outside, 'code')), 'nothing written where the command ran');
  });

  test('a damaged cache is refused by V8 and replaced; an unwritable cache folder costs nothing but speed', () => {
    const expected = start(['show', 'M-001'], { NODE_DISABLE_COMPILE_CACHE: '1' }).stdout;
    start(['show', 'M-001']);
    const name = files().find((f) => f.endsWith('-show.bin'))!;
    const path = join(codeCache, 'code', name);
    for (const damaged of [Buffer.from('not a code cache'), readFileSync(path).subarray(0, 64)]) {
      writeFileSync(path, damaged);
      const r = start(['show', 'M-001']);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, expected);
      assert.ok(!readFileSync(path).equals(damaged), 'the damaged cache is replaced');
      assert.equal(start(['show', 'M-001']).stdout, expected);
    }
    const file = join(codeCache, 'a-file');
    writeFileSync(file, 'x');
    const r = start(['show', 'M-001'], { HOBA_CACHE_DIR: file });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, expected);
    assert.equal(r.stderr, '');
  });
});
