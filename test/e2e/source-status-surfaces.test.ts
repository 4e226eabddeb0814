// Withdrawn guidance and repealed law (issue #10 §0) on the surfaces: every surface labels such a source
// wherever it is cited (show, explain, the REST mirror, MCP). E-078, the 2023 US technical assistance on AI
// selection tools, is withdrawn; M-005, A-029 and I-005 cite it. The rule source-status-unstated:
// test/unit/source-status.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadAtlas } from '../../src/registry/load.ts';
import { ROOT } from '../helpers.ts';
import { hoba, MCP } from '../dist.ts';
import { sharedSite } from '../site-fixture.ts';

const WITHDRAWN = /^Withdrawn: .*Do not read it as current guidance/;

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
    assert.match(
      flat(text.stdout),
      /\[E-078\] .*\[withdrawn\]\. \S+ Withdrawn: the issuer has taken this guidance down\. Do not read it as current guidance/,
    );

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
    const caveats = (JSON.parse(json.stdout) as { behind: { source_caveats: Array<CitationJson & { cited_by: string[] }> } }).behind
      .source_caveats;
    const e078 = caveats.find((c) => c.id === 'E-078');
    assert.ok(e078, `E-078 is among behind.source_caveats: ${JSON.stringify(caveats.map((c) => c.id))}`);
    assert.equal(e078.status, 'withdrawn');
    assert.match(e078.caveat ?? '', WITHDRAWN);
    assert.deepEqual(e078.cited_by, ['A-029', 'M-005']);
    assert.ok(
      caveats.every((c) => c.status !== 'current'),
      'only sources that are not current are listed',
    );

    // The short report lists no sources; --full lists those behind it that are not current, labelled.
    const text = flat(hoba(['explain', 'A-029', '--full']).stdout);
    assert.match(text, /\[E-078\] .*\[withdrawn\]\. \S+ Withdrawn: the issuer has taken this guidance down\. .* cited by A-029 .*; M-005 /);
  });

  test('the REST mirror: the item document’s citations and the source’s own document', () => {
    const { registry } = loadAtlas(ROOT);
    const site = sharedSite().site;
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
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP, '--dir', ROOT], stderr: 'pipe' }));
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
      const result = (await call('explain_observation', { artifacts: ['A-029'] })) as unknown as {
        behind: { source_caveats: CitationJson[] };
      };
      assert.match(result.behind.source_caveats.find((c) => c.id === 'E-078')?.caveat ?? '', WITHDRAWN);
    });
  });
});
