// Smoke tests of the benchmarks, so that they cannot rot: each runs to the end with tiny settings and
// exits 0 (a benchmark exits non-zero when something it measures fails). Nothing is asserted about
// timings or about the tables they print; bench/http.ts runs with --smoke (a request per connection, no
// load) on the shared built site. The synthetic-atlas generator is tested in test/unit/synth-atlas.test.ts.
// ci: once (a smoke run of the benchmark scripts; the servers and commands they time have their own tests on every runtime).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers.ts';
import '../dist.ts';
import { sharedSite } from '../site-fixture.ts';

/** Runs a bench script to completion and returns what it printed; it must exit 0. */
function bench(args: string[]): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, `node ${args.join(' ')} exited with ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}
const tsx = (script: string, ...args: string[]) => ['--import', 'tsx', join(ROOT, 'bench', script), ...args];

test('the scale benchmark runs at a tiny size (150 entities, 5 samples)', () => {
  bench(tsx('scale.ts', '--sizes', '150', '--samples', '5', '--seed', '7'));
});

test('the MCP benchmark runs in quick mode, every tool answering', () => {
  bench(tsx('mcp.ts', '--quick'));
});

test('the CLI start-up benchmark runs in quick mode, the installed package included', () => {
  bench([join(ROOT, 'bench', 'cli-start.mjs'), '--quick']);
});

test('the HTTP doors benchmark runs in smoke mode (a request per connection on every row, no load)', () => {
  bench(tsx('http.ts', '--smoke', '--memo-off', '--site', sharedSite().root));
});

test('npm run bench (the orchestrator) runs a part in quick mode', () => {
  bench(tsx('run.ts', '--quick', '--no-build', '--only', 'scale'));
});

test('the benchmarks refuse unknown options with a usage line, not a stack trace', () => {
  for (const args of [tsx('run.ts', '--only', 'everything'), tsx('mcp.ts', '--runs', 'many'), tsx('http.ts', '--rounds', '0')]) {
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /usage: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});
