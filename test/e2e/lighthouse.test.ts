// Lighthouse on the site (bench/lighthouse.ts: the home page, analyze, an artifact, a mechanism and the
// graph explorer, mobile emulation, Debian's Chromium driven by Lighthouse under Node 24 from the
// runtimes cache): performance, accessibility, best practices and SEO each at 95 or more. Performance is
// measured, so each page gets up to three runs and its best counts (a busy machine slows a run, never
// speeds one up). `npm run runtimes` installs Lighthouse; .ci/run installs Chromium.
// ci: once (Lighthouse runs under its own Node 24 and audits static pages, whatever the lane runs on).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { CATEGORIES, CHROMIUM, PAGES, THRESHOLD, bestOf, serveBuiltSite } from '../../bench/lighthouse.ts';
import { missing } from '../../scripts/runtimes.ts';

describe('Lighthouse, mobile emulation: every category at 95 or more on the pages readers land on', () => {
  let server: Awaited<ReturnType<typeof serveBuiltSite>> | undefined;
  before(async () => {
    const why = missing();
    if (why) throw new Error(why);
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does).`);
    server = await serveBuiltSite();
  });
  after(() => server?.stop());

  for (const page of PAGES) {
    test(`${page.name} (${page.path})`, { timeout: 600_000 }, () => {
      const scores = bestOf(server!.origin + page.path, 3);
      const low = CATEGORIES.filter((c) => scores[c] < THRESHOLD);
      assert.deepEqual(low, [], `${page.path}: ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ')} (best of ${scores.runs} runs)`);
    });
  }
});
