// Property tests over every MCP tool, in memory, over stdio and over HTTP: random and malformed arguments
// (wrong types, huge strings, prototype keys such as "__proto__" or "constructor", Unicode, nulls, extra
// keys) must give either a result whose structuredContent passes the tool's declared output schema, or a
// clear tool error, or a JSON-RPC error that is the client's (never -32603); never a crash, a hang or a
// stack trace. Also raw lines on stdio, and malformed resource URIs and prompt arguments.
// Seeded: the seed is fixed so that runs are reproducible; set HOBA_SEED=<integer> to try another or to
// replay a reported one. Bounded: a few hundred calls in all.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { SchemaObject } from 'ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { toolAtlas } from '../../src/mcp/atlas.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { Variant } from '../../src/mcp/tools.ts';
import { contentHash } from '../../src/registry/hash.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { ROOT, seedFromEnv, TOOL_CALLS } from '../helpers.ts';
import { MCP } from '../dist.ts';

const SEED = seedFromEnv(20_251_010);
const registry = loadAtlas(ROOT).registry;
/** A hang guard, not a timing assertion: a call that never returns fails instead of stalling the suite. */
const HANG = 20_000;

// ── what to send ────────────────────────────────────────────────────────────────────────────────────

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
};

const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
  'isPrototypeOf',
];
const ids = registry.entities.map((e) => e.id);

/** Strings a careless or hostile client sends: prototype keys, IDs and near-IDs, Unicode, lone surrogates, huge ones. */
const nastyString = fc.oneof(
  { arbitrary: fc.constantFrom(...PROTOTYPE_KEYS), weight: 3 },
  { arbitrary: fc.constantFrom(...ids), weight: 3 },
  { arbitrary: fc.stringMatching(/^[a-zA-Z]-?\d{0,5}$/), weight: 2 },
  {
    arbitrary: fc.constantFrom('ghosted after the final interview', 'salary', 'team', 'hoba', 'full', 'summary', 'out', 'both'),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', '\u0000', '\u202e', 'é'.repeat(301), 'x'.repeat(100_000)), weight: 1 },
);

/** Any JSON value, leaning on nasty strings. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, -1, 1.5, 1e308, -0),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 70 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Mostly what the input schema asks for, often not: each declared field, plausible or wrong. */
function plausible(schema: JsonSchema): fc.Arbitrary<unknown> {
  const wrong = { arbitrary: anyValue, weight: 1 };
  if (schema.enum) return fc.oneof({ arbitrary: fc.constantFrom(...schema.enum), weight: 3 }, wrong);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return fc.oneof({ arbitrary: nastyString, weight: 3 }, wrong);
  if (type === 'integer' || type === 'number') {
    return fc.oneof({ arbitrary: fc.integer({ min: (schema.minimum ?? 0) - 2, max: (schema.maximum ?? 100) + 2 }), weight: 3 }, wrong);
  }
  if (type === 'array') return fc.oneof({ arbitrary: fc.array(plausible(schema.items ?? {}), { maxLength: 12 }), weight: 3 }, wrong);
  if (type === 'object' && schema.properties) return fc.oneof({ arbitrary: argumentsFor(schema), weight: 3 }, wrong);
  return anyValue;
}

/** An arguments object for a tool: some of its fields, plus now and then keys it does not declare (own properties, "__proto__" too). */
function argumentsFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, s]) =>
    fc.option(fc.tuple(fc.constant(name), plausible(s)), { freq: 2, nil: undefined }),
  );
  const extra = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'extra', '💥', ''), fc.string({ maxLength: 8 })), anyValue), {
    maxLength: 2,
  });
  return fc
    .tuple(
      fc.tuple(...fields),
      fc.oneof({ arbitrary: fc.constant([] as Array<[string, unknown]>), weight: 4 }, { arbitrary: extra, weight: 1 }),
    )
    .map(([declared, extras]) => Object.fromEntries([...declared.filter((f) => f !== undefined), ...extras]));
}

// ── what must come back ─────────────────────────────────────────────────────────────────────────────

interface Tool {
  name: string;
  inputSchema: JsonSchema;
  validate: ValidateFunction;
}
type CallResult = { isError?: boolean; content?: Array<{ type: string; text?: string }>; structuredContent?: unknown };
/** What one call gave: a result, or a JSON-RPC error (code and message), or something else thrown. */
type Outcome = { result: CallResult } | { error: { code?: unknown; message: string } };

