#!/usr/bin/env node
// `npm run bench`: every benchmark of issue 14 in one run, one after the other (never two at once: they
// would measure each other), with the machine and its load before and after, as Markdown tables:
//   bench/cli-start.mjs   CLI start-up against `node -e 0` (checkout, bundled snapshot, installed package),
//                         on Node 20 (this runtime) and on Node 24 (the runtimes cache: npm run runtimes)
//   bench/mcp.ts          stdio MCP start-up against a bare SDK server; per-tool latency; the peer
//   bench/http.ts         the HTTP doors (PERF-HTTP): hosted MCP against bare node:http, serve against nginx
//   bench/scale.ts        synthetic atlases of 1k and 10k entities (--sizes: up to 100k): validate, build, search, explain
//   bench/lighthouse.ts   Lighthouse (mobile) on five pages of the built site: the four category scores
//   bench/reader-quality.ts  the situation reader on labelled accounts it was not trained on (QUALITY.md)
//
//   npm run bench [-- --quick] [-- --only cli,mcp,http,scale,lighthouse,reader] [-- --sizes 1000,10000] [-- --out <file.md>] [-- --no-build]
//
// --quick runs each script in its quick mode (tiny sizes, a few runs): it proves they run, in about a
// minute, and its figures mean nothing. A benchmark, not a test: it prints figures and asserts nothing.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missing, nodePath } from '../scripts/runtimes.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'usage: npm run bench [-- --quick] [-- --only cli,mcp,http,scale,lighthouse,reader] [-- --sizes 1000,10000] [-- --out <file.md>] [-- --no-build]';
const PARTS = ['cli', 'mcp', 'http', 'scale', 'lighthouse', 'reader'] as const;
type Part = (typeof PARTS)[number];

function main(): number {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs assignment below
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string', default: PARTS.join(',') },
        // 100k takes about ten minutes here on its own: run it with npm run bench:scale -- --sizes 1000,10000,100000.
        sizes: { type: 'string', default: '1000,10000' },
        out: { type: 'string' },
        'no-build': { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const only = values.only.split(',').map((s) => s.trim());
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    console.error(`--only takes some of ${PARTS.join(', ')}; not ${unknown.join(', ')}.\n${USAGE}`);
    return 2;
  }
  const quick = values.quick;
  const tsx = ['--import', 'tsx'];
  // The newer runtime, when installed: the CLI's start-up is measured on it too.
  const node24 = missing() === undefined ? nodePath(24) : undefined;
  const commands: Record<Part, string[]> = {
    cli: ['bench/cli-start.mjs', ...(quick ? ['--quick'] : [])],
    lighthouse: [...tsx, 'bench/lighthouse.ts', ...(quick ? ['--runs', '1'] : [])],
    reader: [...tsx, 'bench/reader-quality.ts'],
    mcp: [...tsx, 'bench/mcp.ts', ...(quick ? ['--quick'] : [])],
    http: [...tsx, 'bench/http.ts', ...(quick ? ['--quick'] : [])],
    scale: [...tsx, 'bench/scale.ts', ...(quick ? ['--sizes', '150', '--samples', '5', '--seed', '7'] : ['--sizes', values.sizes])],
  };

  const output: string[] = [];
  const say = (text: string) => {
    console.log(text);
    output.push(text);
  };
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(', ');
  const started = new Date();
  say(`# hoba benchmarks${quick ? ' (quick mode: proves the scripts run; the figures mean nothing)' : ''}\n`);
  say(`- date: ${started.toISOString().replace(/\.\d+Z$/, 'Z')}`);
  say(
    `- machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown model'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`,
  );
  say(`- load average at start (1, 5, 15 min): ${load()}`);
  say(`- command: npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\n`);

  if (!values['no-build']) {
    process.stderr.write('bench: npm run build…\n');
    const b = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (b.status !== 0) {
      console.error('bench: npm run build failed; the benchmarks measure dist/, so they were not run.');
      return 1;
    }
  }
  let failures = 0;
  const runs: Array<{ part: Part; node: string; label: string }> = [];
  for (const part of PARTS.filter((p) => only.includes(p))) {
    runs.push({ part, node: process.execPath, label: 'node' });
    if (part === 'cli') {
      if (node24) runs.push({ part, node: node24, label: 'node24' });
      else say(`(CLI start-up on Node 24 not measured: ${missing()})\n`);
    }
  }
  const titles: Record<Part, string> = {
    cli: 'CLI start-up',
    mcp: 'MCP over stdio, in process, and the peer',
    http: 'HTTP doors',
    scale: 'Scale',
    lighthouse: 'Lighthouse',
    reader: 'The situation reader',
  };
  for (const { part, node, label } of runs) {
    const argv = commands[part];
    process.stderr.write(`bench: ${label} ${argv.join(' ')}…\n`);
    const start = process.hrtime.bigint();
    const r = spawnSync(node, argv, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    say(`## ${titles[part]}${part === 'cli' ? `, Node ${node === process.execPath ? process.version : 'v24'}` : ''}\n`);
    say(`\`${label} ${argv.join(' ')}\` (${seconds.toFixed(0)} s, load average after: ${load()})\n`);
    // A script's own top-level heading is demoted under this one; the reader's report is plain text, kept as it prints.
    if (part === 'reader') say(`\`\`\`text\n${(r.stdout ?? '').trim()}\n\`\`\``);
    else say((r.stdout ?? '').trim().replace(/^## /gm, '### '));
    if (r.status !== 0) {
      failures++;
      say(`\n✖ exited with status ${r.status ?? r.signal}`);
    }
    say('');
  }
  say(`Total: ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s; load average at the end: ${load()}.`);
  if (values.out) writeFileSync(values.out, output.join('\n') + '\n');
  return failures > 0 ? 1 : 0;
}

process.exitCode = main();
