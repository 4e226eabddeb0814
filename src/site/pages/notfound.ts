// The 404 page: served for any unknown path outside the API. It helps the person on: a search box, the
// ways in, and a word on atlas IDs (an old link to an entity still resolves through its ID).
import type { Registry } from '../../registry/registry.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';
import { BROWSE_PATH } from '../meta.ts';
import { SITE, browsePath } from '../paths.ts';
import { searchForm } from './home.ts';

export function notFoundPage(reg: Registry): string {
  return page(reg, {
    title: 'Page not found',
    path: '/404.html',
    main: html`<h1>This page does not exist</h1>
<p>The address may be mistyped, or the page may have moved. Every entity of the atlas keeps its ID for good, so searching for its ID (like A-009) or for the words you remember should find it.</p>
${searchForm('q-404', 'Search the atlas')}
<h2>Ways in</h2>
<ul>
<li><a href="${SITE.home}">Home</a>: what the atlas is, and the situations other candidates described.</li>
<li><a href="${SITE.analyze}">Analyze what happened</a>, step by step.</li>
<li><a href="${browsePath('scenario')}">Worked situations</a> and <a href="${browsePath('artifact')}">observations</a>.</li>
<li><a href="${BROWSE_PATH}">Browse everything</a>, by kind.</li>
<li><a href="${SITE.developers}">Developers</a>: the API answers unknown IDs with a JSON problem document, not this page.</li>
</ul>`,
  });
}
