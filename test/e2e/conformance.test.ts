// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in tools/node22 and run
// with Node 24 from the runtimes cache: it needs Node 22+) against the hosted server as it ships
// (dist/mcp.js --http, on the runtime running this test), once per protocol revision the server speaks
// that the suite knows. Every scenario passes but those listed, with why, in
// test/conformance/expected-failures.yaml; the suite itself fails the run on an unexpected failure and
// on a listed one that has started to pass. (`npm run runtimes` installs Node 24 and the suite.)
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { missing, nodePath, toolPath } from '../../scripts/runtimes.ts';
import { ROOT } from '../helpers.ts';
import { MCP } from '../dist.ts';

const BASELINE = join(ROOT, 'test', 'conformance', 'expected-failures.yaml');
const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

describe('the MCP conformance suite against hoba-mcp --http', () => {
  let child: ChildProcess | undefined;
  let url: string;
  const out = mkdtempSync(join(tmpdir(), 'hoba-conformance-'));
  before(async () => {
    const why = missing();
    if (why) throw new Error(why);
    if (!existsSync(MCP)) throw new Error('dist/mcp.js is missing: run npm run build first.');
    child = spawn(process.execPath, [MCP, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    url = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => {
        log += d.toString();
        const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log);
        if (found) resolve(found[1]!);
      });
      child!.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      child!.on('exit', (code) => reject(new Error(`hoba-mcp --http exited ${code} before listening:\n${log}`)));
    });
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(out, { recursive: true, force: true });
  });

  for (const revision of REVISIONS) {
    test(`revision ${revision}: every scenario that applies passes (the rest are listed with why)`, () => {
      const suite = toolPath('@modelcontextprotocol/conformance', 'dist/index.js');
      const dir = join(out, revision);
      const run = spawnSync(
        nodePath(24),
        [suite, 'server', '--url', url, '--suite', 'all', '--spec-version', revision, '--expected-failures', BASELINE, '-o', dir],
        {
          cwd: out,
          encoding: 'utf8',
          timeout: 5 * 60_000,
        },
      );
      const report = `${run.stdout}\n${run.stderr}`.replace(/^Running client scenario .*\n|^Results saved to .*\n/gm, '');
      assert.equal(run.status, 0, `the suite failed at ${revision}:\n${report.slice(-6000)}`);
      assert.match(run.stdout, /Baseline check passed/);
      // Some scenarios ran and passed at this revision: not a run that found nothing to test.
      const passed = readdirSync(dir).filter((d) => {
        const checks = JSON.parse(readFileSync(join(dir, d, 'checks.json'), 'utf8')) as Array<{ status: string }>;
        return checks.length > 0 && checks.every((c) => c.status !== 'FAILURE');
      });
      assert.ok(passed.length >= 1, `${revision}: ${passed.length} scenarios passed`);
    });
  }
});
