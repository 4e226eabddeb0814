// The Cloudflare deployment's configuration, validated by wrangler itself: `wrangler deploy --dry-run`
// with worker/wrangler.jsonc as it is committed, the worker bundle (dist/worker.js) and the built site
// as its static assets, laid out as the config expects them (../dist, ../_site). wrangler (pinned in
// tools/node22) needs Node 22+: it runs with Node 24 from the runtimes cache (`npm run runtimes`). A dry
// run uploads nothing and needs no account; it checks the config's fields, the bindings, the assets
// (count and sizes) and the upload's size.
// ci: once (wrangler runs under its own Node 22 from the runtimes cache, whatever the lane runs on).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { missing, nodePath, toolPath } from '../../scripts/runtimes.ts';
import { sharedSite, type BuiltSite } from '../site-fixture.ts';
import { DIST } from '../dist.ts';
import { ROOT } from '../helpers.ts';

const WORKER = join(DIST, 'worker.js');

describe('wrangler deploy --dry-run with worker/wrangler.jsonc', () => {
  let site: BuiltSite;
  let dir: string;
  let run: { status: number | null; output: string };
  before(() => {
    const why = missing();
    if (why) throw new Error(why);
    if (!existsSync(WORKER))
      throw new Error('dist/worker.js is missing: run npm run build first (scripts/build-worker.mjs bundles the worker).');
    site = sharedSite();
    dir = mkdtempSync(join(tmpdir(), 'hoba-wrangler-'));
    mkdirSync(join(dir, 'worker'));
    mkdirSync(join(dir, 'home'));
    copyFileSync(join(ROOT, 'worker', 'wrangler.jsonc'), join(dir, 'worker', 'wrangler.jsonc'));
    symlinkSync(DIST, join(dir, 'dist'));
    symlinkSync(site.root, join(dir, '_site'));
    const home = join(dir, 'home');
    const r = spawnSync(
      nodePath(24),
      [toolPath('wrangler', 'bin/wrangler.js'), 'deploy', '--dry-run', '--config', 'worker/wrangler.jsonc', '--outdir', join(dir, 'out')],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 180_000,
        // No account, no telemetry, no update check, and its logs in a home of its own.
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: home,
          XDG_CONFIG_HOME: home,
          WRANGLER_SEND_METRICS: 'false',
          CI: 'true',
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
      },
    );
    run = { status: r.status, output: `${r.stdout}\n${r.stderr}` };
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('it validates: exit 0, no warning, the ASSETS binding, every file of the site read', () => {
    assert.equal(run.status, 0, run.output);
    assert.doesNotMatch(run.output, /WARNING|ERROR|✘|▲/, 'wrangler has nothing to say about the config');
    assert.match(run.output, /env\.ASSETS\s+Assets/);
    const read = /Read (\d+) files? from the assets directory/.exec(run.output);
    assert.ok(read, run.output);
    // Every file written (wrangler's count takes in the folders too).
    const written = (readdirSync(site.root, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile()).length;
    assert.ok(Number(read[1]) >= written, `wrangler read ${read[1]} entries of a site of ${written} files`);
  });

  test('the upload is the bundle as built (no_bundle), within the Workers size limit', () => {
    assert.ok(readFileSync(join(dir, 'out', 'worker.js')).equals(readFileSync(WORKER)), 'dist/worker.js is uploaded as it is');
    const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(run.output);
    assert.ok(size, run.output);
    // 3 MiB compressed is the limit of a Worker on the free plan (10 MiB on the paid plans).
    assert.ok(Number(size[2]) < 3 * 1024, `the compressed upload is ${size[2]} KiB`);
  });
});
