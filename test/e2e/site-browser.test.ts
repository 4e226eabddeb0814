// The whole site, as a reader's browser sees it. The site is built from this checkout (pages from the
// source, browser bundles from dist/site/, so run `npm run build` first, as `npm test` does) and served
// by the server of `hoba serve`. Then:
// - a crawl from / (plain HTTP) follows every internal link of every HTML page and checks that each
//   link resolves (fragments too, where they name an element);
// - one page of each type (home, each browse page, an entity of each kind, search, analyze, explore,
//   methodology, developers, 404, and any other page the crawl finds) is opened in Chromium: no console
//   errors, no failed requests, no serious or critical axe violations in the light and the dark scheme,
//   no sideways scrolling at 390 px; screenshots of the main types at 1280 and 390 px, light and dark,
//   go to test-output/screenshots/ (not committed);
// - the graph explorer draws, filters, focuses and leads to entity pages, and survives a malformed fragment.
// The server sends the site's Content-Security-Policy (routes.ts) as every host does: any violation a page
// reports (an inline script or style, a script from elsewhere) is a console error, and so a failure.
// Chromium is required at /usr/bin/chromium (CI installs it); the test never downloads a browser.
// ci: once (Chromium runs the pages and their scripts; the server under them is checked on every runtime by serve.test.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { KIND_INFO, KINDS, type Kind } from '../../src/model/vocab.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/publish/routes.ts';
import { createSiteServer } from '../../src/serve/server.ts';
import { SITE } from '../../src/site/paths.ts';
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
const SCREENSHOTS = fileURLToPath(new URL('../test-output/screenshots/', import.meta.url));
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** A path no page has: the 404 page's type. */
const MISSING = '/no-such-page-here/';
/** Pages that keep their state in the URL's fragment (a fragment there is not an element's id). */
const FRAGMENT_STATE_PAGES: readonly string[] = [SITE.analyze, SITE.explore];

// ── The crawl ──────────────────────────────────────────────────────────────────────────────────────

interface Crawl {
  /** Every HTML page reached, by path. */
  pages: Map<string, { status: number; html: string }>;
  /** Links that do not resolve: "from → to: why". */
  broken: string[];
  /** How many distinct internal URLs were checked. */
  checked: number;
}

const unescapeAttr = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

function linksOf(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) out.push(unescapeAttr(m[1]!));
  return out;
}

function hasAnchor(html: string, fragment: string): boolean {
  const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\s(?:id|name)="${escaped}"`).test(html);
}

/** Follows every internal link from the seeds, fetching each distinct URL once; parses the HTML ones. */
async function crawl(origin: string, seeds: readonly string[]): Promise<Crawl> {
  const pages = new Map<string, { status: number; html: string }>();
  const referrers = new Map<string, Set<string>>(seeds.map((s) => [s, new Set(['(start)'])]));
  const fragments: Array<{ from: string; path: string; fragment: string }> = [];
  const broken: string[] = [];
  let queue = [...seeds];
  while (queue.length > 0) {
    const next: string[] = [];
    // A round at a time: every URL first seen in the previous round, a few dozen at once.
    await inParallel(queue, 32, async (path) => {
      const r = await fetch(origin + path);
      const type = r.headers.get('content-type') ?? '';
      const body = type.startsWith('text/html') ? await r.text() : (await r.arrayBuffer(), '');
      if (r.status !== 200) {
        const from = [...referrers.get(path)!].slice(0, 3).join(', ');
        broken.push(`${path}: HTTP ${r.status} (linked from ${from})`);
        return;
      }
      if (!type.startsWith('text/html')) return;
      pages.set(path, { status: r.status, html: body });
      for (const raw of linksOf(body)) {
        const url = new URL(raw, origin + path);
        if (url.origin !== origin) continue;
        const target = url.pathname + url.search;
        if (url.hash.length > 1) fragments.push({ from: path, path: target, fragment: decodeURIComponent(url.hash.slice(1)) });
        const seen = referrers.get(target);
        if (seen) seen.add(path);
        else {
          referrers.set(target, new Set([path]));
          next.push(target);
        }
      }
    });
    queue = next;
  }
  for (const { from, path, fragment } of fragments) {
    if (FRAGMENT_STATE_PAGES.includes(path)) continue;
    const target = pages.get(path);
    if (target && !hasAnchor(target.html, fragment)) broken.push(`${path}#${fragment}: no element has that id (linked from ${from})`);
  }
  return { pages, broken: [...new Set(broken)].sort(), checked: referrers.size };
}

