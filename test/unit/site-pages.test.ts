// The site's own pages (home, browse hub, methodology, developers, 404) and the files for crawlers and
// assistants (robots.txt, llms.txt, sitemap.xml), read from a built site by parsing its HTML: no browser.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { KINDS } from '../../src/model/index.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { methodology } from '../../src/analysis/methodology.ts';
import { LEGAL_NOTICE } from '../../src/analysis/terms.ts';
import { buildAtlasSite } from '../../src/workflows/build.ts';
import { resolveUrl } from '../../src/publish/routes.ts';
import { ORIGIN_ENV, siteOrigin } from '../../src/publish/origin.ts';
import { BROWSE_PATH, robotsTxt } from '../../src/site/meta.ts';
import { SITE, browsePath, entityPath } from '../../src/site/paths.ts';
import { corePages } from '../../src/site/pages/core.ts';
import { ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

// ── a small HTML reader: enough for the generated pages (well-formed, attributes double-quoted) ──────
interface El {
  tag: string;
  attrs: Record<string, string>;
  children: Array<El | string>;
  parent?: El;
}
const VOID = new Set(['meta', 'link', 'input', 'br', 'img', 'hr', 'wbr', 'source', 'area', 'base', 'col', 'embed', 'track']);

function parseHtml(text: string): El {
  const root: El = { tag: '#root', attrs: {}, children: [] };
  let current = root;
  const re = /<!--[\s\S]*?-->|<!doctype[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/gi;
  for (const m of text.matchAll(re)) {
    const [, closing, tag, attrText, , textPart] = m;
    if (textPart !== undefined) {
      current.children.push(textPart);
      continue;
    }
    if (!tag) continue;
    const name = tag.toLowerCase();
    if (closing) {
      assert.equal(current.tag, name, `</${name}> closes <${current.tag}>`);
      current = current.parent!;
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (attrText ?? '').matchAll(/([^\s=>/]+)(?:="([^"]*)")?/g)) attrs[a[1]!] = decode(a[2] ?? '');
    const el: El = { tag: name, attrs, children: [], parent: current };
    current.children.push(el);
    if (!VOID.has(name)) current = el;
  }
  assert.equal(current, root, `unclosed <${current.tag}>`);
  return root;
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const all = (el: El, pred: (e: El) => boolean): El[] =>
  el.children.flatMap((c) => (typeof c === 'string' ? [] : [...(pred(c) ? [c] : []), ...all(c, pred)]));
const byTag = (el: El, tag: string) => all(el, (e) => e.tag === tag);
const textOf = (el: El): string => decode(el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join(''));
const ancestors = (el: El): El[] => (el.parent ? [el.parent, ...ancestors(el.parent)] : []);
const hasClass = (el: El, cls: string) => (el.attrs['class'] ?? '').split(/\s+/).includes(cls);

/** Headings in document order never skip a level, and there is exactly one h1. */
function assertHeadingOrder(doc: El, page: string) {
  const levels = all(doc, (e) => /^h[1-6]$/.test(e.tag)).map((h) => Number(h.tag[1]));
  assert.equal(levels.filter((l) => l === 1).length, 1, `${page}: one h1`);
  assert.equal(levels[0], 1, `${page}: the h1 comes first`);
  levels.forEach((l, i) => {
    i && assert.ok(l <= levels[i - 1]! + 1, `${page}: heading h${l} after h${levels[i - 1]} skips a level`);
  });
}

// ── the built site ─────────────────────────────────────────────────────────────────────────────────
const ORIGIN = 'https://atlas.example.org';
let reg: Registry;
let files: Map<string, Buffer>;
let plainFiles: Map<string, Buffer>;
const file = (path: string) => {
  const bytes = files.get(path);
  assert.ok(bytes, `the build has ${path}`);
  return bytes.toString('utf8');
};
const pageDoc = (url: string) => parseHtml(file(url === '/404.html' ? '404.html' : `${url.slice(1)}index.html`));

/** The site built with and without the origin (the environment is restored either way). */
function build(origin: string | undefined): Map<string, Buffer> {
  const saved = process.env[ORIGIN_ENV];
  if (origin === undefined) delete process.env[ORIGIN_ENV];
  else process.env[ORIGIN_ENV] = origin;
  try {
    const site = buildAtlasSite(reg, { contentHash: '0'.repeat(64), generator: 'hoba test' });
    return new Map(site.files.map((f) => [f.path, f.bytes]));
  } finally {
    if (saved === undefined) delete process.env[ORIGIN_ENV];
    else process.env[ORIGIN_ENV] = saved;
  }
}

describe('the site pages', () => {
  before(() => {
    reg = loadAtlas(ROOT).registry!;
    files = build(ORIGIN);
    // The shared built site is built without an origin (test/site-fixture.ts).
    plainFiles = new Map(sharedSite().site.files.map((f) => [f.path, f.bytes]));
  });

  test('every page of this part parses, has one h1 and headings in order, and every internal link resolves', () => {
    for (const url of [SITE.home, BROWSE_PATH, SITE.methodology, SITE.developers, '/404.html']) {
      const doc = pageDoc(url);
      assertHeadingOrder(doc, url);
      assert.equal(byTag(doc, 'main').length, 1, `${url}: one main landmark`);
      // Every link inside the site leads to a file of the build (and a fragment to an element there).
      for (const a of byTag(doc, 'a')) {
        const href = a.attrs['href'] ?? '';
        if (!href.startsWith('/') && !href.startsWith('#')) continue;
        const [path, hash] = href.split('#') as [string, string | undefined];
        const target = path
          ? resolveUrl(path)
          : { kind: 'file' as const, file: url === '/404.html' ? '404.html' : `${url.slice(1)}index.html` };
        assert.notEqual(target.kind, 'hidden', `${url}: ${href} is served`);
        if (target.kind === 'hidden') continue;
        const bytes = files.get(target.file);
        assert.ok(bytes, `${url}: ${href} → ${target.file} is in the build`);
        if (hash) assert.ok(bytes.toString('utf8').includes(`id="${hash}"`), `${url}: ${href} has its target`);
      }
      // Every table has a caption and scoped header cells.
      for (const table of byTag(doc, 'table')) {
        assert.equal(byTag(table, 'caption').length, 1, `${url}: a table has a caption`);
        for (const th of byTag(table, 'th')) assert.ok(['col', 'row'].includes(th.attrs['scope'] ?? ''), `${url}: a th has a scope`);
      }
    }
  });

  test('home: a box that goes straight into the analysis (without JavaScript too), search on its own page, and every scenario as a way in', () => {
    const doc = pageDoc(SITE.home);
    const form = byTag(doc, 'form').find((f) => f.attrs['id'] === 'form-describe');
    assert.ok(form, 'the describe form');
    assert.equal(form.attrs['action'], SITE.analyze);
    assert.equal(form.attrs['method'], 'get');
    const input = byTag(form, 'textarea').find((i) => i.attrs['name'] === 'text');
    assert.ok(input, 'the words field is named text (the analyze page reads ?text=)');
    const label = byTag(form, 'label').find((l) => l.attrs['for'] === input.attrs['id']);
    assert.ok(label && textOf(label).trim(), 'the field has a label');
    const hrefs = new Set(byTag(doc, 'a').map((a) => a.attrs['href']));
    assert.ok(hrefs.has(SITE.analyze), 'links to the analyze page');
    assert.ok(hrefs.has(SITE.search), 'links to the search page');
    for (const s of reg.all('scenario').filter((x) => x.status === 'active')) assert.ok(hrefs.has(entityPath(s.id)), `links to ${s.id}`);
    assert.ok(
      [...hrefs].some((h) => h?.startsWith('/artifacts/A-')),
      'links to some observations',
    );
    for (const way of [BROWSE_PATH, SITE.explore, SITE.methodology, SITE.developers, SITE.data, '/api/v1/graph', '/llms.txt'])
      assert.ok(hrefs.has(way), `links to ${way}`);
    const text = textOf(doc);
    assert.match(text, /not legal advice/i);
    assert.match(text, /No odds/);
    assert.doesNotMatch(text, /\b\d+(\.\d+)?\s?%/, 'no percentages on the home page');
  });

  test('methodology: every section with its id, a table of contents, every vocabulary as a table, the legal notice', () => {
    const m = methodology(reg);
    const doc = pageDoc(SITE.methodology);
    const h2 = new Map(byTag(doc, 'h2').map((h) => [h.attrs['id'], textOf(h)]));
    const toc = all(doc, (e) => e.tag === 'nav' && hasClass(e, 'toc'))[0];
    assert.ok(toc, 'a table of contents');
    const tocLinks = new Set(byTag(toc, 'a').map((a) => a.attrs['href']));
    for (const s of m.sections) {
      assert.equal(h2.get(s.id), s.title, `section ${s.id} is an h2 with its title`);
      assert.ok(tocLinks.has(`#${s.id}`), `the contents link to ${s.id}`);
    }
    const text = textOf(doc);
    assert.doesNotMatch(text, /\*\*|`/, 'the Markdown is rendered (no ** or ` left)');
    assert.ok(byTag(doc, 'strong').length > 10, 'bold text rendered');
    assert.ok(byTag(doc, 'li').length > 40, 'lists rendered');
    const rowIds = new Set(all(doc, (e) => e.tag === 'tr' && e.attrs['id'] !== undefined).map((e) => e.attrs['id']));
    for (const e of m.vocabularies.evidence_levels) assert.ok(rowIds.has(`evidence-${e.id}`), `evidence level ${e.id} has a row`);
    for (const s of m.vocabularies.stages) assert.ok(rowIds.has(`stage-${s.id}`), `stage ${s.id} has a row`);
    for (const f of m.vocabularies.facets.removability) assert.ok(rowIds.has(`removability-${f.id}`), `removability ${f.id} has a row`);
    assert.ok(byTag(doc, 'table').length >= 15, 'every vocabulary is a table');
    for (const table of byTag(doc, 'table'))
      assert.ok(
        ancestors(table).some((a) => hasClass(a, 'table-wrap')),
        'tables scroll in their own box',
      );
    assert.ok(text.includes(LEGAL_NOTICE), 'the legal notice');
  });

  test('developers: tables and code scroll inside their own box, and the new parts are there', () => {
    const doc = pageDoc(SITE.developers);
    const tables = byTag(doc, 'table');
    assert.ok(tables.length > 0);
    for (const table of tables) {
      const wrap = ancestors(table).find((a) => hasClass(a, 'table-wrap'));
      assert.ok(wrap, 'every table is inside a .table-wrap');
      assert.equal(wrap.attrs['tabindex'], '0', 'the scroll box can be scrolled from the keyboard');
    }
    for (const pre of byTag(doc, 'pre')) assert.equal(pre.attrs['tabindex'], '0', 'every pre can be scrolled from the keyboard');
    const hrefs = new Set(byTag(doc, 'a').map((a) => a.attrs['href']));
    for (const h of [SITE.data, '/api/v1/graph', '/llms.txt', '/robots.txt', '/openapi.json']) assert.ok(hrefs.has(h), `links to ${h}`);
    const text = textOf(doc);
    assert.match(text, /hoba stats/);
    assert.match(text, new RegExp(ORIGIN_ENV));
    // Every in-page link has its target.
    const ids = new Set(all(doc, (e) => e.attrs['id'] !== undefined).map((e) => e.attrs['id']));
    for (const h of hrefs) if (h?.startsWith('#')) assert.ok(ids.has(h.slice(1)), `${h} has a target`);
  });

  test('the browse hub links every kind with its count; the 404 page has a search box and the ways in', () => {
    const hub = pageDoc(BROWSE_PATH);
    const text = textOf(hub);
    for (const k of KINDS) {
      const link = byTag(hub, 'a').find((a) => a.attrs['href'] === browsePath(k));
      assert.ok(link, `links to ${browsePath(k)}`);
      const active = reg.all(k).filter((e) => e.kind === 'source' || e.status === 'active').length;
      assert.ok(text.includes(`(${active})`), `${k}: its count`);
    }
    const missing = pageDoc('/404.html');
    assert.ok(
      byTag(missing, 'form').some((f) => f.attrs['action'] === SITE.search && byTag(f, 'input').some((i) => i.attrs['name'] === 'q')),
    );
    const hrefs = new Set(byTag(missing, 'a').map((a) => a.attrs['href']));
    for (const h of [SITE.home, BROWSE_PATH]) assert.ok(hrefs.has(h), `404 links to ${h}`);
  });

  test('sitemap.xml lists every HTML page of the site, as absolute URLs under the origin', () => {
    const xml = file('sitemap.xml');
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => decode(m[1]!));
    assert.ok(
      locs.every((l) => l.startsWith(`${ORIGIN}/`)),
      'every URL is absolute',
    );
    const listed = new Set(locs.map((l) => l.slice(ORIGIN.length)));
    assert.equal(listed.size, locs.length, 'no URL twice');
    const deprecated = new Set(
      KINDS.flatMap((k) => reg.all(k))
        .filter((e) => e.kind !== 'source' && e.status === 'deprecated')
        .map((e) => entityPath(e.id)),
    );
    const pages = [...files.keys()].filter((p) => p.endsWith('index.html')).map((p) => `/${p.slice(0, -'index.html'.length)}`);
    const unlisted = pages.filter((u) => !listed.has(u) && !deprecated.has(u));
    assert.deepEqual(unlisted, [], 'every page of the build is in the sitemap');
    const notBuilt = [...listed].filter((u) => !files.has(`${u.slice(1)}index.html`));
    assert.deepEqual(notBuilt, [], 'every URL of the sitemap is a page of the build');
    assert.match(file('robots.txt'), new RegExp(`^Sitemap: ${ORIGIN}/sitemap.xml$`, 'm'));
  });

  test('without an origin there is no sitemap (it would need absolute URLs), and robots.txt says why', () => {
    assert.equal(plainFiles.has('sitemap.xml'), false);
    const robots = plainFiles.get('robots.txt')!.toString('utf8');
    assert.match(robots, /^User-agent: \*\nAllow: \/$/m);
    assert.doesNotMatch(robots, /^Sitemap:/m);
    assert.match(robots, new RegExp(ORIGIN_ENV));
    assert.equal(robotsTxt(undefined), robots);
  });

  test('the origin must be an http(s) origin with no path', () => {
    assert.equal(siteOrigin({}), undefined);
    assert.equal(siteOrigin({ [ORIGIN_ENV]: '  ' }), undefined);
    assert.equal(siteOrigin({ [ORIGIN_ENV]: 'https://atlas.example.org/' }), 'https://atlas.example.org');
    assert.throws(() => siteOrigin({ [ORIGIN_ENV]: 'atlas.example.org' }), /not a URL/);
    assert.throws(() => siteOrigin({ [ORIGIN_ENV]: 'https://example.org/atlas' }), /no path/);
    assert.throws(() => siteOrigin({ [ORIGIN_ENV]: 'ftp://example.org' }), /http\(s\) origin/);
  });

  test('llms.txt: an H1, a summary, the rules of reading, and links that resolve to files of the build', () => {
    for (const [built, origin] of [
      [plainFiles, ''],
      [files, ORIGIN],
    ] as const) {
      const text = built.get('llms.txt')!.toString('utf8');
      const lines = text.split('\n');
      assert.equal(lines[0], `# ${reg.manifest.name}`);
      assert.match(lines[2]!, /^> \S/);
      assert.match(text, /not a cause/);
      assert.match(text, /No probabilities/);
      assert.doesNotMatch(text.split('\n## ')[0]!, /\n## /);
      const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
      assert.ok(links.length >= 10);
      for (const link of links) {
        assert.ok(link.startsWith(`${origin}/`), `${link} is under ${origin || 'the site root'}`);
        const [path, hash] = link.slice(origin.length).split('#') as [string, string | undefined];
        // resolveUrl is how hoba serve and the host files map a URL to a file ('directory' is a path with no
        // trailing slash: a file of that name, else a redirect to the directory).
        const where = resolveUrl(path);
        assert.notEqual(where.kind, 'hidden', `${link} is served`);
        if (where.kind === 'hidden') continue;
        const bytes = built.get(where.file);
        assert.ok(bytes, `${link} → ${where.file} is in the build`);
        if (hash) assert.ok(bytes.toString('utf8').includes(`id="${hash}"`), `${link}: #${hash} exists`);
      }
    }
  });

  test('the part is deterministic: the same content gives the same bytes', () => {
    const once = [...corePages(reg, ORIGIN)];
    const again = [...corePages(reg, ORIGIN)];
    assert.deepEqual(
      once.map((p) => p.url),
      again.map((p) => p.url),
    );
    once.forEach((p, i) => {
      assert.ok(p.bytes.equals(again[i]!.bytes), p.url);
    });
  });
});
