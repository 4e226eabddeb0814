// Withdrawn guidance and repealed law (issue #10 §0): every surface labels such a source wherever it is
// cited (show, explain, the REST mirror, MCP), and the source-status-unstated rule flags prose that relies on
// one without saying so. E-078, the 2023 US technical assistance on AI selection tools, is withdrawn; M-005,
// A-029 and I-005 cite it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildSite } from '../src/publish/build.ts';
import { loadAtlas } from '../src/registry/load.ts';
import { validateAtlas } from '../src/registry/validate.ts';
import { AtlasCopy, BIBLIOGRAPHY, hoba, ofRule, ROOT } from './helpers.ts';

const WITHDRAWN = /^Withdrawn: .*Do not read it as current guidance/;
const RULE = 'source-status-unstated';

interface CitationJson {
  id: string;
  status: string;
  caveat?: string;
}

/** Text output with its line wrapping undone, so a phrase can be found whatever the terminal width. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('every surface labels a withdrawn source where it is cited', () => {
  test('hoba show: the citing entity’s sources and the source’s own page', () => {
    const text = hoba(['show', 'M-005']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(flat(text.stdout), /\[E-078\] .*\[withdrawn\]\. \S+ Withdrawn: the issuer has taken this guidance down\. Do not read it as current guidance/);

    const json = hoba(['show', 'M-005', '--json']);
    assert.equal(json.status, 0, json.stderr);
    const citations = (JSON.parse(json.stdout) as { citations: CitationJson[] }).citations;
    const e078 = citations.find((c) => c.id === 'E-078');
    assert.equal(e078?.status, 'withdrawn');
    assert.match(e078?.caveat ?? '', WITHDRAWN);
    assert.equal(citations.find((c) => c.id === 'E-080')?.caveat, undefined, 'a current source carries no caveat');

    const own = hoba(['show', 'E-078', '--json']);
    assert.match((JSON.parse(own.stdout) as { caveat?: string }).caveat ?? '', WITHDRAWN);
    assert.match(flat(hoba(['show', 'E-078']).stdout), /status: withdrawn Withdrawn: the issuer has taken this guidance down/);
  });

  test('contested sources are labelled the same way', () => {
    const view = JSON.parse(hoba(['show', 'M-019', '--json']).stdout) as { citations: CitationJson[] };
    assert.match(view.citations.find((c) => c.id === 'E-013')?.caveat ?? '', /^Contested: /);
  });

  test('hoba explain: the JSON names the source, its caveat and who cites it; the text shows them', () => {
    const json = hoba(['explain', 'A-029', '--json']);
    assert.equal(json.status, 0, json.stderr);
    const caveats = (JSON.parse(json.stdout) as { behind: { source_caveats: Array<CitationJson & { cited_by: string[] }> } }).behind.source_caveats;
    const e078 = caveats.find((c) => c.id === 'E-078');
    assert.ok(e078, `E-078 is among behind.source_caveats: ${JSON.stringify(caveats.map((c) => c.id))}`);
    assert.equal(e078.status, 'withdrawn');
    assert.match(e078.caveat ?? '', WITHDRAWN);
    assert.deepEqual(e078.cited_by, ['A-029', 'M-005']);
    assert.ok(caveats.every((c) => c.status !== 'current'), 'only sources that are not current are listed');

    // The short report lists no sources; --full lists those behind it that are not current, labelled.
    const text = flat(hoba(['explain', 'A-029', '--full']).stdout);
    assert.match(text, /\[E-078\] .*\[withdrawn\]\. \S+ Withdrawn: the issuer has taken this guidance down\. .* cited by A-029 .*; M-005 /);
  });

  test('the REST mirror: the item document’s citations and the source’s own document', () => {
    const { registry } = loadAtlas(ROOT);
    const site = buildSite(registry, { contentHash: '0'.repeat(64), generator: 'hoba test' });
    const doc = (path: string) => {
      const file = site.files.find((f) => f.path.endsWith(path));
      assert.ok(file, `the mirror has ${path}`);
      return JSON.parse(file.bytes.toString('utf8')) as { citations: CitationJson[]; caveat?: string };
    };
    const mechanism = doc('/mechanisms/M-005.json');
    assert.match(mechanism.citations.find((c) => c.id === 'E-078')?.caveat ?? '', WITHDRAWN);
    assert.equal(mechanism.citations.length, registry.getOf('mechanism', 'M-005')!.sources.length, 'every cited source is listed');
    assert.match(doc('/sources/E-078.json').caveat ?? '', WITHDRAWN);
    assert.equal(doc('/sources/E-080.json').caveat, undefined);
  });

  describe('MCP over stdio', () => {
    const client = new Client({ name: 'hoba-source-status-test', version: '1.0.0' });
    before(async () => {
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'dist', 'mcp.js'), '--dir', ROOT], stderr: 'pipe' }));
    });
    after(async () => {
      await client.close();
    });
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      assert.notEqual(r.isError, true, JSON.stringify(r));
      return r.structuredContent!;
    };

    test('get_node: the citations of an entity citing E-078', async () => {
      const view = (await call('get_node', { id: 'I-005' })) as unknown as { citations: CitationJson[] };
      assert.match(view.citations.find((c) => c.id === 'E-078')?.caveat ?? '', WITHDRAWN);
    });

    test('explain_observation: behind.source_caveats', async () => {
      const result = (await call('explain_observation', { artifacts: ['A-029'] })) as unknown as { behind: { source_caveats: CitationJson[] } };
      assert.match(result.behind.source_caveats.find((c) => c.id === 'E-078')?.caveat ?? '', WITHDRAWN);
    });
  });
});

describe(`${RULE}: prose relying on a withdrawn or repealed source must say so`, () => {
  const copies: AtlasCopy[] = [];
  after(() => copies.forEach((c) => c.dispose()));
  const copy = () => {
    const c = new AtlasCopy();
    copies.push(c);
    return c;
  };
  const found = (c: AtlasCopy) => ofRule(c.problems(), RULE).map((p) => `${p.entity} ${p.message.split(' ')[0]} ${p.file}:${p.line}`);

  test('the real atlas is clean', () => {
    assert.deepEqual(ofRule(validateAtlas(loadAtlas(ROOT), { bibliography: BIBLIOGRAPHY }), RULE), []);
  });

  test('fires on each text that cites E-078 once its wording is dropped, with file and line', () => {
    const c = copy();
    const drop = (text: unknown) => String(text).replace(/withdrawn/g, 'issued').replace(/no\s+longer\s+current/g, 'in use');
    c.set('M-005', ['description'], drop(c.get('M-005', ['description'])));
    c.set('A-029', ['description'], drop(c.get('A-029', ['description'])));
    c.set('I-005', ['tradeoffs', 4], drop(c.get('I-005', ['tradeoffs', 4])));
    const problems = ofRule(c.problems(), RULE);
    assert.deepEqual(
      problems.map((p) => `${p.entity} ${p.message.split(' ')[0]}`).sort(),
      ['A-029 description', 'I-005 tradeoffs[4]', 'M-005 description'],
    );
    for (const p of problems) {
      assert.equal(p.severity, 'warning');
      assert.match(p.message, /cites E-078 \(.+\), which is withdrawn \(guidance taken down\), without saying so there\. Say that it was withdrawn/);
      assert.match(p.file ?? '', /^content\/(mechanisms|artifacts|interventions)\/[AIM]-0\d\d-.+\.yaml$/);
      assert.ok((p.line ?? 0) >= 1);
    }
  });

  test('one paragraph saying so does not cover another paragraph that cites the source', () => {
    const c = copy();
    c.set('M-005', ['summary'], 'Guidance that was withdrawn in early 2025 (E-078) is no longer current.');
    c.set('M-005', ['description'], 'This is not about the source.\n\nUS guidance treats these tools as selection procedures (E-078).');
    assert.deepEqual(found(c).map((p) => p.split(' ').slice(0, 2).join(' ')), ['M-005 description']);
  });

  test('a source cited only in the sources list needs the wording somewhere in the entity’s prose', () => {
    const c = copy();
    c.edit('M-004', (d) => d.addIn(['sources'], 'E-078'));
    const [p, ...rest] = ofRule(c.problems(), RULE);
    assert.equal(rest.length, 0);
    assert.equal(p?.entity, 'M-004');
    assert.match(p?.message ?? '', /M-004 cites E-078 .* but its prose never says so/);
  });

  test('a repealed source: withdrawal wording does not stand in for repeal', () => {
    const c = copy();
    // In the copy, the New York City law (E-076) is repealed: every text that cites it must now say so.
    c.set('E-076', ['status'], 'repealed');
    const problems = found(c);
    assert.ok(problems.some((p) => p.startsWith('I-005 expected_effects[2] ')), problems.join('\n'));
    // A text that says "withdrawn" next to E-076 still fails: repeal needs its own words.
    c.set('I-005', ['summary'], 'Audits matter even though the city rule was withdrawn (E-076).');
    assert.ok(found(c).some((p) => p.startsWith('I-005 summary ')), `"withdrawn" does not say "repealed":\n${found(c).join('\n')}`);
  });
});
