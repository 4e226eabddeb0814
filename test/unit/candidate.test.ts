// The candidate view: the answer a worried person reads first. Measured over every worked scenario (and
// every observation alone, for the vocabulary): the default text of the CLI reads at Flesch–Kincaid grade
// 8 or below and holds no ID, slug or vocabulary word; the lead keeps to about 120 words; the CLI, the site
// and MCP say the same words; an explanation about a check, a record or a protected trait comes after the
// others unless the account brings it in, and always says what would make it relevant.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { LEAD_WORDS, firstSentence, shortSentences, withoutIds } from '../../src/analysis/candidate.ts';
import { explain } from '../../src/analysis/explain.ts';
import { AnalysisError } from '../../src/analysis/resolve.ts';
import { ExplainResult } from '../../src/analysis/schemas.ts';
import { renderCandidate } from '../../src/cli/candidate-text.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import {
  FACET_WORDS,
  FAMILY_PLAIN,
  PLAIN_ACTOR,
  PLAIN_EVIDENCE,
  PLAIN_FIDELITY,
  PLAIN_GROUP_LABELS,
  PLAIN_NATURE,
  PLAIN_NOTICE,
  PLAIN_RELEVANT_IF,
  PLAIN_TIER,
  PLAIN_VERDICT,
  PLAIN_VISIBILITY,
  PLAIN_WHO_SHORT,
  plainWho,
} from '../../src/model/plain.ts';
import { ACTORS, MECHANISM_FAMILIES, REMOVABILITIES } from '../../src/model/vocab.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { candidateHtml } from '../../src/site/browser/lib/candidate-view.ts';
import { ROOT } from '../helpers.ts';
import { grade, jargonIn, loadAtlas, wordsOf } from '../readability.ts';

let reg: Registry;
before(() => {
  reg = loadAtlas(ROOT).registry;
});