const STACK = /\n\s+at |\bat .+:\d+:\d+\)?$/m;
const RUNTIME = /Cannot read properties|is not a function|is not iterable|is not defined|Maximum call stack|unexpected error/i;

/** Throws, with the seed and the call, when an outcome is not one a client may get. */
function check(tools: Map<string, Tool>, where: string, name: unknown, args: unknown, outcome: Outcome): void {
  const context = `HOBA_SEED=${SEED} ${where}: ${String(name)} ${JSON.stringify(args)?.slice(0, 400)}`;
  if ('error' in outcome) {
    const { code, message } = outcome.error;
    assert.equal(typeof code, 'number', `${context}\nnot a JSON-RPC error: ${message}`);
    assert.notEqual(code, -32603, `${context}\n-32603 Internal error: ${message}`);
    assert.doesNotMatch(message, STACK, `${context}\nstack trace in: ${message}`);
    assert.doesNotMatch(message, RUNTIME, `${context}\ncrash: ${message}`);
    assert.doesNotMatch(message, /"path":|"code":/, `${context}\na raw issue list instead of words: ${message}`);
    return;
  }
  const { result } = outcome;
  const text = result.content?.[0]?.text ?? '';
  if (result.isError) {
    assert.ok(text.length > 0, `${context}\nan empty tool error`);
    assert.doesNotMatch(text, STACK, `${context}\nstack trace in: ${text}`);
    assert.doesNotMatch(text, RUNTIME, `${context}\ncrash: ${text}`);
    return;
  }
  const tool = tools.get(String(name));
  assert.ok(tool, `${context}\na result from an unknown tool`);
  assert.ok(
    tool.validate(result.structuredContent),
    `${context}\noutput fails its schema: ${JSON.stringify(tool.validate.errors)?.slice(0, 600)}`,
  );
  assert.deepEqual(JSON.parse(text), result.structuredContent, `${context}\nthe text content is not the structured content`);
}

async function toolsOf(client: Client): Promise<Map<string, Tool>> {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const listed = (await client.listTools()).tools;
  return new Map(
    listed.map((t) => [
      t.name,
      { name: t.name, inputSchema: t.inputSchema as JsonSchema, validate: ajv.compile(t.outputSchema as SchemaObject) },
    ]),
  );
}

async function outcomeOf(call: Promise<unknown>): Promise<Outcome> {
  try {
    return { result: (await call) as CallResult };
  } catch (err) {
    return { error: { code: (err as { code?: unknown }).code, message: (err as Error).message ?? String(err) } };
  }
}

/** A random call: one of the tools with arguments for it. */
const callOf = (tools: Map<string, Tool>) =>
  fc.constantFrom(...tools.values()).chain((tool) => argumentsFor(tool.inputSchema).map((args) => ({ name: tool.name, args })));

/**
 * The attack that found issue #10's crash, tried on purpose rather than left to chance: every string
 * argument of a tool (or the one item of a string list) set to each Object.prototype member name, the
 * other arguments valid. These run first, as fast-check examples, before the random calls.
 */
function prototypeSweep(tool: Tool): Array<Record<string, unknown>> {
  const base = TOOL_CALLS[tool.name];
  assert.ok(base, `valid arguments for ${tool.name}`);
  const sweep: Array<Record<string, unknown>> = [];
  for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
    const isString = schema.type === 'string' && !schema.enum;
    const isStringList = schema.type === 'array' && schema.items?.type === 'string' && !schema.items.enum;
    if (!isString && !isStringList) continue;
    for (const key of PROTOTYPE_KEYS) sweep.push({ ...base, [field]: isString ? key : [key] });
  }
  return sweep;
}

const sweepCalls = (tools: Map<string, Tool>) =>
  [...tools.values()].flatMap((tool) => prototypeSweep(tool).map((args) => ({ name: tool.name, args })));

const propertyOptions = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });
/** For a one-argument property: these examples run first, then numRuns random ones. */
const withExamples = <T>(numRuns: number, examples: T[]) => ({ ...propertyOptions(numRuns), examples: examples.map((e): [T] => [e]) });