/** Runs `work` over the items, at most `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

// ── Page weight ────────────────────────────────────────────────────────────────────────────────────

/** Budgets of the README: an entity page transfers under 60 KB before images; the analyze script is under 250 KB. */
const ENTITY_PAGE_BUDGET = 60 * 1024;
const ANALYZE_SCRIPT_BUDGET = 250 * 1024;
/** Issue 24: the situation reader's model adds at most 150 KB gzipped to the site. */
const READER_MODEL_BUDGET = 150 * 1024;

/** Bytes on the wire for a URL, as a browser that accepts brotli and gzip receives it (not decompressed). */
function transferred(origin: string, path: string): Promise<number> {
  return new Promise((done, fail) => {
    httpGet(origin + path, { headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => done(bytes));
      res.on('error', fail);
    }).on('error', fail);
  });
}

/** The stylesheets and scripts a page loads before any image: what the page-weight budget counts beside the HTML. */
function subresourcesOf(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
    if (href) out.add(unescapeAttr(href));
  }
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) out.add(unescapeAttr(m[1]!));
  return [...out].filter((u) => u.startsWith('/') && !u.startsWith('//')).sort();
}

// ── Page types ─────────────────────────────────────────────────────────────────────────────────────

interface PageType {
  name: string;
  path: string;
  /** Screenshots are saved for the main types. */
  main: boolean;
  /**
   * Whether axe runs on it. The browse pages of the eight kinds are one page type, built by one template:
   * axe checks two of them (artifacts and mechanisms, whose filters differ most); every browse page is
   * still opened for console errors, failed requests and phone width.
   */
  axe: boolean;
  /** The HTTP status the page answers (404 for the not-found page). */
  status: number;
}

const ENTITY_PAGE = new RegExp(`^/(${KINDS.map((k) => KIND_INFO[k].dir).join('|')})/([A-Z]-[0-9]{3,})/$`);
const NAMED: ReadonlyArray<[string, string]> = [
  ['home', SITE.home],
  ['search', SITE.search],
  ['analyze', SITE.analyze],
  ['explore', SITE.explore],
  ['methodology', SITE.methodology],
  ['developers', SITE.developers],
];
const MAIN_ENTITY_KINDS: readonly Kind[] = ['artifact', 'mechanism', 'pattern', 'loop', 'scenario'];

/** One page of each type found by the crawl: the lowest ID of each kind stands for its entity pages. */
function pageTypes(pages: Iterable<string>): PageType[] {
  const paths = [...pages].sort();
  const types: PageType[] = [];
  const taken = new Set<string>();
  const add = (name: string, path: string, main: boolean, axe = true) => {
    types.push({ name, path, main, axe, status: 200 });
    taken.add(path);
  };
  for (const [name, path] of NAMED) if (paths.includes(path)) add(name, path, true);
  for (const kind of KINDS) {
    const browse = `/${KIND_INFO[kind].dir}/`;
    const representative = kind === 'artifact' || kind === 'mechanism';
    if (paths.includes(browse)) add(`browse ${kind}`, browse, representative, representative);
    const entity = paths
      .map((p) => ENTITY_PAGE.exec(p))
      .filter((m): m is RegExpExecArray => m !== null && m[1] === KIND_INFO[kind].dir)
      .sort((a, b) => Number(a[2]!.slice(2)) - Number(b[2]!.slice(2)))[0];
    if (entity) add(`${kind} page`, entity[0], MAIN_ENTITY_KINDS.includes(kind));
  }
  // Any other page (an index of kinds, a page added later) is a type of its own; entity pages are not, and
  // a page reached with a query (a search linked from the home page) counts once per path.
  for (const p of paths) {
    if (taken.has(p) || ENTITY_PAGE.test(p)) continue;
    const [path, query] = p.split('?');
    if (query === undefined) add(`page ${p}`, p, false);
    else if (!types.some((ty) => ty.name === `${path} with a query`)) add(`${path} with a query`, p, path === SITE.search);
  }
  types.push({ name: '404', path: MISSING, main: true, axe: true, status: 404 });
  return types;
}

/** The types every complete site has (the issue's list); a missing one is a failure, not a skip. */
function expectedTypes(): string[] {
  return [...NAMED.map(([name]) => name), ...KINDS.map((k) => `browse ${k}`), ...KINDS.map((k) => `${k} page`), '404'];
}

// ── In the browser ─────────────────────────────────────────────────────────────────────────────────