const scenarios = () => reg.all('scenario').filter((s) => s.status === 'active');
const textOf = (r: ExplainResult) => renderCandidate(r, { width: 100_000 });
/** The visible text of HTML: tags out, entities decoded, whitespace folded. */
const visible = (h: string) =>
  h
    .replace(/<details class="cv-found">[\s\S]*?<\/details>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');

describe('plain vocabulary, one place', () => {
  test('every label has a plain form, and no plain form uses the atlas’s own words', () => {
    const all = [
      ...Object.values(PLAIN_EVIDENCE),
      ...Object.values(PLAIN_FIDELITY),
      ...Object.values(PLAIN_TIER),
      ...Object.values(PLAIN_VERDICT),
      ...Object.values(PLAIN_ACTOR),
      ...Object.values(PLAIN_NATURE),
      ...Object.values(PLAIN_VISIBILITY),
      ...Object.values(PLAIN_WHO_SHORT),
      ...Object.values(PLAIN_RELEVANT_IF),
      ...Object.values(PLAIN_GROUP_LABELS).flatMap((g) => [g.label, g.short]),
      PLAIN_NOTICE,
    ];
    for (const text of all) for (const w of FACET_WORDS) assert.ok(!text.toLowerCase().includes(w), `"${text}" uses "${w}"`);
    for (const family of MECHANISM_FAMILIES) assert.ok(FAMILY_PLAIN[family].group, family);
    // Who can change it is phrased for every actor and removability: never "no one can change it" of the employer's own process.
    for (const removability of REMOVABILITIES) {
      for (const actor of ACTORS) {
        const who = plainWho({ family: 'skill-gap', facets: { actor, removability } });
        assert.ok(who.length > 0);
        if (removability === 'none' && (actor === 'policy' || actor === 'system')) assert.match(who, /employer’s own/);
      }
    }
  });

  test('IDs leave prose: a group in parentheses goes, a bare ID becomes its name', () => {
    const titles = (id: string) => (id === 'M-017' ? 'Compensation band mismatch' : undefined);
    assert.equal(
      withoutIds('Offers are turned down over pay (M-017), or late (E-070; E-071).', titles),
      'Offers are turned down over pay, or late.',
    );
    assert.equal(withoutIds('As M-017 shows (see M-016), pay matters.', titles), 'As “Compensation band mismatch” shows, pay matters.');
    assert.equal(firstSentence('Send one message. Then wait.'), 'Send one message.');
    assert.equal(
      shortSentences('Keep applying elsewhere; do not pause other processes.'),
      'Keep applying elsewhere. Do not pause other processes.',
    );
    assert.equal(
      shortSentences('Send one short message: thank them and ask for a date.'),
      'Send one short message. Thank them and ask for a date.',
    );
    assert.equal(shortSentences('Save it (the posting: its text) now.'), 'Save it (the posting: its text) now.');
  });
});

describe('the default answer of every worked scenario', () => {
  test('Flesch–Kincaid grade 8 or below, and no ID, slug or vocabulary word', () => {
    const grades: string[] = [];
    for (const s of scenarios()) {
      const r = explain(reg, { scenario: s.id });
      const text = textOf(r);
      const g = grade(text);
      grades.push(`${s.id} ${g.toFixed(1)}`);
      assert.ok(g <= 8, `${s.id}: grade ${g.toFixed(1)}\n${text}`);
      assert.deepEqual(jargonIn(reg, text.replace(/--on \S+ --where \S+ \(or [^)]*\)/, '')), [], `${s.id}:\n${text}`);
    }
    assert.ok(grades.length >= 36, `${grades.length} scenarios`);
  });

  test('a phone-width terminal: no line of the default text over 40 columns', () => {
    for (const a of reg.all('artifact').filter((x) => x.status === 'active')) {
      const text = renderCandidate(explain(reg, { artifacts: [a.id], on: '2026-11-20', where: 'us-ca' }), { width: 40 });
      for (const l of text.split('\n')) assert.ok(l.length <= 40, `${a.id}: ${l}`);
      assert.deepEqual(jargonIn(reg, text.replace(/--on \S+ --where \S+ \(or [^)]*\)/, '')), [], a.id);
    }
  });

  test('the lead keeps to about 120 words and says what it can and cannot mean, never how likely', () => {
    for (const s of scenarios()) {
      const r = explain(reg, { scenario: s.id });
      const lead = r.candidate.lead.join(' ');
      assert.ok(wordsOf(lead).length <= LEAD_WORDS + 10, `${s.id}: ${wordsOf(lead).length} words`);
      if (r.candidate.groups.length > 0) assert.match(r.candidate.lead[0]!, /^This can come from/, s.id);
      assert.doesNotMatch(lead, /\b(probably|likeliest|most likely|likely to)\b/i, s.id);
      if (r.agency.next_steps.length > 0)
        assert.ok(
          r.candidate.lead.some((p) => p.startsWith('What to do now: ')),
          `${s.id}: what to do now`,
        );
    }
  });

  test('the CLI, the site and MCP say the same words', async () => {
    const tool = TOOLS.find((t) => t.name === 'explain_observation')!;
    for (const s of scenarios()) {
      const r = ExplainResult.parse(explain(reg, { scenario: s.id }));
      const cli = textOf(r).replace(/\s+/g, ' ');
      const site = visible(candidateHtml(r, { interactive: true, datesForm: true }).html);
      const mcp = (await tool.run(
        { registry: reg, search: () => undefined } as never,
        { scenario: s.id, detail: 'full', limit: 16 } as never,
      )) as ExplainResult;
      assert.deepEqual(mcp.candidate, r.candidate, `${s.id}: MCP returns the same plain answer`);
      const summary = (await tool.run(
        { registry: reg, search: () => undefined } as never,
        { scenario: s.id, detail: 'summary', limit: 16 } as never,
      )) as ExplainResult;
      assert.deepEqual(summary.candidate.lead, r.candidate.lead, `${s.id}: the summary keeps the lead`);
      for (const p of [r.candidate.heading, ...r.candidate.lead]) {
        assert.ok(cli.includes(p), `${s.id}: the CLI says "${p}"`);
        assert.ok(site.includes(p), `${s.id}: the site says "${p}"`);
      }
      // The site's default text (the opened details left out) holds no ID, slug or vocabulary word either.
      const shown = visible(
        candidateHtml(r, { interactive: true, datesForm: true })
          .html.replace(/<div class="cv-more">[\s\S]*?<\/div>/g, '')
          .replace(/<select[\s\S]*?<\/select>/g, ''),
      );
      assert.deepEqual(jargonIn(reg, shown), [], `${s.id}: the site's default text`);
      for (const g of r.candidate.groups) {
        for (const i of g.items) {
          assert.ok(cli.includes(i.title) && site.includes(i.title), `${s.id}: ${i.title}`);
          assert.ok(cli.includes(i.who) && site.includes(i.who), `${s.id}: who can change ${i.title}`);
        }
      }
    }
  });
});