// ── in memory ───────────────────────────────────────────────────────────────────────────────────────

async function inMemoryClient(variant: Variant): Promise<Client> {
  const atlas = toolAtlas({ registry, index: () => undefined, from: 'content', problems: [], content_hash: contentHash(ROOT) }, ROOT);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(atlas, variant).connect(serverSide);
  const client = new Client({ name: 'hoba-property', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe(`MCP property tests (HOBA_SEED=${SEED})`, () => {
  let client: Client;
  let tools: Map<string, Tool>;
  before(async () => {
    client = await inMemoryClient('local');
    tools = await toolsOf(client);
  });
  after(() => client.close());

  test('in memory: every tool, random and malformed arguments', async () => {
    for (const tool of tools.values()) {
      await fc.assert(
        fc.asyncProperty(argumentsFor(tool.inputSchema), async (args) => {
          check(
            tools,
            'in memory',
            tool.name,
            args,
            await outcomeOf(client.callTool({ name: tool.name, arguments: args }, { timeout: HANG })),
          );
        }),
        withExamples(60, prototypeSweep(tool)),
      );
    }
  });

  test('in memory: resource URIs and prompt arguments, random and malformed', async () => {
    const kinds = fc.oneof(fc.constantFrom('artifact', 'mechanism', 'source', 'methodology'), nastyString);
    await fc.assert(
      fc.asyncProperty(kinds, nastyString, async (kind, id) => {
        const uri = `hoba://${encodeURIComponent(kind)}/${encodeURIComponent(id)}`;
        const outcome = await outcomeOf(client.readResource({ uri }, { timeout: HANG }));
        if ('error' in outcome) {
          assert.equal(outcome.error.code, -32602, `HOBA_SEED=${SEED} ${uri}: ${outcome.error.message}`);
          assert.doesNotMatch(outcome.error.message, STACK);
        }
      }),
      propertyOptions(80),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.oneof(fc.constantFrom('observation', 'stage', ...PROTOTYPE_KEYS), fc.string({ maxLength: 6 })), anyValue, {
          maxKeys: 3,
        }),
        async (args) => {
          const outcome = await outcomeOf(
            client.getPrompt({ name: 'analyse-observation', arguments: args as Record<string, string> }, { timeout: HANG }),
          );
          if ('error' in outcome) {
            const context = `HOBA_SEED=${SEED} prompts/get ${JSON.stringify(args).slice(0, 300)}`;
            assert.equal(outcome.error.code, -32602, `${context}: ${outcome.error.message}`);
            assert.doesNotMatch(outcome.error.message, /"code"|"path"|\n\s+at /, `${context}: ${outcome.error.message}`);
          }
        },
      ),
      propertyOptions(80),
    );
  });
});

// ── over stdio ──────────────────────────────────────────────────────────────────────────────────────

describe(`MCP property tests over stdio (HOBA_SEED=${SEED})`, () => {
  test('the built entry (--dir, all ten tools): random and malformed arguments', async () => {
    const client = new Client({ name: 'hoba-property', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP, '--dir', ROOT], stderr: 'pipe' }));
    try {
      const tools = await toolsOf(client);
      await fc.assert(
        fc.asyncProperty(callOf(tools), async ({ name, args }) => {
          check(tools, 'stdio', name, args, await outcomeOf(client.callTool({ name, arguments: args }, { timeout: HANG })));
        }),
        withExamples(120, sweepCalls(tools)),
      );
    } finally {
      await client.close();
    }
  });

  test('raw lines: each malformed line gets exactly one -32700 or -32600, and every request in between is answered', async () => {
    const child = spawn(process.execPath, [MCP], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    let next = 0;
    try {
      const junk = fc
        .oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: anyValue, method: anyValue }).map((v) => JSON.stringify(v)),
        )
        .filter((line) => !line.includes('\n') && line.trim() !== '' && !isMessage(line));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(junk, fc.constant(null)), { minLength: 1, maxLength: 15 }), async (lines) => {
          // null stands for a valid request between the junk: a ping with a fresh id.
          const sent = lines.map((l) => l ?? JSON.stringify({ jsonrpc: '2.0', id: `p${next++}`, method: 'ping' }));
          const expectErrors = lines.filter((l) => l !== null).length;
          const expectPings = lines.length - expectErrors;
          out = '';
          child.stdin!.write(sent.map((l) => `${l}\n`).join(''));
          const deadline = Date.now() + HANG;
          const answers = () =>
            out
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number; message: string } });
          while (answers().length < expectErrors + expectPings) {
            assert.equal(child.exitCode, null, `HOBA_SEED=${SEED} the server exited: ${stderr}`);
            assert.ok(
              Date.now() < deadline,
              `HOBA_SEED=${SEED} ${answers().length} of ${expectErrors + expectPings} answers to ${JSON.stringify(sent).slice(0, 600)}`,
            );
            await new Promise((r) => setTimeout(r, 10));
          }
          const got = answers();
          assert.equal(
            got.length,
            expectErrors + expectPings,
            `HOBA_SEED=${SEED} one answer per line: ${JSON.stringify(sent).slice(0, 600)}`,
          );
          const errors = got.filter((a) => a.error);
          assert.equal(errors.length, expectErrors, `HOBA_SEED=${SEED} ${JSON.stringify(got).slice(0, 600)}`);
          for (const e of errors) assert.ok([-32700, -32600].includes(e.error!.code), JSON.stringify(e));
          assert.equal(got.filter((a) => a.result).length, expectPings);
        }),
        propertyOptions(40),
      );
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});

