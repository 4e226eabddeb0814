#!/usr/bin/env node
// Start-up benchmark: wall time of `hoba show M-001` against `node -e 0`, measured in the same run,
// interleaved so that machine noise hits both alike. A benchmark, not a test: it prints figures.
//
//   npm run bench:cli-start [-- --runs 40] [-- --args="explain A-009"]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    args: { type: 'string', default: 'show M-001' },
    warmup: { type: 'string', default: '3' },
  },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const hobaArgs = values.args.split(/\s+/).filter(Boolean);
if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first.');
  process.exit(1);
}

const env = { ...process.env, NO_COLOR: '1' };
delete env.HOBA_DIR;
// Two variants: inside the checkout (local: the snapshot is checked against the content) and outside any
// checkout (hosted: the bundled snapshot is read as is).
const outside = mkdtempSync(join(tmpdir(), 'hoba-bench-'));
const subjects = [
  { name: 'node -e 0', argv: ['-e', '0'], cwd: root },
  { name: `hoba ${hobaArgs.join(' ')} (checkout)`, argv: [cli, ...hobaArgs], cwd: root },
  { name: `hoba ${hobaArgs.join(' ')} (bundled)`, argv: [cli, ...hobaArgs], cwd: outside },
];

function once({ argv, cwd }) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

for (let i = 0; i < warmup; i++) for (const s of subjects) once(s);
const times = subjects.map(() => []);
for (let i = 0; i < runs; i++) subjects.forEach((s, j) => times[j].push(once(s)));
rmSync(outside, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stats = times.map((xs) => ({ median: median(xs), mean: mean(xs), min: Math.min(...xs) }));

console.log(`runs: ${runs} each (interleaved, after ${warmup} warm-up), node ${process.version}, cwd ${root}`);
const width = Math.max(...subjects.map((s) => s.name.length)) + 2;
subjects.forEach((s, j) => {
  const { median: md, mean: mn, min } = stats[j];
  const ratio = j === 0 ? '' : `   ratio ${(md / stats[0].median).toFixed(2)}× (median; target ≤ 1.50×)`;
  console.log(`${s.name.padEnd(width)} median ${md.toFixed(1).padStart(6)} ms   mean ${mn.toFixed(1).padStart(6)} ms   min ${min.toFixed(1).padStart(6)} ms${ratio}`);
});
