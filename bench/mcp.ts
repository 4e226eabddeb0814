#!/usr/bin/env node
// MCP benchmark (issue 14). Three tables, every figure measured in this run:
//   1. stdio start-up: spawn → initialize → first tool call, hoba-mcp (dist/mcp.js, hosted and local
//      variants) against a bare SDK server with one trivial tool (bench/mcp-baseline.mjs, as written and
//      bundled by esbuild the way dist/mcp.js is), runs interleaved so machine noise hits all alike;
//   2. in-process latency of every tool on the real atlas (p50, p99): through the SDK client and server
//      over an in-memory transport, and the tool's analysis call alone;
//   3. a peer over stdio: @modelcontextprotocol/server-memory (a knowledge-graph MCP server) loaded with
//      the same atlas as entities and relations, beside hoba-mcp, same client, same run: start-up, lookup
//      by ID (open_nodes vs get_node) and search (search_nodes vs search_registry).
// A benchmark, not a test: it prints figures.
//
//   node --import tsx bench/mcp.ts [--runs 20] [--calls 300] [--quick] [--json <file>]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'esbuild';
import { zodEnglishOnly } from '../scripts/zod-english-only.mjs';
import { openCheckoutAtlas } from '../src/mcp/atlas.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import { toolsFor } from '../src/mcp/tools.ts';
import { percentile, median, ms, table } from './stats.ts';
import { TOOL_CALLS } from './tool-calls.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MCP = join(ROOT, 'dist', 'mcp.js');
const BASELINE = join(ROOT, 'bench', 'mcp-baseline.mjs');
const PEER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const USAGE = 'usage: node --import tsx bench/mcp.ts [--runs 20] [--calls 300] [--quick] [--json <file>]';

/** The target: hoba-mcp's start-up sequence at most this many times the bare server's. */
const START_TARGET = 1.5;

/** Searches for the peer comparison: one word (the peer matches a substring) and phrases. */
const SEARCHES = [
  'ghosted',
  'offer',
  'referral',
  'keyword filter',
  'salary',
  'ghosted after final interview',
  'no reply after applying',
  'overqualified',
];

const hrms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

interface Subject {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  first: { name: string; arguments: Record<string, unknown> };
}

