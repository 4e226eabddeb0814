// The MCP server through real clients: the SDK client in memory, over stdio (the built entry) and over
// HTTP (hoba-mcp --http and the /mcp mount of hoba serve), and the MCP Inspector's CLI as an outside client.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { SchemaObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { explain } from '../../src/analysis/explain.ts';
import { methodology } from '../../src/analysis/methodology.ts';
import { ExplainResult } from '../../src/analysis/schemas.ts';
import { LOW_SIGNAL_TEXT, LOW_SIGNAL_WITH_STEPS_TEXT, TIERS, VERDICT_CODES } from '../../src/analysis/terms.ts';
import { toolAtlas } from '../../src/mcp/atlas.ts';
import { KINDS, RELATIONS } from '../../src/model/vocab.ts';
import { RULES } from '../../src/registry/rules.ts';
import { projectTo } from '../../src/mcp/output-schema.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { Variant } from '../../src/mcp/tools.ts';
import { contentHash } from '../../src/registry/hash.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { ROOT, TOOL_CALLS } from '../helpers.ts';
import { CLI, MCP } from '../dist.ts';

const LOCAL_TOOLS = [
  'explain_observation',
  'find_compatible_mechanisms',
  'find_patterns',
  'get_diagnostic_probes',
  'get_interventions',
  'get_methodology',
  'get_node',
  'get_registry_info',
  'search_registry',
  'traverse_graph',
];
const HOSTED_TOOLS = LOCAL_TOOLS.filter((t) => t !== 'get_registry_info');

const registry = loadAtlas(ROOT).registry;

