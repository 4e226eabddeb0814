// The analyze and search pages in a real browser (issue 13): what the analyze page shows for three ticked
// observations is what `hoba explain --json` gives for them; recording a probe outcome narrows it as
// `--probe p=o` does; a #scenario= link reproduces `--scenario`; plain words pick the observations the
// CLI picks; search finds an observation from a typo'd and from an everyday query. Nothing but the site's
// own static files is requested, and no page logs an error. Needs the built bundles (npm run build) and
// Chromium at /usr/bin/chromium (CI installs it); it never downloads a browser.
// ci: once (Chromium runs the pages and their scripts; the server under them is checked on every runtime by serve.test.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { fragmentOf, stateOfFragment } from '../../src/site/browser/lib/analyze-state.ts';
import type { ExplainResult } from '../../src/analysis/schemas.ts';
import { createSiteServer } from '../../src/serve/server.ts';
import { SITE } from '../../src/site/paths.ts';
import { sharedSite, type BuiltSite } from '../site-fixture.ts';
import { hoba } from '../dist.ts';
import { readSituation, useReaderModel } from '../../src/analysis/reader.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import { CORPUS_DIR, readCorpus, TRAIN_FILE } from '../../src/registry/reader-corpus.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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

/** `hoba explain … --json`, as a user runs it. */
function cliExplain(args: string[]): ExplainResult {
  const run = hoba(['explain', ...args, '--json']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as ExplainResult;
}

/** What the CLI's result says, in the terms the page is compared on. */
function expected(r: ExplainResult) {
  return {
    artifacts: r.input.artifacts,
    verdict: r.agency.verdict.code,
    first: r.behind.mechanisms.filter((m) => m.tier === 'produces').map((m) => m.id),
    second: r.behind.mechanisms.filter((m) => m.tier === 'same-stage').map((m) => m.id),
    probes: r.agency.probes.map((p) => p.id),
    excluded: r.behind.excluded.map((m) => m.id),
  };
}

/** What the analyze page shows, in the same terms. (Callbacks run in the page: no named inner functions.) */
async function shown(page: Page) {
  const attrs = (selector: string, name: string) => page.$$eval(selector, (els, n) => els.map((el) => el.getAttribute(n) ?? ''), name);
  return {
    artifacts: await page.$$eval('#picks input:checked', (els) => els.map((el) => (el as HTMLInputElement).value)),
    verdict: (await page.getAttribute('#result [data-verdict]', 'data-verdict')) ?? '',
    first: await attrs('#result [data-tier="produces"] > li', 'data-id'),
    second: await attrs('#result [data-tier="same-stage"] > li', 'data-id'),
    probes: await attrs('#result li.answer-probe', 'data-probe'),
    excluded: await attrs('#result [data-excluded]', 'data-excluded'),
  };
}

/** The checkboxes list observations in page order; the CLI lists them as given. Compare as sets. */
function comparable(x: Awaited<ReturnType<typeof shown>> | ReturnType<typeof expected>) {
  return { ...x, artifacts: [...x.artifacts].sort() };
}

let site: BuiltSite;

/**
 * Words that raise a question with the model the site ships: the first of the training corpus's accounts
 * labelled "ask" (they leave the fact that tells two readings apart unsaid) that does. None doing so
 * means the reader no longer asks, and fails the test.
 */
function askingWords(): string {
  const reg = loadAtlas(ROOT).registry;
  const model = useReaderModel(reg, site.file(SITE.readerModel.slice(1)).toString('utf8'));
  for (const x of readCorpus(join(ROOT, CORPUS_DIR, TRAIN_FILE))) {
    if (x.ask.length === 0 || x.text === undefined || x.message !== undefined) continue;
    if (readSituation(reg, { text: x.text }, model).questions.length > 0) return x.text;
  }
  assert.fail('none of the training corpus\'s "ask" accounts raises a question: the reader never asks');
}
let server: Server;
let origin: string;
let browser: Browser;

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}, and this test needs it. Install it (Debian: apt-get install -y chromium; CI does this) and run the tests again.`,
    );
  }
  site = sharedSite();
  server = createSiteServer({ root: site.root });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  if (server) {
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  }
});

/**
 * A fresh page that records console errors, failed requests and every URL requested; `check()` asserts
 * that there were no errors and that only the site's own pages and static assets were fetched.
 */
async function openPage(width = 1280): Promise<{ page: Page; check(): void }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
  page.on('request', (r) => requested.push(r.url()));
  return {
    page,
    check() {
      assert.deepEqual(problems, []);
      const elsewhere = requested.filter((u) => {
        const url = new URL(u);
        return (
          url.origin !== origin ||
          !(
            url.pathname === SITE.analyze ||
            url.pathname === SITE.search ||
            url.pathname.startsWith('/assets/') ||
            url.pathname.startsWith('/favicon')
          )
        );
      });
      assert.deepEqual(elsewhere, [], 'the page requests only its own static files: what a person types stays in the browser');
    },
  };
}

const resultReady = (page: Page) => page.waitForSelector('#result:not([hidden]) [data-verdict]', { timeout: 15_000 });

describe('analyze page', () => {
  const three = ['A-009', 'A-027', 'A-003'];

  test('three ticked observations give what hoba explain --json gives', async () => {
    const { page, check } = await openPage();
    await page.goto(`${origin}${SITE.analyze}`);
    for (const id of three) await page.check(`#picks input[value="${id}"]`);
    await page.click('#form-pick button[type="submit"]');
    await resultReady(page);
    // The page submits them in the list's order; the CLI gets the same order (probes are ranked by it).
    const ticked = (await shown(page)).artifacts;
    assert.deepEqual([...ticked].sort(), [...three].sort());
    assert.deepEqual(
      stateOfFragment(await page.evaluate(() => location.hash)),
      { artifacts: ticked, probes: [] },
      'the fragment holds the input',
    );
    const cli = cliExplain(ticked);
    assert.ok(cli.agency.probes.length > 1, 'the case offers probes');
    assert.deepEqual(comparable(await shown(page)), comparable(expected(cli)));
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'result-h', 'focus moves to the result');
    check();
  });

  test('recording a probe outcome narrows the result as hoba explain --probe does', async () => {
    const { page, check } = await openPage();
    await page.goto(`${origin}${SITE.analyze}#${fragmentOf({ artifacts: three, probes: [] })}`);
    await resultReady(page);
    const before = cliExplain(three);
    // The first offered probe's first outcome that rules something out.
    const probe = before.agency.probes[0]!;
    const outcome = probe.outcomes.find((o) => o.narrows.length > 0)!;
    assert.ok(outcome, `${probe.id} has an outcome that narrows`);
    // Everything, probes included, is in the full analysis, one click away.
    await page.click('#full > summary');
    await page.click(`#full button[data-probe="${probe.id}"][data-outcome="${outcome.id}"]`);
    await page.waitForSelector(`#result .answer-found li[data-probe="${probe.id}"]`, { timeout: 15_000 });
    const after = cliExplain([...three, '--probe', `${probe.id}=${outcome.id}`]);
    assert.ok(after.behind.excluded.length > 0, 'the outcome excludes something');
    assert.deepEqual(comparable(await shown(page)), comparable(expected(after)));
    assert.ok(after.behind.mechanisms.length < before.behind.mechanisms.length);
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('data-probe')),
      probe.id,
      'focus moves to what was recorded',
    );
    assert.match(await page.evaluate(() => location.hash), new RegExp(`p=${probe.id}:${outcome.id}`));
    // A link copied now reproduces the narrowed analysis in a new page.
    const link = await page.inputValue('#share');
    const second = await openPage();
    await second.page.goto(link);
    await resultReady(second.page);
    assert.deepEqual(comparable(await shown(second.page)), comparable(expected(after)));
    // Undo brings back the analysis without the outcome.
    await page.click(`#result button[data-undo="${probe.id}"]`);
    await page.waitForFunction(() => document.querySelector('#result .answer-found') === null);
    assert.deepEqual(comparable(await shown(page)), comparable(expected(before)));
    check();
    second.check();
  });

  test('a #scenario= link reproduces hoba explain --scenario', async () => {
    const { page, check } = await openPage();
    await page.goto(`${origin}${SITE.analyze}#scenario=S-003`);
    await resultReady(page);
    assert.deepEqual(comparable(await shown(page)), comparable(expected(cliExplain(['--scenario', 'S-003']))));
    assert.equal(await page.inputValue('#scenario'), 'S-003');
    check();
  });

  test('plain words pick the observations the CLI picks', async () => {
    const { page, check } = await openPage();
    const words = 'They asked about the gap in my CV and then said I was overqualified';
    await page.goto(`${origin}${SITE.analyze}`);
    await page.fill('#text', words);
    await page.click('#form-text button[type="submit"]');
    await resultReady(page);
    const cli = cliExplain([words]);
    assert.deepEqual(comparable(await shown(page)), comparable(expected(cli)));
    const why = await page.locator('#result-body').innerText();
    for (const m of cli.input.from_text!.matched)
      for (const q of m.quotes) assert.ok(why.includes(`“${q}”`), `the page quotes the words ${m.id} was read from`);
    check();
  });

  test('a question with buttons: the answer is kept in the address and gives what --pick gives', async () => {
    const { page, check } = await openPage();
    const words = askingWords();
    const asked = cliExplain([words]);
    const question = asked.input.from_text!.questions[0];
    assert.ok(question, 'the words raise a question (hoba explain asks it too)');
    assert.equal(asked.agency.verdict.code, 'answer-first');
    await page.goto(`${origin}${SITE.analyze}#${fragmentOf({ text: words, probes: [] })}`);
    await page.waitForSelector(`#result [data-question="${question.id}"] button[data-pick]`, { timeout: 15_000 });
    assert.equal(await page.locator(`#result [data-question="${question.id}"] h3`).innerText(), question.ask);
    const pick = question.options.at(-1)!.artifact;
    await page.click(`#result button[data-pick="${pick}"]`);
    await page.waitForSelector(`#result [data-read="${pick}"]`, { timeout: 15_000 });
    await resultReady(page);
    assert.deepEqual(
      stateOfFragment(await page.evaluate(() => location.hash)),
      { text: words, picks: [pick], probes: [] },
      'the answer is in the fragment',
    );
    assert.deepEqual(comparable(await shown(page)), comparable(expected(cliExplain([words, '--pick', pick]))));
    check();
  });

  test('one side of a distinction, read without a question: the question to check it, and a button for the other side', async () => {
    const { page, check } = await openPage();
    const words = "recruiter said she'd set up the next round by friday. its been 2 weeks of silence";
    const read = cliExplain([words]).input.from_text!.matched.find((m) => m.check !== undefined);
    assert.ok(read, 'hoba explain reads one side of a distinction, with its check');
    await page.goto(`${origin}${SITE.analyze}#${fragmentOf({ text: words, probes: [] })}`);
    await page.waitForSelector(`#result [data-read="${read.id}"] [data-check="${read.check!.id}"] button[data-pick]`, { timeout: 15_000 });
    assert.match(
      await page.locator(`#result [data-check="${read.check!.id}"]`).innerText(),
      new RegExp(`To check: ${read.check!.ask.replace(/[?]/g, '\\?')}`),
    );
    const other = read.check!.options[0]!.artifact;
    await page.click(`#result [data-check] button[data-pick="${other}"]`);
    await page.waitForSelector(`#result [data-read="${other}"]`, { timeout: 15_000 });
    await resultReady(page);
    assert.deepEqual(stateOfFragment(await page.evaluate(() => location.hash)), { text: words, picks: [other], probes: [] });
    assert.deepEqual(comparable(await shown(page)), comparable(expected(cliExplain([words, '--pick', other]))));
    check();
  });

  test('a pasted message: its tell-tale lines, and what each does and does not establish', async () => {
    const { page, check } = await openPage();
    const message =
      'Dear candidate,\nThank you for your interest. After careful consideration, we have decided to move forward with candidates whose experience more closely aligns with our needs.\nKind regards';
    await page.goto(`${origin}${SITE.analyze}`);
    await page.fill('#message', message);
    await page.click('#form-text button[type="submit"]');
    await resultReady(page);
    const text = await page.locator('#result-body').innerText();
    assert.match(text, /What the message says, line by line/);
    assert.match(text, /more closely aligns/);
    assert.deepEqual(stateOfFragment(await page.evaluate(() => location.hash)), { message, probes: [] });
    check();
  });

  test('the home page box goes straight into the analysis with the words carried over', async () => {
    const { page } = await openPage();
    const words = 'they pulled my offer two days before I started';
    await page.goto(`${origin}${SITE.home}`);
    await page.fill('#describe-home', words);
    await page.click('#form-describe button[type="submit"]');
    await page.waitForURL(`${origin}${SITE.analyze}#*`, { timeout: 15_000 });
    await resultReady(page);
    assert.equal(await page.inputValue('#text'), words);
    assert.deepEqual(stateOfFragment(await page.evaluate(() => location.hash)), { text: words, probes: [] });
    // Without the home page's script, the form still lands there: ?text= moves into the fragment.
    await page.goto(`${origin}${SITE.analyze}?text=${encodeURIComponent(words)}`);
    await resultReady(page);
    assert.equal(new URL(page.url()).search, '', 'the words leave the address query');
    assert.equal(await page.inputValue('#text'), words);
  });

  test('at 390 px the page with a result does not scroll sideways', async () => {
    const { page, check } = await openPage(390);
    await page.goto(`${origin}${SITE.analyze}#${fragmentOf({ artifacts: three, probes: [] })}`);
    await resultReady(page);
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(scroll <= client, `scroll width ${scroll} > ${client}`);
    check();
  });
});