describe('what the account brings in', () => {
  /**
   * The explanation `id` of the result, asserted to be listed, not brought in, saying what would make it
   * relevant (`relevant`), and after every one brought in. Returns the items in order.
   */
  const listedLast = (r: ExplainResult, id: string, what: string, relevant: RegExp) => {
    const items = r.candidate.groups.flatMap((g) => g.items);
    const item = items.find((i) => i.id === id)!;
    assert.ok(item, `${what} is still listed`);
    assert.equal(item.brought_in, false);
    assert.match(item.relevant_if!, relevant);
    const notBroughtIn = items.findIndex((i) => i.brought_in === false);
    assert.ok(
      items.slice(notBroughtIn).every((i) => i.brought_in === false),
      'every one not brought in comes after the rest',
    );
    return items;
  };

  test('an offer rescinded: a record check is not shown first, and says what would make it relevant', () => {
    const r = explain(reg, { artifacts: ['A-024'] });
    const items = listedLast(r, 'M-026', 'criminal-record screening', /record/);
    assert.notEqual(items[0]!.id, 'M-026');
    assert.match(textOf(r), /Criminal-record screening\. [\s\S]*Only if a record of yours/);
  });

  test('silence after a final interview: faculty hiring comes after the rest, and says when it would apply', () => {
    const r = explain(reg, { artifacts: ['A-009'] });
    listedLast(r, 'M-058', 'the academic prestige hierarchy', /academic post/);
    const lead = r.candidate.lead[0]!;
    assert.ok(
      !lead.includes('how people judged you') || lead.includes('only if it fits your case, how people judged you'),
      `the lead does not give it as a plain cause: ${lead}`,
    );
    assert.match(textOf(r), /Academic prestige hierarchy in faculty hiring\. [\s\S]*Only if you applied for an academic post/);
  });

  test('an academic search named: the account brings faculty hiring in', () => {
    const r = explain(reg, { artifacts: ['A-009', 'A-049'] });
    const prestige = r.candidate.groups.flatMap((g) => g.items).find((i) => i.id === 'M-058')!;
    assert.equal(prestige.brought_in, true);
    assert.doesNotMatch(textOf(r), /Only if you applied for an academic post/);
  });

  test('every kind of hiring a family is confined to is carried by some observation, so that an account can bring it in', () => {
    const topics = new Set(reg.all('artifact').flatMap((a) => a.topics));
    for (const [family, plain] of Object.entries(FAMILY_PLAIN))
      if (plain.context) {
        assert.ok(
          plain.context.topics.some((t) => topics.has(t)),
          `${family}: no observation carries ${plain.context.topics.join(' or ')}`,
        );
        assert.equal(plain.concern, undefined, `${family}: a family is sensitive or confined to some hiring, not both`);
      }
  });

  test('asked about a criminal record: the account brings the record in', () => {
    const r = explain(reg, { artifacts: ['A-051'] });
    const record = r.candidate.groups.flatMap((g) => g.items).find((i) => i.id === 'M-026')!;
    assert.equal(record.brought_in, true);
    assert.ok(r.candidate.lead[0]!.includes('a background check'), r.candidate.lead[0]);
  });
});

describe('dates in the answer', () => {
  test('MCP explain_observation takes the same date and place and returns the same dates', async () => {
    const tool = TOOLS.find((t) => t.name === 'explain_observation')!;
    const direct = explain(reg, { artifacts: ['A-024'], on: '2026-11-20', where: 'us-ca' });
    const viaMcp = (await tool.run(
      { registry: reg, search: () => undefined } as never,
      { artifacts: ['A-024'], on: '2026-11-20', where: 'us-ca', detail: 'summary', limit: 16 } as never,
    )) as ExplainResult;
    assert.deepEqual(
      viaMcp.agency.deadlines.map((d) => [d.line, d.dates.map((x) => x.date)]),
      direct.agency.deadlines.map((d) => [d.line, d.dates.map((x) => x.date)]),
    );
    assert.ok(
      direct.agency.deadlines.some((d) => d.dates.some((x) => x.date === '2027-05-19')),
      'the EEOC’s 180 days from 20 November 2026',
    );
  });

  test('a law note two observations share is one deadline to the person: CLI, site and MCP say it once', async () => {
    const input = { artifacts: ['A-045', 'A-046'], on: '2026-11-20', where: 'California' };
    const r = explain(reg, input);
    const lines = r.agency.deadlines.map((d) => d.line);
    const repeated = lines.filter((l, i) => lines.indexOf(l) !== i);
    assert.ok(repeated.length > 0, 'the full result keeps each observation’s own notes (the case needs a shared note)');
    const unique = [...new Set(repeated)];
    const text = renderCandidate(r, { width: 100_000 });
    const page = visible(candidateHtml(r, { interactive: true, datesForm: true }).html);
    for (const line of unique) {
      assert.equal(text.split(line).length - 1, 1, `CLI: ${line}`);
      assert.equal(page.split(line).length - 1, 1, `site: ${line}`);
    }
    const tool = TOOLS.find((t) => t.name === 'explain_observation')!;
    const args = tool.arguments().parse({ ...input, detail: 'summary' });
    assert.equal((args as { where?: string }).where, 'California', 'the MCP input takes a place by name');
    const viaMcp = (await tool.run({ registry: reg, search: () => undefined } as never, args as never)) as ExplainResult;
    for (const line of unique) assert.equal(viaMcp.agency.deadlines.filter((d) => d.line === line).length, 1, `MCP: ${line}`);
  });

  test('--on and --where are checked, and given back in the input', () => {
    assert.throws(
      () => explain(reg, { artifacts: ['A-024'], on: '2026-02-30' }),
      (e: unknown) => e instanceof AnalysisError && /calendar date/.test(e.message),
    );
    assert.throws(
      () => explain(reg, { artifacts: ['A-024'], where: 'mars' }),
      (e: unknown) => e instanceof AnalysisError && /not a place/.test(e.message),
    );
    const r = explain(reg, { artifacts: ['A-024'], on: '2026-11-20', where: 'uk-eng' });
    assert.equal(r.input.on, '2026-11-20');
    assert.equal(r.input.where, 'uk-eng');
    assert.ok(
      r.agency.deadlines.every((d) => d.jurisdiction === 'uk'),
      'only the notes that apply where the person is',
    );
  });
});