async function inMemoryClient(variant: Variant): Promise<Client> {
  const atlas = toolAtlas({ registry, index: () => undefined, from: 'content', problems: [], content_hash: contentHash(ROOT) }, ROOT);
  const server = createMcpServer(atlas, variant);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hoba-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

/** Every page of resources/list, following nextCursor. */
async function allResources(client: Client): Promise<Array<{ uri: string }>> {
  const resources: Array<{ uri: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    resources.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return resources;
}

describe('MCP tools (in memory)', () => {
  let local: Client;
  let hosted: Client;
  before(async () => {
    local = await inMemoryClient('local');
    hosted = await inMemoryClient('hosted');
  });
  after(async () => {
    await local.close();
    await hosted.close();
  });

  test('the local variant lists exactly the ten tools, the hosted one nine (no get_registry_info)', async () => {
    assert.deepEqual(await toolNames(local), LOCAL_TOOLS);
    assert.deepEqual(await toolNames(hosted), HOSTED_TOOLS);
  });

  test('every tool has a title, a description, bounded input, an output schema and read-only annotations', async () => {
    for (const t of (await local.listTools()).tools) {
      assert.ok(t.title && t.title.length > 3, `${t.name} title`);
      assert.ok(t.description && t.description.length > 120, `${t.name} description is written for a model`);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema?.type, 'object', `${t.name} output schema`);
      assert.ok(
        (t.outputSchema?.required as string[] | undefined)?.includes('registry_version'),
        `${t.name} output carries registry_version`,
      );
      assert.equal(t.annotations?.readOnlyHint, true);
      assert.equal(t.annotations?.idempotentHint, true);
      assert.equal(t.annotations?.openWorldHint, false);
    }
    const traverse = (await local.listTools()).tools.find((t) => t.name === 'traverse_graph')!;
    const depth = (traverse.inputSchema.properties as Record<string, { minimum?: number; maximum?: number }>)['depth']!;
    assert.deepEqual([depth.minimum, depth.maximum], [1, 4]);
  });

  test('every tool called with valid arguments returns structuredContent that validates against its outputSchema', async () => {
    const tools = (await local.listTools()).tools;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    for (const t of tools) {
      const args = TOOL_CALLS[t.name];
      assert.ok(args, `a call for ${t.name}`);
      const result = await call(local, t.name, args);
      assert.notEqual(result.isError, true, `${t.name}: ${result.content[0]?.text}`);
      const validate = ajv.compile(t.outputSchema as SchemaObject);
      assert.ok(validate(result.structuredContent), `${t.name}: ${ajv.errorsText(validate.errors)}`);
      assert.deepEqual(JSON.parse(result.content[0]!.text!), result.structuredContent, `${t.name}: the text content is the same JSON`);
      assert.equal(result.structuredContent!['registry_version'], registry.version);
    }
  });

  test('explanations keep honest baselines, state that they are uncalibrated, and carry tiers and non-inferences', async () => {
    type Mechanism = { id: string; tier: string; why?: string; honest_baseline?: boolean; evidence_level?: string; summary?: string };
    type Result = { notice: string; behind: { mechanisms: Mechanism[]; non_inferences: unknown[] }; agency: { verdict: { code: string } } };
    const r = (await call(local, 'explain_observation', { artifacts: ['A-009'] })).structuredContent as Result;
    assert.match(r.notice, /uncalibrated/);
    assert.ok(
      r.behind.mechanisms.some((m) => m.honest_baseline),
      'an honest baseline is on the table',
    );
    const tiers = r.behind.mechanisms.map((m) => m.tier);
    assert.ok(tiers.includes('produces'));
    assert.deepEqual(
      tiers,
      [...tiers].sort((a, b) => Number(a !== 'produces') - Number(b !== 'produces')),
      'the first tier comes first',
    );
    for (const m of r.behind.mechanisms.filter((x) => x.tier === 'produces')) {
      assert.ok(m.why && m.evidence_level, `${m.id}: a first-tier mechanism says why and how well supported it is`);
    }
    assert.ok(r.behind.non_inferences.length > 0);
    assert.ok(r.agency.verdict.code);
    const full = (await call(local, 'explain_observation', { artifacts: ['A-009'], detail: 'full' })).structuredContent as Result;
    assert.ok(
      full.behind.mechanisms.every((m) => m.why && m.evidence_level && m.summary),
      'detail full: every mechanism in full',
    );
  });

  test('probe outcomes narrow an explanation only through their exclusions', async () => {
    const before = (await call(local, 'explain_observation', { artifacts: ['A-025'] })).structuredContent as {
      behind: { mechanisms: Array<{ id: string }> };
    };
    const probes = (await call(local, 'get_diagnostic_probes', { artifacts: ['A-025'] })).structuredContent as {
      probes: Array<{ id: string; outcomes: Array<{ id: string; excludes: string[] }> }>;
    };
    const probe = probes.probes.find((p) => p.outcomes.some((o) => o.excludes.includes('M-027')))!;
    const outcome = probe.outcomes.find((o) => o.excludes.includes('M-027'))!;
    const after = (
      await call(local, 'explain_observation', { artifacts: ['A-025'], probes: [{ probe: probe.id, outcome: outcome.id }], detail: 'full' })
    ).structuredContent as { behind: { mechanisms: Array<{ id: string }>; excluded: Array<{ id: string }> } };
    assert.ok(before.behind.mechanisms.some((m) => m.id === 'M-027'));
    assert.ok(!after.behind.mechanisms.some((m) => m.id === 'M-027'));
    assert.ok(after.behind.excluded.some((m) => m.id === 'M-027'));
  });

  test('an unknown ID is a tool error naming close matches; a bad argument is a validation error', async () => {
    const unknown = await call(local, 'get_node', { id: 'M-099' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]!.text!, /M-099/);
    assert.match(unknown.content[0]!.text!, /Did you mean M-0\d\d/, 'names close mechanism IDs');
    const typo = await call(local, 'explain_observation', { artifacts: ['A-999'] });
    assert.equal(typo.isError, true);
    assert.match(typo.content[0]!.text!, /A-999/);
    const badStage = await call(local, 'explain_observation', { artifacts: ['A-009'], stage: 'lunch' });
    assert.equal(badStage.isError, true);
    assert.match(badStage.content[0]!.text!, /stage/);
    const badDepth = await call(local, 'traverse_graph', { id: 'M-001', depth: 9 });
    assert.equal(badDepth.isError, true);
    assert.match(badDepth.content[0]!.text!, /depth/);
    const badProbe = await call(local, 'explain_observation', { artifacts: ['A-009'], probes: [{ probe: 'no-such-probe', outcome: 'x' }] });
    assert.equal(badProbe.isError, true);
    assert.match(badProbe.content[0]!.text!, /no-such-probe/);
    const badSection = await call(local, 'get_methodology', { section: 'nope' });
    assert.equal(badSection.isError, true);
    assert.match(badSection.content[0]!.text!, /hoba/);
  });

  test('results stay compact: the largest ones are capped and say how to get the rest', async () => {
    const every = registry.all('artifact').map((a) => a.id);
    const ten = await call(local, 'explain_observation', { artifacts: every.slice(0, 10) });
    const size = (r: ToolResult) => JSON.stringify(r.structuredContent).length;
    // About 4 characters a token: 70 000 characters stays well under 25 000 tokens.
    assert.ok(size(ten) < 70_000, `explain of 10 observations is ${size(ten)} characters`);
    const lists = (ten.structuredContent!['truncated_lists'] ?? []) as Array<{ list: string; more: string }>;
    assert.ok(
      lists.some((l) => l.list === 'behind.mechanisms' && /limit|detail "full"/.test(l.more)),
      'the cut says how to get more',
    );
    const full = await call(local, 'explain_observation', { artifacts: every.slice(0, 10), detail: 'full' });
    assert.ok(size(full) > size(ten), 'detail full returns more');
    for (const [name, args] of Object.entries({
      get_methodology: {},
      search_registry: { query: 'interview', limit: 50 },
      traverse_graph: { id: 'M-029', depth: 4 },
      find_compatible_mechanisms: { stage: 'screening' },
      find_patterns: {},
      get_node: { id: 'M-005' },
    })) {
      const r = await call(local, name, args);
      assert.ok(size(r) < 70_000, `${name} is ${size(r)} characters`);
    }
    for (const a of every) {
      const r = await call(local, 'explain_observation', { artifacts: [a] });
      assert.ok(size(r) < 45_000, `explain ${a} is ${size(r)} characters`);
    }
  });

  test('entities and the methodology are resources; a prompt walks through a HOBA analysis', async () => {
    const resources = await allResources(local);
    assert.ok(resources.some((r) => r.uri === 'hoba://mechanism/M-001'));
    assert.ok(resources.some((r) => r.uri === 'hoba://methodology'));
    assert.equal(resources.filter((r) => r.uri.startsWith('hoba://') && /\/[A-Z]-\d+$/.test(r.uri)).length, registry.entities.length);
    const node = await local.readResource({ uri: 'hoba://artifact/A-009' });
    const first = node.contents[0] as { text: string; mimeType: string };
    assert.equal(first.mimeType, 'application/json');
    assert.equal((JSON.parse(first.text) as { node: { id: string } }).node.id, 'A-009');
    const methodology = (await local.readResource({ uri: 'hoba://methodology' })).contents[0] as { text: string };
    assert.match(methodology.text, /HOBA/);
    await assert.rejects(local.readResource({ uri: 'hoba://mechanism/A-009' }));
    const { prompts } = await local.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['analyse-observation'],
    );
    const prompt = await local.getPrompt({
      name: 'analyse-observation',
      arguments: { observation: 'no reply after the final round', stage: 'team' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    assert.match(text, /search_registry/);
    assert.match(text, /explain_observation/);
    assert.match(text, /NOT establish/);
  });

  test('an unknown resource is "resource not found" with its URI; a malformed prompt argument is invalid params, in words', async () => {
    type RpcError = { code?: number; data?: unknown; message: string };
    for (const uri of ['hoba://mechanism/M-999', 'hoba://mechanism/A-009']) {
      await assert.rejects(local.readResource({ uri }), (err: RpcError) => {
        // SDK 2.4.0 sends resource-not-found as -32602 with data {uri} on every protocol revision (it maps -32002 to that).
        assert.equal(err.code, -32602, err.message);
        assert.deepEqual(err.data, { uri });
        assert.match(err.message, /in the atlas.*resources\/list/);
        return true;
      });
    }
    await assert.rejects(local.readResource({ uri: 'hoba://mechanism/A-009' }), /hoba:\/\/artifact\/A-009/, 'names the right URI');
    await assert.rejects(
      local.getPrompt({ name: 'analyse-observation', arguments: { observation: 5 as unknown as string } }),
      (err: RpcError) => {
        assert.equal(err.code, -32602, err.message);
        assert.match(err.message, /arguments\.observation: expected string, received number/);
        assert.doesNotMatch(err.message, /"code"|"path"/, 'no raw zod issue list');
        return true;
      },
    );
  });
});

const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

describe('MCP payloads sized for an assistant (byte sizes, not timings)', () => {
  let local: Client;
  let hosted: Client;
  before(async () => {
    local = await inMemoryClient('local');
    hosted = await inMemoryClient('hosted');
  });
  after(async () => {
    await local.close();
    await hosted.close();
  });
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validatorOf = async (client: Client, name: string) =>
    ajv.compile((await client.listTools()).tools.find((t) => t.name === name)!.outputSchema as SchemaObject);

  test('tools/list is at most 30 KB in both variants; output schemas are compact and derived', async () => {
    for (const client of [local, hosted]) {
      const list = await client.listTools();
      assert.ok(bytes(list) <= 30 * 1024, `tools/list is ${bytes(list)} bytes`);
      for (const t of list.tools) {
        const schema = JSON.stringify(t.outputSchema);
        // Descriptions live in the tool description; the root keeps its one-line description.
        assert.equal(
          (schema.match(/"description":"/g) ?? []).length,
          t.outputSchema!['description'] === undefined ? 0 : 1,
          `${t.name}: no per-field descriptions`,
        );
        assert.doesNotMatch(schema, /"additionalProperties":false/, `${t.name}: open objects, so detail "full" validates too`);
        for (const [, definition] of Object.entries((t.outputSchema!['$defs'] ?? {}) as Record<string, unknown>)) {
          assert.ok(schema.split(JSON.stringify(definition)).length === 2, `${t.name}: a $defs entry is written once`);
        }
      }
    }
  });

  test('the output schemas still name what the analysis returns', async () => {
    const tools = (await local.listTools()).tools;
    const explain = tools.find((t) => t.name === 'explain_observation')!.outputSchema as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    assert.deepEqual(Object.keys(explain.properties).sort(), [
      'agency',
      'behind',
      'candidate',
      'hard_facts',
      'input',
      'notice',
      'obstacle',
      'registry_version',
      'truncated_lists',
    ]);
    assert.ok(explain.properties['candidate']!.properties!['lead'], 'the plain answer');
    assert.ok(explain.properties['agency']!.properties!['deadlines'], 'deadlines as dates');
    assert.ok(explain.properties['behind']!.properties!['mechanisms'], 'mechanisms');
    assert.ok(explain.properties['agency']!.properties!['next_steps'], 'next steps');
    const verdict = JSON.stringify(explain.properties['agency']!.properties!['verdict']);
    for (const code of ['run-probe', 'act-on-candidate-removable', 'low-signal', 'nothing-left']) assert.match(verdict, new RegExp(code));
  });

  test('detail "full" results validate against the same advertised schema as summaries', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['explain_observation', { artifacts: ['A-001', 'A-004'], detail: 'full' }],
      ['explain_observation', { artifacts: ['A-016', 'A-017'], detail: 'full', limit: 60 }],
      ['find_compatible_mechanisms', { artifacts: ['A-009'], detail: 'full' }],
      ['get_diagnostic_probes', { artifacts: ['A-001'], detail: 'full' }],
      ['get_node', { id: 'A-009', detail: 'full' }],
      ['get_node', { id: 'E-078', detail: 'full' }],
      ['get_methodology', {}],
      ['get_methodology', { section: 'vocabularies' }],
    ];
    for (const [name, args] of calls) {
      const r = await call(local, name, args);
      assert.notEqual(r.isError, true, `${name}: ${r.content[0]?.text}`);
      const validate = await validatorOf(local, name);
      assert.ok(validate(r.structuredContent), `${name} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`);
    }
  });

  test('explain_observation for one artifact, in summary, is at most 8 KB of text (the plain answer included); the structured content is the same JSON', async () => {
    const validate = await validatorOf(local, 'explain_observation');
    const sizes: number[] = [];
    for (const a of registry.all('artifact').filter((x) => x.status === 'active')) {
      const r = await call(local, 'explain_observation', { artifacts: [a.id] });
      assert.notEqual(r.isError, true, `${a.id}: ${r.content[0]?.text}`);
      const text = r.content[0]!.text!;
      sizes.push(bytes(text));
      assert.ok(bytes(text) <= 8 * 1024, `explain ${a.id} is ${bytes(text)} bytes of text`);
      assert.deepEqual(JSON.parse(text), r.structuredContent, `${a.id}: the text is the structured content`);
      assert.ok(validate(r.structuredContent), `${a.id}: ${ajv.errorsText(validate.errors)}`);
    }
    const full = await call(local, 'explain_observation', { artifacts: ['A-009'], detail: 'full' });
    assert.ok(bytes(full.content[0]!.text!) > Math.max(...sizes), 'detail full is the long form');
  });

  test('a summary is the full explanation cut down, never a different answer', async () => {
    type M = { id: string; tier: string };
    type R = {
      behind: { mechanisms: M[]; ruled_out: Array<{ id: string }>; non_inferences: unknown[] };
      agency: {
        verdict: { code: string; text: string };
        probes: Array<{ id: string; outcomes: Array<{ id: string; narrows: string[] }> }>;
        next_steps: Array<{ id: string }>;
      };
      truncated_lists?: Array<{ list: string; shown: number; total?: number }>;
    };
    for (const artifacts of [['A-001'], ['A-009'], ['A-024'], ['A-016', 'A-017'], ['A-009', 'A-027']]) {
      const summary = (await call(local, 'explain_observation', { artifacts })).structuredContent as R;
      const full = (await call(local, 'explain_observation', { artifacts, detail: 'full' })).structuredContent as R;
      const what = artifacts.join('+');
      assert.deepEqual(
        summary.agency.verdict,
        { code: full.agency.verdict.code, text: full.agency.verdict.text },
        `${what}: the same verdict`,
      );
      const cut = summary.truncated_lists?.find((t) => t.list === 'behind.mechanisms');
      assert.deepEqual(
        summary.behind.mechanisms.map((m) => [m.id, m.tier]),
        full.behind.mechanisms.slice(0, cut?.shown ?? Infinity).map((m) => [m.id, m.tier]),
        `${what}: the same mechanisms, in order`,
      );
      if (cut) assert.equal(cut.total, full.behind.mechanisms.length, `${what}: the cut says how many there are`);
      const firstTier = full.behind.mechanisms.filter((m) => m.tier === 'produces').length;
      assert.ok(
        summary.behind.mechanisms.filter((m) => m.tier === 'produces').length === Math.min(firstTier, cut?.shown ?? Infinity),
        `${what}: the first tier is never cut for the second`,
      );
      assert.deepEqual(
        summary.behind.ruled_out.map((m) => m.id),
        full.behind.ruled_out.map((m) => m.id),
      );
      assert.deepEqual(summary.behind.non_inferences, full.behind.non_inferences, `${what}: every non-inference, in full`);
      const stepsCut = summary.truncated_lists?.find((t) => t.list === 'agency.next_steps');
      assert.deepEqual(
        summary.agency.next_steps.map((s) => s.id),
        full.agency.next_steps.slice(0, stepsCut?.shown ?? Infinity).map((s) => s.id),
        `${what}: the next steps, the first ones when cut`,
      );
      if (stepsCut) assert.ok(summary.agency.probes.length <= 1, `${what}: next steps are cut only once the probes are`);
      assert.deepEqual(
        summary.agency.probes.map((p) => p.id),
        full.agency.probes.slice(0, summary.agency.probes.length).map((p) => p.id),
        `${what}: the first probes`,
      );
      for (const p of summary.agency.probes)
        assert.ok(
          p.outcomes.every((o) => o.narrows.length > 0),
          `${what}: ${p.id} lists the outcomes that narrow`,
        );
      assert.ok(bytes(summary) <= 8 * 1024, `${what}: ${bytes(summary)} bytes`);
      if (cut && cut.shown < Math.min(16, full.behind.mechanisms.length))
        assert.match(JSON.stringify(summary.truncated_lists), /detail \\"full\\"/);
    }
  });

  test('a projection onto a result’s own schema changes nothing: summaries only leave fields out', () => {
    for (const artifacts of [['A-001'], ['A-024'], ['A-016', 'A-017']]) {
      const result = explain(registry, { artifacts });
      assert.deepEqual(projectTo(ExplainResult, result), result, artifacts.join('+'));
    }
  });

  test('get_methodology with a section returns that section alone', async () => {
    const all = (await call(local, 'get_methodology', { section: 'all' })).structuredContent as {
      sections: Array<{ id: string; body: string }>;
      vocabularies: unknown;
    };
    assert.ok(all.vocabularies);
    for (const section of all.sections) {
      const r = (await call(local, 'get_methodology', { section: section.id })).structuredContent as Record<string, unknown>;
      assert.deepEqual(Object.keys(r).sort(), ['registry_version', 'sections'], `${section.id}: nothing but the section`);
      assert.deepEqual(r['sections'], [section]);
      assert.ok(bytes(r) < bytes(section.body) + 600, `${section.id}: ${bytes(r)} bytes for a body of ${bytes(section.body)}`);
    }
    const vocabularies = (await call(local, 'get_methodology', { section: 'vocabularies' })).structuredContent as Record<string, unknown>;
    assert.deepEqual(vocabularies['vocabularies'], all.vocabularies);
    assert.deepEqual(vocabularies['sections'], []);
  });
});

describe('the methodology says what the code does', () => {
  const m = methodology(registry);
  const body = (id: string) => m.sections.find((s) => s.id === id)?.body ?? assert.fail(`no section ${id}`);

  test('it has sections on tiers, probes within reach, next steps, scenarios and plain words', () => {
    for (const tier of TIERS) assert.match(body('tiers'), new RegExp(`\\*\\*${tier}\\*\\*`), tier);
    assert.match(body('tiers'), /ruled out|rules? out/i);
    assert.match(body('tiers'), /not a likelihood/);
    assert.match(body('probes'), /lawful/);
    assert.match(body('probes'), /data-access request/);
    assert.match(body('next-steps'), /whatever the cause/);
    assert.match(body('scenarios'), /--scenario/);
    assert.match(body('plain-words'), /English only/);
  });

  test('it names the verdicts, rules and texts the code uses', () => {
    for (const code of VERDICT_CODES) assert.match(body('hoba'), new RegExp(`\\*\\*${code}\\*\\*`), code);
    assert.ok(body('hoba').includes(LOW_SIGNAL_TEXT) && body('hoba').includes(LOW_SIGNAL_WITH_STEPS_TEXT), 'both low-signal texts');
    const rule = /rule ([a-z-]+)\)/.exec(body('scenarios'))?.[1];
    assert.ok(rule && rule in RULES, `the scenario rule it names (${rule}) is a validation rule`);
    for (const kind of KINDS)
      assert.ok(
        m.vocabularies.kinds.some((k) => k.id === kind && k.meaning.length > 20),
        kind,
      );
    for (const relation of RELATIONS)
      assert.ok(
        m.vocabularies.relations.some((r) => r.id === relation),
        relation,
      );
    assert.match(body('identifiers-and-versions'), /S-001 scenario/);
  });
});

describe('explain_observation inputs: artifacts, a scenario or plain words', () => {
  let client: Client;
  before(async () => {
    client = await inMemoryClient('hosted');
  });
  after(() => client.close());
  type Explained = {
    input: {
      artifacts: string[];
      scenario?: { id: string; title: string };
      from_text?: { text: string; matched: Array<{ id: string; why: string }> };
    };
  };

  test('a scenario is a preset: its artifacts, stage and probe outcomes, named in the result', async () => {
    const scenario = registry.all('scenario').find((s) => s.status === 'active')!;
    assert.ok(scenario, 'the atlas holds scenarios');
    const r = await call(client, 'explain_observation', { scenario: scenario.id.toLowerCase() });
    assert.notEqual(r.isError, true, r.content[0]?.text);
    const result = r.structuredContent as Explained;
    assert.deepEqual(result.input.scenario?.id, scenario.id);
    assert.deepEqual([...result.input.artifacts].sort(), [...scenario.input.artifacts].sort());
    const unknown = await call(client, 'explain_observation', { scenario: 'S-999' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]!.text!, /S-999/);
  });

  test('plain words: the result says which observations were chosen and why', async () => {
    const r = await call(client, 'explain_observation', { text: 'No reply since my final interview, three weeks ago' });
    assert.notEqual(r.isError, true, r.content[0]?.text);
    const { input } = r.structuredContent as Explained;
    assert.ok(input.from_text && input.from_text.matched.length > 0, 'observations chosen');
    assert.deepEqual(
      input.artifacts,
      input.from_text.matched.map((m) => m.id),
    );
    assert.ok(
      input.from_text.matched.every((m) => m.why.length > 0),
      'each says why',
    );
    assert.ok(input.artifacts.includes('A-009'), `silence after a final interview is A-009, not ${input.artifacts.join(', ')}`);
  });

  test('search_registry reads an account too: what it states comes first, with the words that state it', async () => {
    type Hits = { results: Array<{ id: string; kind: string; read?: { quote: string; open: boolean } }> };
    const account = 'an AI bot interviewed me and then I never heard anything';
    const r = await call(client, 'search_registry', { query: account, limit: 3 });
    assert.notEqual(r.isError, true, r.content[0]?.text);
    const first = (r.structuredContent as Hits).results[0]!;
    assert.equal(first.id, 'A-042');
    assert.ok(first.read && first.read.quote.length > 0 && account.includes(first.read.quote), JSON.stringify(first.read));
    // Keywords, or other kinds, are searched only.
    for (const args of [{ query: 'AI bot interview' }, { query: account, kinds: ['mechanism'] }]) {
      const hits = (await call(client, 'search_registry', args)).structuredContent as Hits;
      assert.ok(hits.results.length > 0 && hits.results.every((h) => h.read === undefined), JSON.stringify(args));
    }
  });

  test('none, or more than one, of artifacts, scenario and text is a clear tool error', async () => {
    for (const args of [{}, { stage: 'team' }, { artifacts: ['A-009'], text: 'ghosted' }, { scenario: 'S-001', artifacts: ['A-001'] }]) {
      const r = await call(client, 'explain_observation', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.content[0]!.text!, /exactly one of artifacts .*scenario .*text/, JSON.stringify(args));
    }
    const empty = await call(client, 'explain_observation', { text: '   ' });
    assert.equal(empty.isError, true);
  });

  test('scenarios are resources, like every entity', async () => {
    const resources = await allResources(client);
    const scenarios = registry.all('scenario');
    assert.equal(resources.filter((r) => r.uri.startsWith('hoba://scenario/')).length, scenarios.length);
    const first = (await client.readResource({ uri: `hoba://scenario/${scenarios[0]!.id}` })).contents[0] as { text: string };
    assert.equal((JSON.parse(first.text) as { node: { id: string } }).node.id, scenarios[0]!.id);
  });
});

/** The first line a child prints that matches `pattern`. */
async function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let out = '';
  const deadline = Date.now() + 20_000;
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (;;) {
    const m = pattern.exec(out);
    if (m) return m;
    if (child.exitCode !== null || Date.now() > deadline) assert.fail(`no ${pattern} in:\n${out}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

type RpcAnswer = { id?: string | number | null; result?: unknown; error?: { code: number; message: string } };

/** The built entry on stdio, spoken to line by line (what a client's SDK never sends, it can send). */
function rawStdio(args: string[] = []) {
  const child = spawn(process.execPath, [MCP, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const answers = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RpcAnswer);
  return {
    child,
    stderr: () => err,
    /** The answers so far, once `enough` holds (failing, not hanging, if the server never gets there). */
    async until(enough: (got: RpcAnswer[]) => boolean): Promise<RpcAnswer[]> {
      const deadline = Date.now() + 20_000;
      while (!enough(answers())) {
        if (child.exitCode !== null || Date.now() > deadline) assert.fail(`not enough answers:\n${out}\nstderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return answers();
    },
  };
}

/** The exit status of a child that should end by itself (killed, and the test failed, if it does not). */
async function exitOf(child: ChildProcess): Promise<number | null> {
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = (child.exitCode !== null ? [child.exitCode, null] : await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(guard);
  assert.equal(signal, null, 'the server did not end by itself');
  return code;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

describe('MCP over stdio', () => {
  test('the built entry with --dir is the local variant: ten tools, reading the checkout', async () => {
    const client = new Client({ name: 'hoba-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP, '--dir', ROOT], stderr: 'pipe' }));
    try {
      assert.deepEqual(await toolNames(client), LOCAL_TOOLS);
      const info = (await call(client, 'get_registry_info', {})).structuredContent as {
        from: string;
        checkout: string;
        counts: { mechanism: number };
      };
      assert.equal(info.from, 'checkout');
      assert.equal(info.checkout, ROOT);
      assert.equal(info.counts.mechanism, registry.all('mechanism').length);
      const r = await call(client, 'search_registry', { query: 'reposted' });
      assert.equal((r.structuredContent as { results: Array<{ id: string }> }).results[0]!.id, 'A-004');
    } finally {
      await client.close();
    }
  });

  test('without --dir it is the hosted variant on the bundled atlas; so is `hoba mcp`', async () => {
    for (const args of [[MCP], [CLI, 'mcp']]) {
      const client = new Client({ name: 'hoba-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: tmpdir(), stderr: 'pipe' }));
      try {
        assert.deepEqual(await toolNames(client), HOSTED_TOOLS, args.join(' '));
        const r = await call(client, 'get_node', { id: 'A-009' });
        assert.notEqual(r.isError, true);
      } finally {
        await client.close();
      }
    }
  });

  test('a malformed line gets -32700, or -32600 with its id when it has one, and the server keeps serving', async () => {
    const server = rawStdio();
    try {
      const lines = [
        '{not json',
        '{"jsonrpc":"2.0","id":4}',
        '[]',
        '{"id":"x","method":"ping"}',
        '42',
        '   ',
        '{"jsonrpc":"2.0","id":6,"method":"ping"}',
      ];
      server.child.stdin!.write(lines.map((l) => `${l}\n`).join(''));
      const answers = await server.until((got) => got.length >= 6);
      const errors = answers.filter((a) => a.error).map((a) => [a.error!.code, a.id]);
      assert.deepEqual(errors, [
        [-32700, null],
        [-32600, 4],
        [-32600, null],
        [-32600, 'x'],
        [-32600, null],
      ]);
      assert.ok(
        answers.some((a) => a.id === 6 && a.result),
        'the ping after them is answered',
      );
      assert.ok(answers.every((a) => a.error?.message === undefined || !/\n\s+at /.test(a.error.message)));
    } finally {
      await stop(server.child);
    }
  });

  test('a line over the 1 MiB limit ends the server with the reason on stderr and exit status 1; one under it is served', async () => {
    const server = rawStdio();
    const padded = (size: number) => {
      const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"';
      return `${head}${'a'.repeat(size - head.length - 4)}"}}}`;
    };
    server.child.stdin!.write(`${padded(1024 * 1024 - 1)}\n`);
    assert.ok((await server.until((got) => got.length >= 1))[0]!.result, 'a line just under the limit is answered');
    server.child.stdin!.write('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"pad":"' + 'b'.repeat(1024 * 1024));
    assert.equal(await exitOf(server.child), 1);
    assert.match(server.stderr(), /hoba-mcp: a line on standard input is longer than 1048576 bytes/);
    assert.doesNotMatch(server.stderr(), /\n\s+at /);
  });

  test('usage errors exit 2 with a message; --help and --version work', () => {
    const bad = spawnSync(process.execPath, [MCP, '--bogus'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--bogus/);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
    const noDir = spawnSync(process.execPath, [MCP, '--dir', join(tmpdir(), 'no-such-checkout')], { encoding: 'utf8' });
    assert.equal(noDir.status, 2);
    assert.match(noDir.stderr, /not a directory/);
    const help = spawnSync(process.execPath, [MCP, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /mcpServers/);
    assert.equal(spawnSync(process.execPath, [MCP, '--version'], { encoding: 'utf8' }).status, 0);
  });
});

describe('MCP over HTTP (hosted)', () => {
  let child: ChildProcess;
  let url: string;
  before(async () => {
    child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    url = (await waitFor(child, /(http:\/\/127\.0\.0\.1:\d+\/mcp)/))[1]!;
  });
  after(() => stop(child));

  test('an SDK client lists the nine hosted tools and calls them', async () => {
    const client = new Client({ name: 'hoba-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      assert.deepEqual(await toolNames(client), HOSTED_TOOLS);
      const r = await call(client, 'explain_observation', { artifacts: ['A-004'] });
      assert.notEqual(r.isError, true);
      assert.ok((r.structuredContent as { behind: { mechanisms: unknown[] } }).behind.mechanisms.length > 0);
    } finally {
      await client.close();
    }
  });

  test('GET and DELETE get 405; foreign Host or Origin 403; oversized bodies 413; bad JSON 400', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(url, { method });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get('allow'), 'POST');
    }
    const origin = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body: init });
    assert.equal(origin.status, 403);
    const host = await rawPost(url, { host: 'evil.example', 'content-type': 'application/json' }, init);
    assert.equal(host.status, 403);
    const big = await fetch(url, { method: 'POST', headers, body: 'x'.repeat(1024 * 1024 + 1) });
    assert.equal(big.status, 413);
    const garbage = await fetch(url, { method: 'POST', headers, body: '{not json' });
    assert.equal(garbage.status, 400);
    const ok = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://localhost:3000' }, body: init });
    assert.equal(ok.status, 200);
    const other = await fetch(url.replace(/\/mcp$/, '/elsewhere'));
    assert.equal(other.status, 404);
  });
});

/** A POST with headers fetch will not set (Host). */
async function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number }> {
  const { request } = await import('node:http');
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      done({ status: res.statusCode ?? 0 });
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('MCP mounted in hoba serve', () => {
  test('POST /mcp on the site serves the hosted tools', async () => {
    const out = mkdtempSync(join(tmpdir(), 'hoba-site-'));
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--out', join(out, '_site')], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = (await waitFor(child, /MCP \(HTTP\)\s+(http:\/\/\S+\/mcp)/))[1]!;
      const client = new Client({ name: 'hoba-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      assert.deepEqual(await toolNames(client), HOSTED_TOOLS);
      await client.close();
    } finally {
      await stop(child);
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('an outside client: the MCP Inspector CLI', () => {
  const home = mkdtempSync(join(tmpdir(), 'hoba-inspector-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  const inspector = (args: string[]) =>
    spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js'), '--cli', ...args],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: home },
        timeout: 60_000,
      },
    );

  test('lists and calls tools over stdio', () => {
    const list = inspector(['node', MCP, '--dir', ROOT, '--method', 'tools/list']);
    assert.equal(list.status, 0, list.stderr);
    assert.deepEqual((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort(), LOCAL_TOOLS);
    const callResult = inspector([
      'node',
      MCP,
      '--dir',
      ROOT,
      '--method',
      'tools/call',
      '--tool-name',
      'search_registry',
      '--tool-arg',
      'query=salary lowered',
    ]);
    assert.equal(callResult.status, 0, callResult.stderr);
    assert.ok((JSON.parse(callResult.stdout) as { structuredContent: { results: unknown[] } }).structuredContent.results.length > 0);
  });

  test('lists and calls tools over HTTP', async () => {
    const child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = (await waitFor(child, /(http:\/\/127\.0\.0\.1:\d+\/mcp)/))[1]!;
      const run = (args: string[]) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
          const c = spawn(
            process.execPath,
            [
              join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js'),
              '--cli',
              url,
              '--transport',
              'http',
              ...args,
            ],
            {
              env: { ...process.env, HOME: home },
            },
          );
          let stdout = '';
          let stderr = '';
          c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          c.on('exit', (status) => done({ status, stdout, stderr }));
        });
      const list = await run(['--method', 'tools/list']);
      assert.equal(list.status, 0, list.stderr);
      assert.deepEqual((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort(), HOSTED_TOOLS);
      const callResult = await run(['--method', 'tools/call', '--tool-name', 'get_node', '--tool-arg', 'id=M-001']);
      assert.equal(callResult.status, 0, callResult.stderr);
      assert.equal((JSON.parse(callResult.stdout) as { structuredContent: { node: { id: string } } }).structuredContent.node.id, 'M-001');
    } finally {
      await stop(child);
    }
  });
});
