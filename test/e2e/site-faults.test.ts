// Faults while the site is served (issue #27, items 1 and 2): builds killed with SIGKILL at spread moments,
// and three builds at once, into a site that is being read, with no failed request (a few here;
// attacks-build.test.ts runs twenty of each). What a build does on its own: site-swap.test.ts.
// ci: once (the faults are the kernel's, a kill and the rename of a link; the build code under them is tested on every runtime by site-swap.test.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import '../dist.ts';
import { ROOT } from '../helpers.ts';
import { build, concurrentBuilds, killedBuilds, TwoVersions, whileServed } from '../site-faults.ts';

const KILLS = Number(process.env['HOBA_FAULT_KILLS'] ?? '2');
const ROUNDS = Number(process.env['HOBA_FAULT_ROUNDS'] ?? '1');

let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'hoba-faults-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe(`faults while the site is served: ${KILLS} builds killed at spread moments, ${ROUNDS} rounds of three builds at once`, () => {
  let versions: TwoVersions;
  let out: string;
  before(async () => {
    versions = new TwoVersions();
    out = join(work, 'served', 'site');
    mkdirSync(join(work, 'served'));
    const first = await build(ROOT, out);
    assert.equal(first.code, 0, first.stderr);
  });
  after(() => versions?.dispose());

  test('builds killed with SIGKILL: every request answered with a whole file of the old or the new site', async (t) => {
    const report = await whileServed(versions, out, () => killedBuilds(versions, out, KILLS));
    t.diagnostic(`${report.requests} requests; ${report.events.join('; ')}`);
    assert.deepEqual(report.failed, []);
    assert.ok(report.requests > KILLS * 10, `the site was read throughout (${report.requests} requests)`);
    assert.ok(
      report.leftovers.every((n) => /^site\.[0-9a-f]{16}$/.test(n)) && report.leftovers.length <= 2,
      `left beside the site: ${report.leftovers.join(', ')}`,
    );
  });

  test('three builds at once: one wins, the others exit 1 (build-locked), and no request fails', async (t) => {
    const report = await whileServed(versions, out, () => concurrentBuilds(versions, out, ROUNDS));
    t.diagnostic(`${report.requests} requests; ${report.events.join('; ')}`);
    assert.deepEqual(report.failed, []);
    assert.ok(
      report.leftovers.every((n) => /^site\.[0-9a-f]{16}$/.test(n)) && report.leftovers.length <= 2,
      `left beside the site: ${report.leftovers.join(', ')}`,
    );
  });
});
