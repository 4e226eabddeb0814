#!/usr/bin/env node
// MCP payload sizes (issue 11, item 8): what an assistant's context receives. Byte sizes of JSON as sent,
// measured through the SDK client over an in-memory transport on the real atlas. A benchmark, not a
// test: it prints figures (test/e2e/mcp.test.ts asserts the targets).
//
//   node --import tsx bench/mcp-payloads.ts
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { toolAtlas } from '../src/mcp/atlas.ts';
import { createMcpServer } from '../src/mcp/server.ts';
import type { Variant } from '../src/mcp/tools.ts';
import { contentHash } from '../src/registry/hash.ts';
import { loadAtlas } from '../src/registry/load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const registry = loadAtlas(ROOT).registry;
const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

type Result = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: unknown };

async function clientFor(variant: Variant): Promise<Client> {
  const atlas = toolAtlas(
    { registry, index: () => undefined, from: 'content', problems: [], content_hash: contentHash(ROOT) } as never,
    ROOT,
  );
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(atlas, variant).connect(serverSide);
  const client = new Client({ name: 'hoba-bench', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const local = await clientFor('local');
const hosted = await clientFor('hosted');
const call = async (name: string, args: Record<string, unknown>) => (await local.callTool({ name, arguments: args })) as Result;

console.log(`registry ${registry.version}\n`);
console.log('tools/list (target ≤ 30 KB)');
for (const [variant, client] of [
  ['local', local],
  ['hosted', hosted],
] as const) {
  const list = await client.listTools();
  console.log(`  ${variant.padEnd(7)} ${String(list.tools.length).padStart(2)} tools  ${kb(bytes(list))}`);
}
const list = await local.listTools();
console.log('\n  tool                        whole   output   input   description');
for (const t of list.tools) {
  console.log(
    `  ${t.name.padEnd(26)} ${String(bytes(t)).padStart(6)} ${String(bytes(t.outputSchema)).padStart(8)} ${String(bytes(t.inputSchema)).padStart(7)} ${String(bytes(t.description ?? '')).padStart(13)}`,
  );
}

console.log('\nexplain_observation, one artifact (target ≤ 8 KB of text in summary)');
const rows: Array<{ id: string; summary: number; full: number }> = [];
for (const a of registry.all('artifact').filter((x) => x.status === 'active')) {
  const summary = await call('explain_observation', { artifacts: [a.id] });
  const full = await call('explain_observation', { artifacts: [a.id], detail: 'full' });
  if (summary.isError || full.isError) throw new Error(`${a.id}: ${summary.content[0]?.text ?? full.content[0]?.text}`);
  rows.push({ id: a.id, summary: bytes(summary.content[0]!.text!), full: bytes(full.content[0]!.text!) });
}
const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `min ${kb(sorted[0]!)}  median ${kb(sorted[Math.floor(sorted.length / 2)]!)}  mean ${kb(xs.reduce((s, x) => s + x, 0) / xs.length)}  max ${kb(sorted.at(-1)!)}`;
};
console.log(
  `  summary text         ${stats(rows.map((r) => r.summary))}  (largest: ${[...rows].sort((a, b) => b.summary - a.summary)[0]!.id})`,
);
console.log(`  summary + structured ${stats(rows.map((r) => 2 * r.summary))}  (the structured content is the same JSON)`);
console.log(`  detail "full" text   ${stats(rows.map((r) => r.full))}`);

console.log('\nget_methodology');
const all = await call('get_methodology', {});
console.log(`  whole                ${kb(bytes(all.content[0]!.text!))}`);
for (const section of (all.structuredContent as { sections: Array<{ id: string }> }).sections) {
  const r = await call('get_methodology', { section: section.id });
  console.log(`  section ${section.id.padEnd(26)} ${kb(bytes(r.content[0]!.text!))}`);
}
const vocabularies = await call('get_methodology', { section: 'vocabularies' });
console.log(`  section ${'vocabularies'.padEnd(26)} ${kb(bytes(vocabularies.content[0]!.text!))}`);

console.log('\nother calls (summary, text)');
for (const [name, args] of [
  ['get_node', { id: 'M-001' }],
  ['get_node', { id: 'A-009' }],
  ['find_compatible_mechanisms', { artifacts: ['A-009'] }],
  ['get_diagnostic_probes', { artifacts: ['A-001'] }],
  ['search_registry', { query: 'ghosted after the final interview' }],
] as const) {
  const r = await call(name, args);
  console.log(`  ${`${name} ${JSON.stringify(args)}`.padEnd(58)} ${kb(bytes(r.content[0]!.text!))}`);
}
await local.close();
await hosted.close();
