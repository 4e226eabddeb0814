// The browse hub (/browse/): every kind of entity, what it is in one sentence, how many the atlas holds,
// and a link to that kind's browse page. The sentences are the methodology's (one meaning, one place).
import { KINDS, KIND_INFO } from '../../model/index.ts';
import type { Registry } from '../../registry/registry.ts';
import { methodology } from '../../analysis/methodology.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';
import { BROWSE_PATH } from '../meta.ts';
import { SITE, browsePath } from '../paths.ts';

/** The first sentence of a meaning (meanings are written so that it stands alone). */
export function firstSentence(text: string): string {
  return /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
}

const TITLES: Record<(typeof KINDS)[number], string> = {
  artifact: 'Observations',
  barrier: 'Barriers',
  mechanism: 'Mechanisms',
  pattern: 'Patterns',
  loop: 'Loops',
  intervention: 'Interventions',
  scenario: 'Worked scenarios',
  source: 'Sources',
};

export function browseHubPage(reg: Registry): string {
  const meanings = new Map(methodology(reg).vocabularies.kinds.map((k) => [k.id, k.meaning]));
  const items = KINDS.map((k) => {
    const all = reg.all(k);
    const active = all.filter((e) => e.kind === 'source' || e.status === 'active').length;
    const deprecated = all.length - active;
    return html`<li class="card">
<h2><a href="${browsePath(k)}">${TITLES[k]}</a> <span class="count">(${active})</span></h2>
<p>${firstSentence(meanings.get(k) ?? '')}</p>
<p class="muted small">IDs ${KIND_INFO[k].prefix}-001 onwards${deprecated ? html`; ${deprecated} deprecated, each leading to its successor` : ''}.</p>
</li>
`;
  });
  return page(reg, {
    title: 'Browse the atlas',
    path: BROWSE_PATH,
    description:
      'Every kind of entity in the atlas: observations, barriers, mechanisms, patterns, loops, interventions, worked scenarios and sources.',
    main: html`<h1>Browse the atlas</h1>
<p class="lede">Eight kinds of entity, one page each. If you are in the middle of a hiring process, start from the <a href="${browsePath('scenario')}">worked scenarios</a> or the <a href="${browsePath('artifact')}">observations</a>; the <a href="${SITE.methodology}">methodology</a> says how they fit together.</p>
<ul class="cards">
${items}</ul>
<p>The same data as JSON: the <a href="${SITE.developers}#rest">REST API</a>, or the whole atlas in <a href="${SITE.data}">one file</a>. As a picture: the <a href="${SITE.explore}">graph explorer</a>.</p>`,
  });
}