async function connect(s: Subject): Promise<Client> {
  const client = new Client({ name: 'hoba-bench', version: '1.0.0' });
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? tmpdir(), ...s.env };
  await client.connect(new StdioClientTransport({ command: s.command, args: s.args, cwd: s.cwd, env, stderr: 'ignore' }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  return (await result(client, name, args)).bytes;
}

/** A tool call's result: its size as sent, and how many hits it holds (search results, or entities). */
async function result(client: Client, name: string, args: Record<string, unknown>): Promise<{ bytes: number; hits: number }> {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
    structuredContent?: { total?: number; entities?: unknown[] };
  };
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${r.content[0]?.text}`);
  return { bytes: Buffer.byteLength(JSON.stringify(r)), hits: r.structuredContent?.total ?? r.structuredContent?.entities?.length ?? NaN };
}

/** Wall time of spawn → initialize → first tool call → close, for each subject, interleaved. */
async function startup(subjects: Subject[], runs: number): Promise<number[][]> {
  const times = subjects.map(() => [] as number[]);
  for (let i = -2; i < runs; i++) {
    for (const [j, s] of subjects.entries()) {
      const start = process.hrtime.bigint();
      const client = await connect(s);
      await call(client, s.first.name, s.first.arguments);
      const t = hrms(start);
      await client.close();
      if (i >= 0) times[j]!.push(t); // the first two rounds warm the file cache
    }
  }
  return times;
}

/** p50/p99 of `n` calls of `f` after a warm-up. */
async function latency(n: number, f: (i: number) => Promise<unknown> | unknown): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(20, n); i++) await f(i);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await f(i);
    xs.push(hrms(start));
  }
  return { p50: percentile(xs, 50), p99: percentile(xs, 99) };
}

/** The atlas as the peer stores it: one JSON line per entity (observations: its texts) and per edge. */
function memoryFile(atlas: Awaited<ReturnType<typeof openCheckoutAtlas>>, path: string): { entities: number; relations: number } {
  const { registry } = atlas;
  const lines: string[] = [];
  for (const e of registry.entities) {
    const r = e as unknown as Record<string, unknown>;
    const texts = [
      r['title'] ?? r['cite'],
      r['summary'] ?? r['finding'],
      r['description'],
      ...((r['aliases'] as string[] | undefined) ?? []),
    ];
    lines.push(
      JSON.stringify({
        type: 'entity',
        name: e.id,
        entityType: e.kind,
        observations: texts.filter((t): t is string => typeof t === 'string'),
      }),
    );
  }
  for (const edge of registry.edges)
    lines.push(JSON.stringify({ type: 'relation', from: edge.source, to: edge.target, relationType: edge.relation }));
  writeFileSync(path, lines.join('\n'));
  return { entities: registry.entities.length, relations: registry.edges.length };
}

export interface McpResults {
  startup: Array<{ name: string; median: number; min: number; ratio: number; ratioBundled: number }>;
  tools: Array<
    | { tool: string; mcp: { p50: number; p99: number }; analysis: { p50: number; p99: number }; bytes: number }
    | { tool: string; error: string }
  >;
  peer: {
    size: { entities: number; relations: number };
    rows: Array<{
      what: string;
      hoba: { p50: number; p99: number };
      peer: { p50: number; p99: number };
      hobaBytes: number;
      peerBytes: number;
      hobaHits?: number;
      peerHits?: number;
    }>;
  };
}

async function main(): Promise<number> {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs assignment below
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        runs: { type: 'string', default: '20' },
        calls: { type: 'string', default: '300' },
        quick: { type: 'boolean', default: false },
        json: { type: 'string' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const runs = values.quick ? 2 : Number(values.runs);
  const calls = values.quick ? 5 : Number(values.calls);
  if (!(runs >= 1 && calls >= 1)) {
    console.error(`--runs and --calls take whole numbers of at least 1.\n${USAGE}`);
    return 2;
  }
  if (!existsSync(MCP)) {
    console.error('dist/mcp.js is missing: run `npm run build` first.');
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'hoba-bench-mcp-'));
  try {
    // The stricter baseline: the bare server bundled as dist/mcp.js is (one file, no module resolution).
    const bundled = join(work, 'baseline.bundle.mjs');
    await build({
      entryPoints: [BASELINE],
      outfile: bundled,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'warning',
      plugins: [zodEnglishOnly], // zod bundled as scripts/build.mjs bundles it for dist/mcp.js
      banner: { js: "import { createRequire as __c } from 'node:module';\nconst require = __c(import.meta.url);" },
    });
    const out = { startup: [], tools: [], peer: { size: { entities: 0, relations: 0 }, rows: [] } } as McpResults;

    // 1. stdio start-up.
    const echo = { name: 'echo', arguments: { text: 'hello' } };
    const getNode = { name: 'get_node', arguments: { id: 'M-001' } };
    const subjects: Subject[] = [
      { name: 'bare SDK server, one tool (node_modules)', command: process.execPath, args: [BASELINE], cwd: ROOT, first: echo },
      { name: 'bare SDK server, one tool (bundled)', command: process.execPath, args: [bundled], cwd: work, first: echo },
      { name: 'hoba-mcp hosted, get_node', command: process.execPath, args: [MCP], cwd: work, first: getNode },
      {
        name: 'hoba-mcp hosted, search_registry',
        command: process.execPath,
        args: [MCP],
        cwd: work,
        first: { name: 'search_registry', arguments: TOOL_CALLS['search_registry']! },
      },
      { name: 'hoba-mcp local (--dir), get_node', command: process.execPath, args: [MCP, '--dir', ROOT], cwd: work, first: getNode },
    ];
    process.stderr.write(`mcp: stdio start-up, ${runs} runs each…\n`);
    const times = await startup(subjects, runs);
    const [base, baseBundled] = [median(times[0]!), median(times[1]!)];
    out.startup = subjects.map((s, j) => ({
      name: s.name,
      median: median(times[j]!),
      min: Math.min(...times[j]!),
      ratio: median(times[j]!) / base,
      ratioBundled: median(times[j]!) / baseBundled,
    }));

    // 2. In-process latency per tool, on the real atlas (from source: the snapshot cache or the content).
    process.stderr.write(`mcp: in-process latency, ${calls} calls per tool…\n`);
    const atlas = await openCheckoutAtlas(ROOT);
    const server = createMcpServer(atlas, 'local');
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'hoba-bench', version: '1.0.0' });
    await client.connect(clientSide);
    for (const definition of toolsFor('local')) {
      const args = TOOL_CALLS[definition.name];
      if (!args) throw new Error(`bench/mcp.ts has no representative call for the tool ${definition.name}: add one to TOOL_CALLS.`);
      try {
        const bytes = await call(client, definition.name, args);
        const mcp = await latency(calls, () => call(client, definition.name, args));
        const parsed = definition.arguments().parse(args);
        const analysis = await latency(calls, () => definition.run(atlas, parsed));
        out.tools.push({ tool: definition.name, mcp, analysis, bytes });
      } catch (err) {
        // One broken tool is reported in its row; the others are still measured.
        const message = (err as Error).message;
        process.stderr.write(`mcp: ${message.slice(0, 300)}\n`);
        out.tools.push({ tool: definition.name, error: message.slice(0, 80) });
      }
    }
    await client.close();

    // 3. The peer, over stdio, beside hoba-mcp (local variant on the same checkout).
    process.stderr.write('mcp: peer (server-memory) beside hoba-mcp over stdio…\n');
    const memory = join(work, 'memory.jsonl');
    out.peer.size = memoryFile(atlas, memory);
    const ids = atlas.registry.entities.map((e) => e.id);
    const pick = (i: number) => ids[(i * 7919) % ids.length]!;
    const hoba = await connect({ name: 'hoba', command: process.execPath, args: [MCP, '--dir', ROOT], cwd: work, first: getNode });
    const peer = await connect({
      name: 'peer',
      command: process.execPath,
      args: [PEER],
      cwd: work,
      env: { MEMORY_FILE_PATH: memory },
      first: getNode,
    });
    out.peer.rows.push({
      what: `lookup by ID (${calls} IDs of every kind): get_node vs open_nodes`,
      hoba: await latency(calls, (i) => call(hoba, 'get_node', { id: pick(i) })),
      peer: await latency(calls, (i) => call(peer, 'open_nodes', { names: [pick(i)] })),
      hobaBytes: await call(hoba, 'get_node', { id: 'M-001' }),
      peerBytes: await call(peer, 'open_nodes', { names: ['M-001'] }),
    });
    for (const query of SEARCHES) {
      const [ours, theirs] = [await result(hoba, 'search_registry', { query }), await result(peer, 'search_nodes', { query })];
      out.peer.rows.push({
        what: `search "${query}": search_registry vs search_nodes`,
        hoba: await latency(calls, () => call(hoba, 'search_registry', { query })),
        peer: await latency(calls, () => call(peer, 'search_nodes', { query })),
        hobaBytes: ours.bytes,
        peerBytes: theirs.bytes,
        hobaHits: ours.hits,
        peerHits: theirs.hits,
      });
    }
    await hoba.close();
    await peer.close();

    print(out, runs, calls);
    if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 2) + '\n');
    // A tool that failed is in the table with its error; the run then fails too.
    const failedTools = out.tools.filter((t) => 'error' in t).map((t) => t.tool);
    if (failedTools.length > 0) {
      console.error(`mcp: ${failedTools.length} tool(s) failed: ${failedTools.join(', ')}`);
      return 1;
    }
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function print(out: McpResults, runs: number, calls: number): void {
  console.log(`### stdio start-up: spawn → initialize → first tool call (median of ${runs} interleaved runs)\n`);
  console.log(
    table(
      ['server, first call', 'median ms', 'min ms', 'ratio to bare (node_modules)', 'ratio to bare (bundled)'],
      out.startup.map((s, j) => [
        s.name,
        ms(s.median),
        ms(s.min),
        j < 2 ? (j === 0 ? '1.00×' : `${s.ratio.toFixed(2)}×`) : `${s.ratio.toFixed(2)}×`,
        `${s.ratioBundled.toFixed(2)}×`,
      ]),
    ),
  );
  const worst = Math.max(...out.startup.slice(2).map((s) => s.ratio));
  const worstBundled = Math.max(...out.startup.slice(2).map((s) => s.ratioBundled));
  console.log(
    `\n${worst <= START_TARGET ? '✔' : '✖'} hoba-mcp start-up ≤ ${START_TARGET}× the bare SDK server: worst ${worst.toFixed(2)}× (node_modules baseline), ${worstBundled.toFixed(2)}× (bundled baseline)\n`,
  );
  console.log(`### In-process latency per tool on the real atlas (${calls} calls each, after 20 warm-up calls)\n`);
  console.log(
    table(
      ['tool', 'via SDK client, in-memory p50 / p99 ms', 'analysis only p50 / p99 ms', 'response bytes'],
      out.tools.map((t) =>
        'error' in t
          ? [t.tool, `✖ ${t.error}`, '', '']
          : [t.tool, `${ms(t.mcp.p50, 2)} / ${ms(t.mcp.p99, 2)}`, `${ms(t.analysis.p50, 3)} / ${ms(t.analysis.p99, 3)}`, String(t.bytes)],
      ),
    ),
  );
  console.log(
    `\n### Peer over stdio: @modelcontextprotocol/server-memory with the same atlas (${out.peer.size.entities} entities, ${out.peer.size.relations} relations), same client, same run\n`,
  );
  console.log(
    table(
      ['call', 'hoba p50 / p99 ms', 'server-memory p50 / p99 ms', 'hoba bytes (hits)', 'server-memory bytes (hits)'],
      out.peer.rows.map((r) => {
        const hits = (n?: number) => (n === undefined ? '' : ` (${n})`);
        return [
          r.what,
          `${ms(r.hoba.p50, 2)} / ${ms(r.hoba.p99, 2)}`,
          `${ms(r.peer.p50, 2)} / ${ms(r.peer.p99, 2)}`,
          `${r.hobaBytes}${hits(r.hobaHits)}`,
          `${r.peerBytes}${hits(r.peerHits)}`,
        ];
      }),
    ),
  );
}

// Run only as a script.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`mcp: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
