// Mirror parity (rule mirror-parity): a fresh build of the content against a site directory or a
// deployed site, through `hoba validate`.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compareMirror } from '../../src/publish/parity.ts';
import { createSiteServer } from '../../src/serve/server.ts';
import { sharedSite } from '../site-fixture.ts';
import { AtlasCopy, ofRule } from '../helpers.ts';
import { hoba } from '../dist.ts';

interface Report {
  ok: boolean;
  problems: Array<{ rule: string; file?: string; message: string }>;
  mirror: { source: string; files: number } | null;
}
const validate = (args: string[]) => {
  const r = hoba(['validate', '--strict', '--json', ...args]);
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
};

describe('mirror parity', () => {
  test('a fresh site is in parity; _site/ is the default mirror when present, --no-mirror skips it', () => {
    const copy = new AtlasCopy();
    try {
      assert.equal(validate(['--dir', copy.dir]).report.mirror, null, 'no _site/, no check');
      assert.equal(hoba(['build', '--dir', copy.dir]).status, 0);
      const r = validate(['--dir', copy.dir]);
      assert.equal(r.status, 0, JSON.stringify(r.report.problems));
      assert.equal(r.report.mirror?.source, join(copy.dir, '_site'));
      assert.ok(r.report.mirror!.files > 150);
      writeFileSync(join(copy.dir, '_site', 'api', 'v1', 'graph.json'), '{}\n');
      assert.equal(validate(['--dir', copy.dir]).status, 1);
      assert.equal(validate(['--dir', copy.dir, '--no-mirror']).status, 0);
    } finally {
      copy.dispose();
    }
  });

  test('missing, extra and drifted files are each reported with the rule mirror-parity', () => {
    const copy = new AtlasCopy();
    try {
      const site = join(copy.dir, 'mirror');
      assert.equal(hoba(['build', '--dir', copy.dir, '--out', site]).status, 0);
      unlinkSync(join(site, 'api', 'v1', 'loops', 'L-001.json'));
      writeFileSync(join(site, 'api', 'v1', 'mechanisms', 'M-999.json'), '{}\n');
      writeFileSync(join(site, 'openapi.json'), '{"openapi": "3.1.0"}\n');
      const { status, report } = validate(['--dir', copy.dir, '--mirror', site]);
      assert.equal(status, 1);
      const parity = ofRule(report.problems as never, 'mirror-parity') as unknown as Report['problems'];
      assert.equal(parity.length, 3, JSON.stringify(parity));
      const find = (file: string) => parity.find((p) => p.file === file)?.message ?? '';
      assert.match(find('mirror/api/v1/loops/L-001.json'), /^Missing from the mirror/);
      assert.match(find('mirror/api/v1/mechanisms/M-999.json'), /^Extra/);
      assert.match(find('mirror/openapi.json'), /^Drifted: .*first difference at line 1.*hoba build --out mirror/);
    } finally {
      copy.dispose();
    }
  });

  test('a content change makes the old mirror drift', () => {
    const copy = new AtlasCopy();
    try {
      assert.equal(hoba(['build', '--dir', copy.dir]).status, 0);
      copy.set('B-001', ['title'], 'A retitled barrier');
      const { status, report } = validate(['--dir', copy.dir]);
      assert.equal(status, 1);
      const drifted = report.problems.filter((p) => p.rule === 'mirror-parity').map((p) => p.file);
      for (const file of [
        '_site/api/v1/barriers/B-001.json',
        '_site/api/v1/barriers.json',
        '_site/api/v1/graph.json',
        '_site/api/v1/index.json',
      ]) {
        assert.ok(drifted.includes(file), `${file} drifted`);
      }
    } finally {
      copy.dispose();
    }
  });

  test('a missing mirror directory is reported, not a crash', () => {
    const copy = new AtlasCopy();
    try {
      const { status, report } = validate(['--dir', copy.dir, '--mirror', join(copy.dir, 'nowhere')]);
      assert.equal(status, 1);
      assert.match(report.problems[0]!.message, /does not exist/);
    } finally {
      copy.dispose();
    }
  });

  test('a directory that is not a built site (the checkout itself) is refused without reading it', () => {
    const copy = new AtlasCopy();
    try {
      const { status, report } = validate(['--dir', copy.dir, '--mirror', copy.dir]);
      assert.equal(status, 1);
      const parity = report.problems.filter((p) => p.rule === 'mirror-parity');
      assert.equal(parity.length, 1, JSON.stringify(parity));
      assert.match(parity[0]!.message, /is not a site built by hoba/);
      assert.equal(report.mirror?.files ?? 0, 0);
    } finally {
      copy.dispose();
    }
  });

  test('a deployed site is compared over HTTP: drifted and missing files are reported', async () => {
    const site = sharedSite();
    const scratch = mkdtempSync(join(tmpdir(), 'hoba-mirror-'));
    const deployed = join(scratch, 'deployed');
    // The site root is a link to its versioned directory: copy what it points at, not the link.
    cpSync(site.root, deployed, { recursive: true, dereference: true });
    const server = createSiteServer({ root: deployed });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const clean = await compareMirror(site.site, `${origin}/`);
      assert.deepEqual(clean.problems, []);
      assert.equal(clean.compared, site.site.files.filter((f) => f.url).length);

      writeFileSync(join(deployed, 'api', 'v1', 'mechanisms', 'M-002.json'), '{"stale": true}\n');
      rmSync(join(deployed, 'api', 'v1', 'patterns', 'P-001.json'));
      const drift = await compareMirror(site.site, origin);
      assert.deepEqual(
        drift.problems.map((p) => [p.rule, p.file, p.message.split(':')[0]]),
        [
          ['mirror-parity', `${origin}/api/v1/patterns/P-001`, 'Missing from the mirror'],
          ['mirror-parity', `${origin}/api/v1/mechanisms/M-002`, 'Drifted'],
        ],
      );
    } finally {
      server.close();
      server.closeAllConnections();
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test('an unreachable deployed site is one clear problem', async () => {
    const copy = new AtlasCopy();
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    try {
      const { status, report } = validate(['--dir', copy.dir, '--mirror', `http://127.0.0.1:${port}/`]);
      assert.equal(status, 1);
      const parity = report.problems.filter((p) => p.rule === 'mirror-parity');
      assert.equal(parity.length, 1);
      assert.match(
        parity[0]!.message,
        /^The deployed site could not be reached, so it was not compared \(http:\/\/127\.0\.0\.1:\d+\/\S+: ECONNREFUSED\)/,
      );
    } finally {
      copy.dispose();
    }
  });
});