describe('search page', () => {
  // From test/search.test.ts: a typo'd query and an everyday one, each naming one observation.
  const QUERIES: Array<[query: string, artifact: string]> = [
    ['ghosted after final intervew', 'A-009'],
    ['they put the role on ice', 'A-010'],
  ];
  for (const [query, artifact] of QUERIES) {
    test(`typing "${query}" finds ${artifact} first`, async () => {
      const { page, check } = await openPage();
      await page.goto(`${origin}${SITE.search}`);
      await page.locator('#q').pressSequentially(query, { delay: 5 });
      await page.waitForFunction(
        (q) =>
          new URLSearchParams(location.search).get('q') === q &&
          document.querySelector('#search-results li[data-kind="artifact"]') !== null,
        query,
        { timeout: 15_000 },
      );
      assert.equal(await page.getAttribute('#search-results li[data-kind="artifact"]', 'data-id'), artifact);
      check();
    });
  }

  test('a ?q= address shows its results on load, with a link to each entity page', async () => {
    const { page, check } = await openPage();
    await page.goto(`${origin}${SITE.search}?q=${encodeURIComponent('offer rescinded')}`);
    await page.waitForSelector('#search-results li[data-id]', { timeout: 15_000 });
    assert.equal(await page.inputValue('#q'), 'offer rescinded');
    const href = await page.getAttribute('#search-results li[data-id="A-024"] a', 'href');
    assert.equal(href, '/artifacts/A-024/');
    check();
  });

  test("when the reader's model does not load, an account is still searched, without the reading", async () => {
    const { page } = await openPage();
    await page.route(`${origin}${SITE.readerModel}`, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    const account = 'The background check company says I have a DUI from a state I have never lived in and now my offer is on hold';
    await page.goto(`${origin}${SITE.search}?q=${encodeURIComponent(account)}`);
    await page.waitForSelector('#search-results li[data-id]', { timeout: 15_000 });
    assert.equal(await page.locator('#search-results .answer-error').count(), 0);
    assert.equal(await page.locator('#search-analyse').count(), 0);
    assert.doesNotMatch((await page.locator('#search-results').innerText()) ?? '', /you wrote “/);
  });

  test('an account of what happened is read: what it states comes first, with the words that state it', async () => {
    const { page, check } = await openPage();
    const account = 'The background check company says I have a DUI from a state I have never lived in and now my offer is on hold';
    await page.goto(`${origin}${SITE.search}?q=${encodeURIComponent(account)}`);
    await page.waitForSelector('#search-results li[data-id]', { timeout: 15_000 });
    assert.equal(await page.getAttribute('#search-results li[data-id]', 'data-id'), 'A-046');
    const why = await page.locator('#search-results li[data-id="A-046"] .answer-meta').textContent();
    assert.match(why ?? '', /Why it is here: you wrote “[^”]*DUI[^”]*”/);
    // The analysis is one step away, with the words carried over.
    await page.click('#search-analyse');
    await page.waitForURL(/\/analyze\/#text=/, { timeout: 15_000 });
    assert.equal(new URL(page.url()).hash, `#text=${encodeURIComponent(account)}`);
    check();
  });
});

describe('analyze state in the fragment', () => {
  test('round-trips artifacts, stage, probe outcomes, a scenario and words', () => {
    const states = [
      { artifacts: ['A-009', 'A-027'], stage: 'team', probes: [{ probe: 'final-silence-ask-timeline-once', outcome: 'no-reply' }] },
      { scenario: 'S-003', probes: [] },
      { text: 'they said “not the right fit” & then 50% less pay = no #1', probes: [] },
      { text: 'background check came back wrong', message: 'Line one\nStatus: Not selected & more', picks: ['A-046'], probes: [] },
      { message: 'Only a message, no words', probes: [] },
    ];
    for (const s of states) assert.deepEqual(stateOfFragment(`#${fragmentOf(s)}`), s);
    assert.equal(fragmentOf(states[0]!), 'a=A-009,A-027&stage=team&p=final-silence-ask-timeline-once:no-reply');
    assert.equal(stateOfFragment('#'), undefined);
    assert.equal(stateOfFragment('#a=&p=x'), undefined);
  });
});
