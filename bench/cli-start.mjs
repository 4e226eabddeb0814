#!/usr/bin/env node
// Start-up benchmark: wall and CPU time of `hoba show M-001`, `hoba explain A-009` and `hoba search "ghosted after
// final interview"` against `node -e 0`, all measured in the same run and interleaved, so that machine
// noise hits every subject alike. Each command runs three ways: in the checkout (the snapshot is checked
// against the content), outside any checkout (the bundled snapshot), and from the installed package (npm
// pack, then npm install of the tarball into a temporary prefix, run through its `hoba` bin). A
// benchmark, not a test: it prints figures. It measures the runtime that runs it: `npm run bench` runs it
// with Node 20 and with Node 24 (from the runtimes cache, scripts/runtimes.ts). CPU time (user + system,
// all threads, from process.cpuUsage() at exit, written to fd 3 by a one-line --require given to every
// subject alike, `node -e 0` included) is the steadier figure on a shared machine: another process's load
// stretches wall time far more than it changes the CPU a process spends.
//
//   npm run bench:cli-start [-- --runs 20] [-- --quick] [-- --no-installed] [-- --bundled-only] [-- --json <file>]
//   <node24> bench/cli-start.mjs …       the same on another runtime
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.cjs');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    installed: { type: 'boolean', default: true },
    'no-installed': { type: 'boolean', default: false },
    // Only the bundled runs (and the baseline and floor): for quick comparisons while changing the code.
    'bundled-only': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const runs = values.quick ? 2 : Number(values.runs);
const warmup = values.quick ? 1 : Number(values.warmup);
if (!existsSync(cli)) {
  console.error('dist/cli.cjs is missing: run `npm run build` first.');
  process.exit(1);
}

/** The commands and the issue's targets (ratio of medians to `node -e 0`). */
const COMMANDS = [
  { args: ['show', 'M-001'], target: 1.25 },
  { args: ['explain', 'A-009'], target: 1.3 },
  { args: ['search', 'ghosted after final interview'], target: 1.5 },
];

// The installed bin starts with `#!/usr/bin/env node`: the runtime measured comes first on PATH, so that
// it, and not the machine's default node, runs the installed package too.
const env = {
  ...process.env,
  NO_COLOR: '1',
  PATH: `${dirname(process.execPath)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
};
delete env.HOBA_DIR;
const work = mkdtempSync(join(tmpdir(), 'hoba-bench-start-'));
// A cache of its own, so that a snapshot cached by an earlier run or another checkout plays no part.
env.HOBA_CACHE_DIR = join(work, 'cache');
const outside = join(work, 'elsewhere');
mkdirSync(outside);
// Each process writes the CPU time it spent to fd 3 when it exits (see the head of this file).
const cpuProbe = join(work, 'cpu-probe.cjs');
writeFileSync(
  cpuProbe,
  "process.on('exit',()=>{const u=process.cpuUsage();try{require('node:fs').writeSync(3,String(u.user+u.system))}catch{}});\n",
);
env.NODE_OPTIONS = `${env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ` : ''}--require ${JSON.stringify(cpuProbe)}`;

/** The package as a user gets it: packed (without rebuilding: dist/ is what was measured) and installed. */
function install() {
  const packDir = join(work, 'pack');
  mkdirSync(packDir);
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith('.tgz')),
  );
  const prefix = join(work, 'prefix');
  execFileSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--offline', '--silent', tarball],
    {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    },
  );
  const bin = join(prefix, 'bin', 'hoba');
  if (!existsSync(bin)) throw new Error(`the installed package has no bin at ${bin}`);
  return bin;
}

const bundledOnly = values['bundled-only'];
const installed = values.installed && !values['no-installed'] && !bundledOnly ? install() : undefined;

const subjects = [{ name: 'node -e 0', command: process.execPath, argv: ['-e', '0'], cwd: root }];
// What every reading command does before its own work, alone: read the bundled snapshot and JSON.parse
// its index line (as src/registry/snapshot.ts does; the entities are parsed when used). The floor of the
// snapshot's part in a command's start-up.
const snapshotPath = join(root, 'dist', 'atlas.snapshot.json');
const parseOnly = `const b=require('node:fs').readFileSync(${JSON.stringify(snapshotPath)});JSON.parse(b.toString('latin1',0,b.indexOf(10)))`;
subjects.push({
  name: 'floor: read the snapshot, parse its index line (node -e)',
  command: process.execPath,
  argv: ['-e', parseOnly],
  cwd: outside,
});
for (const c of COMMANDS) {
  const label = `hoba ${c.args.map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' ')}`;
  if (!bundledOnly)
    subjects.push({ name: `${label} (checkout)`, command: process.execPath, argv: [cli, ...c.args], cwd: root, target: c.target });
  subjects.push({ name: `${label} (bundled)`, command: process.execPath, argv: [cli, ...c.args], cwd: outside, target: c.target });
  if (installed) subjects.push({ name: `${label} (installed)`, command: installed, argv: c.args, cwd: outside, target: c.target });
}

/** One run: wall ms (measured here) and CPU ms (reported by the process). */
function once({ command, argv, cwd }) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = Number(String(r.output[3])) / 1000;
  if (!(cpu > 0)) throw new Error(`${command} ${argv.join(' ')} reported no CPU time`);
  return { ms, cpu };
}

try {
  for (let i = 0; i < warmup; i++) for (const s of subjects) once(s);
  const times = subjects.map(() => []);
  const cpus = subjects.map(() => []);
  for (let i = 0; i < runs; i++)
    subjects.forEach((s, j) => {
      const { ms, cpu } = once(s);
      times[j].push(ms);
      cpus[j].push(cpu);
    });

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const base = median(times[0]);
  const cpuBase = median(cpus[0]);
  const rows = subjects.map((s, j) => ({
    name: s.name,
    median: median(times[j]),
    min: Math.min(...times[j]),
    ratio: median(times[j]) / base,
    cpu: median(cpus[j]),
    cpuMin: Math.min(...cpus[j]),
    cpuRatio: median(cpus[j]) / cpuBase,
    target: s.target,
  }));

  console.log(`### CLI start-up (median of ${runs} interleaved runs after ${warmup} warm-up, Node ${process.version})\n`);
  console.log('| command | median ms | min ms | ratio to `node -e 0` | CPU median / min ms | CPU ratio | target |');
  console.log('|---|---|---|---|---|---|---|');
  const verdict = (ratio, target) => `${ratio <= target ? '✔' : '✖'}`;
  for (const r of rows) {
    const target =
      r.target === undefined ? '' : `${verdict(r.ratio, r.target)} wall, ${verdict(r.cpuRatio, r.target)} CPU ≤ ${r.target.toFixed(2)}×`;
    console.log(
      `| ${r.name} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.cpu.toFixed(1)} / ${r.cpuMin.toFixed(1)} | ${r.cpuRatio.toFixed(2)}× | ${target} |`,
    );
  }
  if (installed) {
    const pairs = COMMANDS.map((c, k) => {
      const [checkout, bundled, inst] = rows.slice(2 + 3 * k, 5 + 3 * k);
      return `${c.args[0]} ${(inst.median / bundled.median).toFixed(2)}× (installed/bundled), ${(inst.median / checkout.median).toFixed(2)}× (installed/checkout)`;
    });
    console.log(`\ninstalled package vs the checkout's dist/: ${pairs.join('; ')}`);
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ runs, rows }, null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