/** Whether a line happens to be a JSON-RPC message after all (the generators avoid those). */
function isMessage(line: string): boolean {
  try {
    const v = JSON.parse(line) as { jsonrpc?: unknown; method?: unknown; id?: unknown };
    return (
      v !== null &&
      typeof v === 'object' &&
      v.jsonrpc === '2.0' &&
      typeof v.method === 'string' &&
      (v.id === undefined || typeof v.id === 'string' || Number.isInteger(v.id))
    );
  } catch {
    return false;
  }
}

// ── over HTTP ───────────────────────────────────────────────────────────────────────────────────────

describe(`MCP property tests over HTTP (HOBA_SEED=${SEED})`, () => {
  let child: ChildProcess;
  let url: string;
  let tools: Map<string, Tool>;
  before(async () => {
    child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + HANG;
    while (!/http:\/\/127\.0\.0\.1:\d+\/mcp/.test(out)) {
      assert.ok(child.exitCode === null && Date.now() < deadline, `hoba-mcp --http did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)![1]!;
    const hosted = await inMemoryClient('hosted');
    tools = await toolsOf(hosted);
    await hosted.close();
  });
  after(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });

  const rpc = async (body: unknown): Promise<{ status: number; json: unknown }> => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HANG),
    });
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };

  test('tools/call with random and malformed arguments, and malformed params around them', async () => {
    const params = fc.oneof(
      { arbitrary: callOf(tools).map(({ name, args }) => ({ name, arguments: args })), weight: 6 },
      { arbitrary: fc.record({ name: anyValue, arguments: anyValue }, { requiredKeys: [] }), weight: 1 },
      {
        arbitrary: fc.record({
          name: fc.constantFrom(...tools.keys()),
          arguments: fc.oneof(fc.constant(null), fc.string(), fc.array(anyValue, { maxLength: 3 }), fc.integer()),
        }),
        weight: 1,
      },
      { arbitrary: anyValue, weight: 1 },
    );
    let id = 0;
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const { status, json } = await rpc({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: p });
        const where = `HTTP ${status}`;
        assert.ok(status < 500, `HOBA_SEED=${SEED} ${where}: ${JSON.stringify(p).slice(0, 400)} → ${JSON.stringify(json).slice(0, 400)}`);
        const answer = json as { result?: CallResult; error?: { code: number; message: string } } | undefined;
        assert.ok(
          answer && (answer.result || answer.error),
          `HOBA_SEED=${SEED} ${where}: neither a result nor an error: ${JSON.stringify(json)}`,
        );
        const name = (p as { name?: unknown } | null)?.name;
        const args = (p as { arguments?: unknown } | null)?.arguments;
        check(tools, where, name, args, answer.error ? { error: answer.error } : { result: answer.result! });
      }),
      withExamples<unknown>(
        150,
        sweepCalls(tools).map(({ name, args }) => ({ name, arguments: args })),
      ),
    );
  });
});