/** Watches a page for console errors, uncaught exceptions and failed requests. */
function watch(page: Page, expectedStatus: (url: string) => number | undefined): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Chromium logs every response of 400 or more; one the page is meant to answer (the 404 page) is no error.
    const url = msg.location().url;
    if (msg.text().startsWith('Failed to load resource') && expectedStatus(url) !== undefined) return;
    problems.push(`console error: ${msg.text()} (${url})`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught exception: ${err.message}`));
  page.on('requestfailed', (req) => {
    // ERR_ABORTED: the page itself cancelled the request (it navigated away, e.g. while the favicon loaded).
    const reason = req.failure()?.errorText ?? 'no reason';
    if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} (${reason})`);
  });
  page.on('response', (res) => {
    const expected = expectedStatus(res.url()) ?? 200;
    if (res.status() >= 400 && res.status() !== expected) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}

/**
 * Serious and critical axe violations. The page's structure is the same in both schemes, so the dark
 * scheme is checked for the rules about colour only (half the time of a second full run).
 */
async function axeProblems(page: Page, scheme: 'light' | 'dark'): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  axe.options({ resultTypes: ['violations'] });
  if (scheme === 'dark') axe.withRules(['color-contrast', 'link-in-text-block']);
  else axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  const result = await axe.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `axe (${scheme}) ${v.id} [${v.impact}]: ${v.help}; ${v.nodes.length} element(s), e.g. ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}${v.nodes[0]?.failureSummary ? ` — ${v.nodes[0].failureSummary.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`,
    );
}

/** Longest screenshot taken: the top of the page down to here (long lists need no picture of their end). */
const SCREENSHOT_HEIGHT = 3000;

async function screenshot(page: Page, name: string): Promise<void> {
  const { width } = page.viewportSize()!;
  const height = Math.min(SCREENSHOT_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight));
  await page.screenshot({
    path: join(SCREENSHOTS, name),
    fullPage: true,
    clip: { x: 0, y: 0, width, height },
    animations: 'disabled',
    caret: 'hide',
  });
}

const fileName = (type: PageType) =>
  type.name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

/** Everything one page type must pass, collected so that one report names every problem of the page. */
async function checkPageType(context: BrowserContext, origin: string, type: PageType): Promise<string[]> {
  const page = await context.newPage();
  const problems = watch(page, (url) => (url === origin + type.path ? type.status : undefined));
  try {
    await page.emulateMedia({ colorScheme: 'light' });
    const res = await page.goto(origin + type.path, { waitUntil: 'networkidle' });
    if (res?.status() !== type.status) problems.push(`answered HTTP ${res?.status()}, expected ${type.status}`);
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(DESKTOP);
      await page.emulateMedia({ colorScheme: scheme });
      if (type.axe) problems.push(...(await axeProblems(page, scheme)));
      if (type.main) await screenshot(page, `${fileName(type)}-1280-${scheme}.png`);
      await page.setViewportSize(PHONE);
      // Scripts that size things to the window (the explorer's drawing) hear of the resize a moment later:
      // wait until the page fits, or at most five seconds (then what sticks out is reported below).
      await page
        .waitForFunction((limit) => document.documentElement.scrollWidth <= limit, PHONE.width, { timeout: 5000 })
        .catch((err: unknown) => {
          if (!(err instanceof Error && err.name === 'TimeoutError')) throw err;
        });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > PHONE.width) {
        const wide = await page.evaluate((limit) => {
          // The outermost elements that stick out, to say what to fix.
          const out: string[] = [];
          const clipped = (el: Element) => {
            for (let a = el.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
            return false;
          };
          for (const el of document.querySelectorAll('body *')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.right <= limit + 1 || clipped(el)) continue;
            if (!(el.parentElement && el.parentElement.getBoundingClientRect().right > limit + 1)) {
              out.push(
                `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} (right edge ${Math.round(r.right)} px)`,
              );
            }
          }
          return out.slice(0, 5);
        }, PHONE.width);
        problems.push(
          `scrolls sideways at ${PHONE.width} px (${scheme}): scroll width ${width} px; sticking out: ${wide.join(', ') || 'unknown'}`,
        );
      }
      if (type.main) await screenshot(page, `${fileName(type)}-390-${scheme}.png`);
    }
  } finally {
    await page.close();
  }
  return problems;
}

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

// ── The test ───────────────────────────────────────────────────────────────────────────────────────

test('the site in a browser: links, console, failed requests, accessibility, phone width, explorer', { timeout: 600_000 }, async (t) => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}, and this test needs it. Install it (Debian: apt-get install -y chromium; CI does this) and run the tests again.`,
    );
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const site = sharedSite();
  const server = createSiteServer({ root: site.root });
  const origin = await listen(server);
  let browser: Browser | undefined;
  try {
    // The home page, and the files a site of this kind has even if no page links them.
    const found = await crawl(origin, [SITE.home, '/robots.txt', '/llms.txt', '/favicon.svg']);
    await t.test(`every internal link resolves (${found.pages.size} pages, ${found.checked} URLs)`, () => {
      assert.deepEqual(found.broken, [], `links that do not resolve:\n${found.broken.join('\n')}`);
    });
    const types = pageTypes(found.pages.keys());
    // HOBA_SITE_TYPES=explore,home checks only the page types whose names contain one of those words (while working on a page).
    const only = process.env['HOBA_SITE_TYPES']?.split(',').filter(Boolean);
    const checked = only ? types.filter((ty) => only.some((w) => ty.name.includes(w))) : types;
    await t.test('every page type is reachable from the home page', () => {
      const missing = expectedTypes().filter((name) => !types.some((ty) => ty.name === name));
      assert.deepEqual(missing, [], `page types the crawl did not reach: ${missing.join(', ')}`);
    });

    await t.test('page weight: every entity page under 60 KB transferred, the analyze script under 250 KB', async (st: TestContext) => {
      const sizes = new Map<string, Promise<number>>();
      const size = (path: string) => {
        let p = sizes.get(path);
        if (!p) {
          p = transferred(origin, path);
          sizes.set(path, p);
        }
        return p;
      };
      const over: string[] = [];
      let heaviest = { path: '', bytes: 0 };
      const entityPages = [...found.pages].filter(([path]) => ENTITY_PAGE.test(path));
      await inParallel(entityPages, 16, async ([path, { html }]) => {
        const parts = [path, ...subresourcesOf(html)];
        const bytes = (await Promise.all(parts.map(size))).reduce((a, b) => a + b, 0);
        if (bytes > heaviest.bytes) heaviest = { path, bytes };
        if (bytes > ENTITY_PAGE_BUDGET) over.push(`${path}: ${(bytes / 1024).toFixed(1)} KB (${parts.join(', ')})`);
      });
      st.diagnostic(
        `heaviest entity page: ${heaviest.path}, ${(heaviest.bytes / 1024).toFixed(1)} KB transferred with its stylesheets and scripts`,
      );
      assert.deepEqual(over.sort(), [], `entity pages over the ${ENTITY_PAGE_BUDGET / 1024} KB budget:\n${over.join('\n')}`);
      const analyze = found.pages.get(SITE.analyze);
      assert.ok(analyze, 'the analyze page exists');
      for (const script of subresourcesOf(analyze.html).filter((u) => u.endsWith('.js'))) {
        const r = await fetch(origin + script);
        const bytes = (await r.arrayBuffer()).byteLength;
        st.diagnostic(`${script}: ${(bytes / 1024).toFixed(1)} KB uncompressed`);
        assert.ok(
          bytes < ANALYZE_SCRIPT_BUDGET,
          `${script} is ${(bytes / 1024).toFixed(1)} KB uncompressed, over the ${ANALYZE_SCRIPT_BUDGET / 1024} KB budget`,
        );
      }
    });

    await t.test("the reader's model is under 150 KB gzipped", async (st: TestContext) => {
      // Training holds the model to its budget by a proxy in characters (maxChars): this is the measure.
      const model = Buffer.from(await (await fetch(origin + SITE.readerModel)).arrayBuffer());
      const gzipped = gzipSync(model, { level: 9 }).length;
      st.diagnostic(`${SITE.readerModel}: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
      assert.ok(
        gzipped <= READER_MODEL_BUDGET,
        `${SITE.readerModel} is ${(gzipped / 1024).toFixed(1)} KB gzipped, over the ${READER_MODEL_BUDGET / 1024} KB budget: lower maxChars (src/analysis/reader-train.ts)`,
      );
    });

    await t.test('the pages are served with the Content-Security-Policy on', async () => {
      for (const path of [SITE.home, SITE.analyze, SITE.explore, SITE.search]) {
        assert.equal((await fetch(origin + path)).headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, path);
      }
    });

    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
    const context = await browser.newContext({ viewport: DESKTOP });
    // Every violation of the policy a page reports becomes a console error, which watch() counts (Chromium
    // logs most of them itself; the event catches the rest, such as those of report-only checks).
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(
          `Content-Security-Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
        ),
      );
    });
    // Page types in parallel, a few at a time: each has its own tab.
    await t.test('each page type in Chromium', { concurrency: 4 }, async (tt: TestContext) => {
      await Promise.all(
        checked.map((type) =>
          tt.test(`${type.name} (${type.path})`, async () => {
            const problems = await checkPageType(context, origin, type);
            assert.deepEqual(problems, [], `${type.name} (${type.path}):\n${problems.join('\n')}`);
          }),
        ),
      );
    });

    await t.test('the graph explorer draws, filters, focuses and leads to entity pages', async () => {
      const page = await context.newPage();
      const problems = watch(page, () => undefined);
      try {
        await page.goto(origin + SITE.explore, { waitUntil: 'networkidle' });
        const status = page.locator('#explore-status');
        await status.and(page.locator('[data-nodes]')).waitFor({ timeout: 15_000 });
        const count = async () => Number(await status.getAttribute('data-nodes'));
        assert.ok((await page.locator('#explore-canvas canvas').count()) > 0, 'the drawing has a canvas');
        const all = await count();
        assert.ok(all > 0, 'nodes are drawn');
        await page.locator('#explore-nodes summary').click();
        // The list is filled when it opens (a toggle event, which comes after the click).
        await page
          .locator('#explore-nodes tbody tr')
          .nth(all - 1)
          .waitFor({ timeout: 10_000 });
        assert.equal(await page.locator('#explore-nodes tbody tr').count(), all, 'the list holds the nodes drawn');
        assert.equal(await page.locator('#explore-nojs').isVisible(), false, 'the no-JavaScript note is hidden once the drawing works');

        await page.locator('input[name="kind"][value="artifact"]').uncheck();
        const withoutArtifacts = await count();
        assert.ok(withoutArtifacts < all, `hiding observations leaves fewer nodes (${withoutArtifacts} < ${all})`);
        assert.equal(await page.locator('#explore-nodes tbody tr').count(), withoutArtifacts, 'the list follows the toggles');

        await page.locator('#explore-evidence').selectOption('established');
        const established = await count();
        assert.ok(established < withoutArtifacts, `a facet filter narrows the graph (${established} < ${withoutArtifacts})`);

        await page.locator('[data-action="reset"]').click();
        assert.equal(await count(), all, 'reset shows the starting graph again');

        await page.locator('#explore-focus').selectOption('M-001');
        const hood = Number(await status.getAttribute('data-hood-nodes'));
        assert.ok(hood > 1 && hood < all, `focusing shows a neighbourhood (${hood} of ${all})`);
        assert.equal(await page.locator('#explore-nodes tbody tr').count(), hood, 'the list shows the neighbourhood');
        assert.match(page.url(), /#M-001$/, 'the focus is in the URL, so it can be linked');

        // Click-through on the drawing: clicking the focused node opens its page.
        const point = await page.evaluate(() => {
          const cy = (
            window as unknown as { hobaExplorer: { cy: { getElementById(id: string): { renderedPosition(): { x: number; y: number } } } } }
          ).hobaExplorer.cy;
          return cy.getElementById('M-001').renderedPosition();
        });
        await page.locator('#explore-canvas').scrollIntoViewIfNeeded();
        // Cytoscape.js ignores the mouse for 250 ms after the page scrolls (a scroll is not a tap): a person
        // clicks later than that; the test waits for the same (after two frames, so the scroll event has come).
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        await page.waitForFunction(
          () =>
            !(window as unknown as { hobaExplorer: { cy: { renderer(): { scrollingPage?: boolean } } } }).hobaExplorer.cy.renderer()
              .scrollingPage,
        );
        const box = (await page.locator('#explore-canvas').boundingBox())!;
        await Promise.all([
          page.waitForURL(`${origin}/mechanisms/M-001/`, { timeout: 10_000 }),
          page.mouse.click(box.x + point.x, box.y + point.y),
        ]);

        // And from the keyboard: the focus panel's link, with Enter.
        await page.goto(`${origin}${SITE.explore}#A-001`, { waitUntil: 'networkidle' });
        await status.and(page.locator('[data-hood-nodes]')).waitFor();
        const link = page.locator('#explore-focus-panel a');
        await link.focus();
        await Promise.all([page.waitForURL(`${origin}/artifacts/A-001/`, { timeout: 10_000 }), page.keyboard.press('Enter')]);

        // A malformed fragment (bad percent-encoding), opened or typed later, focuses nothing and breaks nothing.
        await page.goto(`${origin}${SITE.explore}#%E0%A4%A`, { waitUntil: 'networkidle' });
        await status.and(page.locator('[data-nodes]')).waitFor({ timeout: 15_000 });
        assert.equal(await count(), all, 'the whole graph is drawn');
        await page.evaluate(() => (location.hash = '%ZZ'));
        await page.locator('#explore-focus').selectOption('M-001');
        assert.ok(Number(await status.getAttribute('data-hood-nodes')) > 1, 'the explorer still works');
      } finally {
        await page.close();
      }
      assert.deepEqual(problems, [], problems.join('\n'));
    });
  } finally {
    await browser?.close();
    await close(server);
  }
});
