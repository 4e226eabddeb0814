// The site's entity and browse pages, read as files (no browser): every entity of every kind has a page,
// every internal link of every page resolves to a built file (and an anchor on an entity page to an
// element), an observation's page lists explain's first tier, patterns and loops are drawn with an
// accessible SVG, a deprecated ID leads to its successor, and the pages stay within their weight budget.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { explain } from '../../src/analysis/explain.ts';
import { KINDS } from '../../src/model/vocab.ts';
import { fileOfPage, resolveUrl } from '../../src/publish/routes.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';
import { matches, queryOf, stateFromQuery } from '../../src/site/browser/lib/filters.ts';
import { browsePages } from '../../src/site/pages/browse.ts';
import { entityPages } from '../../src/site/pages/entity.ts';
import { browsePath, entityPath } from '../../src/site/paths.ts';
import { AtlasCopy, ROOT } from '../helpers.ts';
import { sharedSite } from '../site-fixture.ts';

interface Built {
  files: Map<string, Buffer>;
  registry: Registry;
}

const pageOf = (site: Pick<Built, 'files'>, url: string) => {
  const bytes = site.files.get(fileOfPage(url));
  assert.ok(bytes, `${url} is built (${fileOfPage(url)})`);
  return bytes.toString('utf8');
};

/** The values of an attribute across a page (entities decoded as the page's escaping writes them). */
const attributes = (page: string, name: string) =>
  [...page.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) =>
    m[1]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );

describe('entity and browse pages', () => {
  let site: Built;
  before(() => {
    const shared = sharedSite();
    site = { files: new Map(shared.site.files.map((f) => [f.path, f.bytes])), registry: loadAtlas(ROOT).registry };
  });

  test('every entity of every kind has a page, and every kind a browse page listing each of them', () => {
    for (const e of site.registry.entities) {
      const page = pageOf(site, entityPath(e.id));
      assert.match(page, new RegExp(`<h1>`), `${e.id} has a heading`);
      assert.ok(page.includes(`href="/api/v1/`), `${e.id} links to its JSON`);
    }
    for (const kind of KINDS) {
      const page = pageOf(site, browsePath(kind));
      const linked = new Set(attributes(page, 'href'));
      for (const e of site.registry.all(kind)) assert.ok(linked.has(entityPath(e.id)), `${browsePath(kind)} lists ${e.id}`);
      assert.match(page, /<form class="filter-form"[^>]* hidden>/, `${kind}: the filter form waits for its script`);
      assert.match(page, /role="status" aria-live="polite"/);
    }
  });

  test('every internal link and asset of every page resolves to a built file, and an anchor on an entity page to an element', () => {
    const broken: string[] = [];
    const pages = [...site.files.keys()].filter((f) => f.endsWith('.html'));
    assert.ok(pages.length > site.registry.entities.length, 'every page is checked');
    const idsOf = new Map<string, Set<string>>();
    const ids = (file: string) => {
      let found = idsOf.get(file);
      if (!found) {
        found = new Set(attributes(site.files.get(file)!.toString('utf8'), 'id'));
        idsOf.set(file, found);
      }
      return found;
    };
    for (const file of pages) {
      const page = site.files.get(file)!.toString('utf8');
      for (const ref of [...attributes(page, 'href'), ...attributes(page, 'src')]) {
        if (/^[a-z]+:/i.test(ref) || ref.startsWith('//')) continue;
        const [path, fragment] = ref.split('#') as [string, string | undefined];
        const pathOnly = path.split('?')[0]!;
        const self = `/${file.replace(/index\.html$/, '')}`;
        const target = pathOnly === '' ? self : pathOnly;
        assert.ok(target.startsWith('/'), `${file}: ${ref} is root-relative`);
        const resolution = resolveUrl(target);
        const targetFile = resolution.kind === 'hidden' ? undefined : resolution.file;
        if (!targetFile || !site.files.has(targetFile)) {
          broken.push(`${file} → ${ref}`);
          continue;
        }
        // Anchors into entity pages (probes, sections, citations) must exist; other fragments are app state (#a=…).
        if (fragment && /^\/[a-z]+\/[ABMPLISE]-\d{3,}\/$/.test(target) && !ids(targetFile).has(fragment))
          broken.push(`${file} → ${ref} (no element #${fragment})`);
      }
    }
    assert.deepEqual(broken, [], `links that lead nowhere:\n${broken.slice(0, 40).join('\n')}`);
  });

  test('an observation’s page lists exactly explain’s first tier, in its order, and collapses the second', () => {
    for (const a of site.registry.all('artifact')) {
      if (a.status === 'deprecated') continue;
      const page = pageOf(site, entityPath(a.id));
      const result = explain(site.registry, { artifacts: [a.id] });
      const first = result.behind.mechanisms.filter((m) => m.tier === 'produces').map((m) => m.id);
      const list = /<ol class="tier first-tier">([\s\S]*?)<\/ol>/.exec(page);
      assert.ok(list || first.length === 0, `${a.id} shows its first tier`);
      assert.deepEqual(list ? attributes(list[1]!, 'data-id') : [], first, `${a.id}: the first tier is explain's`);
      const second = result.behind.mechanisms.filter((m) => m.tier === 'same-stage');
      if (second.length > 0)
        assert.match(
          page,
          new RegExp(`<details class="second-tier[^"]*"><summary>Second tier: ${second.length} `),
          `${a.id}: the second tier is collapsed`,
        );
      for (const text of a.non_inferences)
        assert.ok(
          page.includes(text.slice(0, 40).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')),
          `${a.id} says what it does not establish`,
        );
      for (const p of a.probes) assert.ok(page.includes(`id="probe-${p.id}"`), `${a.id} shows probe ${p.id}`);
      for (const s of a.specimens) {
        assert.ok(page.includes(`id="specimen-${s.id}"`), `${a.id} shows specimen ${s.id}`);
        assert.match(page, /Illustrative, anonymised: not a real employer’s text/);
      }
      if (a.specimens.length > 0)
        assert.match(
          page,
          /<mark class="tell">[^<]+<\/mark><span class="tell-label"[^>]*>\[tell 1\]<\/span>/,
          `${a.id}: a tell is marked and labelled, not coloured only`,
        );
      if (a.law.length > 0) assert.match(page, /<p class="notice">Not legal advice\./, `${a.id}: law notes come with the legal notice`);
    }
  });

  test('a mechanism’s page lists every observation that rules it out, and says so when none does', () => {
    const rulers = new Map<string, string[]>();
    for (const a of site.registry.all('artifact'))
      for (const r of a.rules_out) rulers.set(r.mechanism, [...(rulers.get(r.mechanism) ?? []), a.id]);
    assert.ok(rulers.size > 0, 'the atlas has rules_out to check');
    for (const m of site.registry.all('mechanism')) {
      if (m.status === 'deprecated') continue;
      const section = /<section aria-labelledby="ruled-out-by">[\s\S]*?<\/section>/.exec(pageOf(site, entityPath(m.id)))?.[0] ?? '';
      const observed = [...section.matchAll(/<li>Observing <a href="([^"]+)"/g)].map((x) => x[1]);
      assert.deepEqual(observed, (rulers.get(m.id) ?? []).map(entityPath), `${m.id}: the observations that rule it out`);
    }
  });

  test('pattern and loop pages draw their motif or cycle as an SVG with a title and a description, and say it in words', () => {
    for (const e of [...site.registry.all('pattern'), ...site.registry.all('loop')]) {
      const page = pageOf(site, entityPath(e.id));
      const svgs = [
        ...page.matchAll(/<svg [^>]*role="group"[^>]*>\n<title id="([^"]+)">([^<]+)<\/title>\n<desc id="[^"]+">([^<]+)<\/desc>/g),
      ];
      assert.ok(svgs.length >= 1, `${e.id} has a drawn diagram with <title> and <desc>`);
      const members = e.kind === 'pattern' ? [...e.required_artifacts, ...e.compatible_mechanisms] : e.mechanisms;
      for (const id of members) assert.ok(page.includes(`<a href="${entityPath(id)}" class="node`), `${e.id}: the drawing links ${id}`);
      assert.match(page, /<h3 id="(motif|cycle)-text">The same, in words<\/h3>/, `${e.id} has a text equivalent`);
    }
    // A loop's relations differ by line style and word, not colour alone.
    const loop = pageOf(site, entityPath(site.registry.all('loop').find((l) => l.edges.some((e) => e.relation === 'masks'))!.id));
    assert.match(loop, /class="edge masks"/);
    assert.match(loop, /<text [^>]*>masks<\/text>/);
  });

  test('one h1 per page, headings never skip a level, and every entity page stays under 60 KB transferred', () => {
    const ours = [...site.registry.entities.map((e) => entityPath(e.id)), ...KINDS.map(browsePath)];
    for (const url of ours) {
      const page = pageOf(site, url);
      const levels = [...page.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
      assert.equal(levels.filter((l) => l === 1).length, 1, `${url} has one h1`);
      levels.forEach((l, i) => {
        assert.ok(i === 0 || l <= levels[i - 1]! + 1, `${url}: h${levels[i - 1]} is followed by h${l}`);
      });
      if (!url.endsWith('/') || url.split('/').length !== 4) continue;
      const gz = gzipSync(Buffer.from(page)).length;
      assert.ok(gz < 60 * 1024, `${url} is ${gz} bytes gzipped`);
    }
  });

  test('the pages are byte-identical when built again', () => {
    const again = [...entityPages(site.registry)];
    for (const p of again) {
      const file = p.url.endsWith('/') ? fileOfPage(p.url) : p.url.slice(1);
      assert.ok(site.files.get(file)?.equals(p.bytes), `${p.url} is deterministic`);
    }
  });
});

describe('a deprecated ID', () => {
  let copy: AtlasCopy;
  let site: Pick<Built, 'files'>;
  before(() => {
    copy = new AtlasCopy();
    copy.set('A-004', ['status'], 'deprecated').set('A-004', ['superseded_by'], 'A-001');
    // The entity and browse pages of the changed atlas (what these tests read), not its whole site.
    const { registry } = loadAtlas(copy.dir);
    site = {
      files: new Map(
        [...entityPages(registry), ...browsePages(registry)].map((p) => [
          p.url.endsWith('/') ? fileOfPage(p.url) : p.url.slice(1),
          Buffer.from(p.bytes),
        ]),
      ),
    };
  });
  after(() => copy.dispose());

  test('its page says it is deprecated, links to its successor and sends the reader there', () => {
    const page = pageOf(site, entityPath('A-004'));
    assert.match(page, /Deprecated: superseded by <a href="\/artifacts\/A-001\/">/);
    assert.match(page, /<meta http-equiv="refresh" content="0; url=\/artifacts\/A-001\/">/);
    assert.match(page, /<link rel="canonical" href="\/artifacts\/A-001\/">/);
    const successor = pageOf(site, entityPath('A-001'));
    assert.match(successor, /Replaces <a href="\/artifacts\/A-004\/">/);
    // The browse page still lists it, marked, after the active ones.
    const browse = pageOf(site, browsePath('artifact'));
    assert.match(browse, /<a href="\/artifacts\/A-004\/"><span class="id">A-004<\/span>[^<]*<\/a> <span class="tag">deprecated<\/span>/);
  });
});

describe('the browse filters', () => {
  const state = (filters: Record<string, string>, words = '') => ({ filters, words });

  test('an item matches when every filter set is among its values and every word is in its text', () => {
    const values = { stage: 'screening recruiter', evidence: 'supported' };
    assert.ok(matches(values, 'Résumé keyword filter', state({ stage: '', evidence: '' })));
    assert.ok(matches(values, 'x', state({ stage: 'recruiter' })));
    assert.ok(!matches(values, 'x', state({ stage: 'offer' })));
    assert.ok(!matches(values, 'x', state({ stage: 'recruiter', evidence: 'hypothesis' })));
    assert.ok(!matches({}, 'x', state({ topic: 'religion' })), 'an item without a value for a filter that is set does not match');
    assert.ok(matches(values, 'Résumé keyword filter', state({}, 'resume  KEYWORD')), 'words are folded: case and accents');
    assert.ok(!matches(values, 'Résumé keyword filter', state({}, 'resume salary')));
  });

  test('the query string round-trips the form, in the form’s order', () => {
    const names = ['stage', 'actor'];
    const query = queryOf(state({ actor: 'system', stage: 'screening' }, ' ghost job '), names);
    assert.equal(query, '?stage=screening&actor=system&q=ghost+job');
    assert.deepEqual(stateFromQuery(query, names), state({ stage: 'screening', actor: 'system' }, 'ghost job'));
    assert.equal(queryOf(state({ stage: '', actor: '' }), names), '');
  });
});

describe('a barrier page at scale', () => {
  test('lists the first 100 observations of its stage by ID and links the rest to the filtered browse page', async () => {
    const { Registry } = await import('../../src/registry/registry.ts');
    const { entityPage } = await import('../../src/site/pages/entity.ts');
    const { LISTED_MAX } = await import('../../src/analysis/terms.ts');
    const real = loadAtlas(ROOT).registry;
    const barrier = real.getOf('barrier', 'B-008')!;
    const model = real.all('artifact').find((a) => a.status === 'active')!;
    const extra = Array.from({ length: 130 }, (_, i) => ({
      ...model,
      id: `A-${9000 + i}`,
      title: `Clone observation ${i}`,
      stages: [barrier.stage],
      sources: [],
    }));
    const reg = new Registry({ manifest: real.manifest, entities: [...real.entities, ...extra] });
    const atStage = reg
      .all('artifact')
      .filter((a) => a.status === 'active' && a.stages.includes(barrier.stage))
      .map((a) => a.id);
    const page = entityPage(reg, reg.getOf('barrier', 'B-008')!);
    const section = page.slice(page.indexOf('<h2 id="observations">'));
    const listed = [...section.slice(0, section.indexOf('</ul>')).matchAll(/href="\/artifacts\/(A-\d+)\//g)].map((m) => m[1]);
    assert.deepEqual(listed, atStage.slice(0, LISTED_MAX));
    assert.match(
      section,
      new RegExp(
        `And ${atStage.length - LISTED_MAX} more: <a href="/artifacts/\\?stage=${barrier.stage}">every observation at this stage</a>`,
      ),
    );
    // The real atlas is far from the bound: every observation of the stage is listed, and no link to the rest.
    assert.doesNotMatch(entityPage(real, barrier), /every observation at this stage/);
  });
});
