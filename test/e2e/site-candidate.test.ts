// The candidate view and the record in a reader's browser (Chromium at /usr/bin/chromium, never
// downloaded; the site built from this checkout, its bundles from dist/site/: run `npm run build` first).
// - every worked scenario's default answer fits in three phone screens (390 × 844) before the details, on
//   the analyze page and on the scenario's own page, with no sideways scroll;
// - axe finds no serious or critical violation in the light and the dark scheme, and the explanations open
//   from the keyboard;
// - the record: saved in localStorage, events added, downloaded as Markdown, JSON and .ics, opened again,
//   printed on one to three pages (A4 and Letter), and no request ever carries it.
// ci: once (Chromium runs the pages and their scripts; the server under them is checked on every runtime by serve.test.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Page } from 'playwright-core';
import { loadAtlas } from '../../src/registry/load.ts';
import { createSiteServer } from '../../src/serve/server.ts';
import { entityPath, SITE } from '../../src/site/paths.ts';
import { sharedSite } from '../site-fixture.ts';
import { ROOT } from '../helpers.ts';

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
const PHONE = { width: 390, height: 844 };
const SCREENS = 3;

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The candidate view's height in phone screens (from its top to its end, the full details closed), and the page's width. */
async function measure(page: Page): Promise<{ screens: number; width: number }> {
  return page.evaluate((h) => {
    const cv = document.querySelector('.cv')!.getBoundingClientRect();
    return { screens: cv.height / h, width: document.documentElement.scrollWidth };
  }, PHONE.height);
}

async function axeOf(page: Page, scheme: 'light' | 'dark'): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme });
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (scheme === 'dark') axe.withRules(['color-contrast', 'link-in-text-block']);
  else axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  const result = await axe.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${scheme} ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    );
}

const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

test('the candidate view and the record in a browser', { timeout: 900_000 }, async (t) => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is not installed at ${CHROMIUM}, and this test needs it (Debian: apt-get install -y chromium).`);
  const reg = loadAtlas(ROOT).registry;
  const scenarios = reg
    .all('scenario')
    .filter((s) => s.status === 'active')
    .map((s) => s.id);
  const site = sharedSite();
  const server = createSiteServer({ root: site.root });
  const origin = await listen(server);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    await t.test(`every scenario's default answer fits in ${SCREENS} phone screens, on the analyze page and its own page`, async () => {
      const figures: string[] = [];
      for (const id of scenarios) {
        for (const [where, url] of [
          ['analyze', `${origin}${SITE.analyze}#scenario=${id}&on=2026-11-20&where=uk`],
          ['page', `${origin}${entityPath(id)}`],
        ] as const) {
          await page.goto(url);
          await page.waitForSelector('.cv');
          const m = await measure(page);
          figures.push(`${id} ${where} ${m.screens.toFixed(2)}`);
          assert.ok(m.screens <= SCREENS, `${id} (${where}): ${m.screens.toFixed(2)} screens`);
          assert.ok(m.width <= PHONE.width, `${id} (${where}): the page is ${m.width} px wide`);
        }
      }
      t.diagnostic(`screens: ${figures.join('; ')}`);
      assert.deepEqual(errors, []);
    });

    await t.test('axe, light and dark, with an explanation open; the explanations open from the keyboard', async () => {
      await page.goto(`${origin}${SITE.analyze}#scenario=S-024&on=2026-11-20&where=uk`);
      await page.waitForSelector('.cv');
      const summary = page.locator('.cv-items summary').first();
      await summary.focus();
      await page.keyboard.press('Enter');
      assert.equal(
        await page
          .locator('.cv-items details')
          .first()
          .evaluate((d) => (d as HTMLDetailsElement).open),
        true,
        'Enter opens an explanation',
      );
      const violations = [...(await axeOf(page, 'light')), ...(await axeOf(page, 'dark'))];
      await page.goto(`${origin}${entityPath('S-010')}`);
      violations.push(...(await axeOf(page, 'light')), ...(await axeOf(page, 'dark')));
      assert.deepEqual(violations, []);
    });

    await t.test('the record stays in the browser: saved, exported, printed, opened again; no request carries it', async () => {
      const marker = 'ZEBRA-7731-phone-call-from-the-recruiter';
      const requests: string[] = [];
      page.on('request', (r) =>
        requests.push(`${r.method()} ${r.url().split('#')[0]} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`),
      );
      await page.goto(`${origin}${SITE.analyze}#a=A-024&on=2026-11-20&where=uk-eng`);
      await page.waitForSelector('.cv');
      await page.click('#record-save');
      await page.selectOption('#event-type', 'offer-withdrawn');
      await page.fill('#event-date', '2026-11-20');
      await page.fill('#event-note', marker);
      await page.click('#record-add button[type=submit]');
      const stored = await page.evaluate(() => localStorage.getItem('hoba.record.v1'));
      assert.ok(stored?.includes(marker), 'kept in localStorage');
      assert.match((await page.textContent('#record-status')) ?? '', /this browser only/);

      const save = async (button: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
        return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
      };
      const md = await save('#record-md');
      assert.equal(md.name, 'hiring-record.md');
      assert.match(md.text, /^# My record of a hiring process/);
      assert.ok(md.text.includes(marker) && md.text.includes('20 November 2026: Offer withdrawn'));
      const json = await save('#record-json');
      assert.equal(JSON.parse(json.text).format, 'hoba-record');
      const ics = await save('#record-ics');
      assert.match(ics.text, /^BEGIN:VCALENDAR\r\n/);
      assert.match(ics.text, /DTSTART;VALUE=DATE:2027\d{4}\r\n/);

      // Printed on a page of its own.
      await page.evaluate(() => document.body.classList.add('print-record'));
      for (const format of ['A4', 'Letter'] as const) {
        const pages = pdfPages(await page.pdf({ format }));
        t.diagnostic(`the record printed on ${format}: ${pages} page(s)`);
        assert.ok(pages >= 1 && pages <= 3, `${format}: ${pages} pages`);
      }
      await page.evaluate(() => document.body.classList.remove('print-record'));

      // Deleted, then opened again from the JSON downloaded.
      page.once('dialog', (d) => void d.accept());
      await page.click('#record-clear');
      assert.equal(await page.evaluate(() => localStorage.getItem('hoba.record.v1')), null);
      await page.setInputFiles('#record-import', {
        name: 'hiring-record.json',
        mimeType: 'application/json',
        buffer: Buffer.from(json.text),
      });
      await page.waitForFunction(() => (localStorage.getItem('hoba.record.v1') ?? '').includes('ZEBRA'));
      assert.match((await page.textContent('#record-events')) ?? '', /Offer withdrawn/);

      assert.deepEqual(
        requests.filter((r) => r.includes(marker) || r.includes('ZEBRA') || r.includes('2026-11-20')),
        [],
        'no request carries the record, the date or the place',
      );
      assert.deepEqual(errors, []);
    });
  } finally {
    await browser.close();
    server.close();
  }
});
