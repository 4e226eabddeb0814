// A browser script on another origin reads the API and revalidates it: the real CORS machinery of
// Chromium (preflight for If-None-Match, exposed ETag, a 304 handed back to the script) against the
// server of `hoba serve`. Chromium is required at /usr/bin/chromium (CI installs it); without it this
// test fails with instructions rather than skipping. It never downloads a browser.
// ci: once (Chromium makes the requests; the server under them is checked on every runtime by serve.test.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { createSiteServer } from '../../src/serve/server.ts';
import { sharedSite } from '../site-fixture.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

/** What the page's script saw. */
interface Seen {
  first: { status: number; etag: string | null };
  again: { status: number; etag: string | null } | { error: string };
  missing: { status: number; type: string | null; title: string };
}

test('a page on another origin fetches the API, revalidates with If-None-Match (304) and reads the ETag', async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}, and this test needs it. Install it (Debian: apt-get install -y chromium; CI does this) and run the tests again.`,
    );
  }
  const site = sharedSite();
  const api = createSiteServer({ root: site.root });
  const requests: string[] = [];
  api.on('request', (req: { method?: string; url?: string }) => requests.push(`${req.method} ${req.url}`));
  // The page's own origin: same host, another port, so every API request is cross-origin.
  const page = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>elsewhere</title>'),
  );
  const profile = mkdtempSync(join(tmpdir(), 'hoba-chromium-'));
  const [apiOrigin, pageOrigin] = [await listen(api), await listen(page)];
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
  try {
    const tab = browser.pages()[0] ?? (await browser.newPage());
    await tab.goto(`${pageOrigin}/`);
    const seen = await tab.evaluate(async (origin): Promise<Seen> => {
      const url = `${origin}/api/v1/graph`;
      const first = await fetch(url);
      const etag = first.headers.get('ETag');
      let again: Seen['again'];
      try {
        // A header outside the CORS safelist: the browser sends a preflight first.
        const r = await fetch(url, { headers: { 'If-None-Match': etag ?? '"none"' } });
        again = { status: r.status, etag: r.headers.get('ETag') };
      } catch (err) {
        again = { error: String(err) };
      }
      const m = await fetch(`${origin}/api/v1/artifacts/A-999`);
      const missing = { status: m.status, type: m.headers.get('Content-Type'), title: ((await m.json()) as { title: string }).title };
      return { first: { status: first.status, etag }, again, missing };
    }, apiOrigin);

    assert.equal(seen.first.status, 200);
    assert.match(String(seen.first.etag), /^"[^"]+"$/, 'the script reads the ETag (Access-Control-Expose-Headers)');
    assert.ok(!('error' in seen.again), `the revalidation failed in the browser: ${'error' in seen.again ? seen.again.error : ''}`);
    assert.equal(seen.again.status, 304, 'the revalidation is a 304 handed to the script');
    assert.equal(seen.again.etag, seen.first.etag);
    assert.ok(requests.includes('OPTIONS /api/v1/graph'), `the browser sent a preflight: ${requests.join(', ')}`);
    assert.deepEqual(seen.missing, { status: 404, type: 'application/problem+json; charset=utf-8', title: 'Not Found' });
  } finally {
    await browser.close();
    await Promise.all([close(api), close(page)]);
    rmSync(profile, { recursive: true, force: true });
  }
});
