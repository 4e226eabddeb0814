// One page per entity of every kind, at entityPath(id): the shared head (where it sits, what kind it is,
// its title and summary), the sections its kind needs (entity-*.ts), and its data. A deprecated entity's
// page says so, names its successor, and sends the reader there.
import type { Entity } from '../../model/schemas.ts';
import { sourceFinding } from '../../model/source.ts';
import type { Registry } from '../../registry/registry.ts';
import { getNode } from '../../analysis/node.ts';
import type { NodeView } from '../../analysis/schemas.ts';
import { html, Raw } from '../html.ts';
import { page } from '../layout.ts';
import { browsePath, entityPath } from '../paths.ts';
import type { SitePage } from '../page.ts';
import { artifactMain } from './entity-artifact.ts';
import { barrierMain, interventionMain, loopMain, patternMain, scenarioMain, sourceMain } from './entity-kinds.ts';
import { mechanismMain } from './entity-mechanism.ts';
import { breadcrumbs, dataFooter, KIND_NAMES, linked, meaningsOf, refLink, titleOf, type Meanings } from './entity-parts.ts';
import { ENTITY_CSS_PATH, entityStylesheet } from './entity-style.ts';

/** The stylesheet link the entity and browse pages add to the head. */
export const ENTITY_HEAD = new Raw(`<link rel="stylesheet" href="${ENTITY_CSS_PATH}">\n`);

function mainOf(reg: Registry, e: Entity, node: NodeView, meanings: Meanings): Raw {
  switch (e.kind) {
    case 'artifact':
      return artifactMain(reg, e, meanings);
    case 'mechanism':
      return mechanismMain(reg, e, node, meanings);
    case 'pattern':
      return patternMain(reg, e, node, meanings);
    case 'loop':
      return loopMain(reg, e, node, meanings);
    case 'intervention':
      return interventionMain(reg, e, node, meanings);
    case 'barrier':
      return barrierMain(reg, e, node, meanings);
    case 'scenario':
      return scenarioMain(reg, e, node, meanings);
    case 'source':
      return sourceMain(reg, e, node);
  }
}

/**
 * An "on this page" list of the main's sections (its h2 headings with ids), placed before the first
 * section, when there are enough of them to need one. What the entity does not establish stays above it.
 */
function withContents(main: Raw): Raw {
  const headings = [...main.html.matchAll(/<section aria-labelledby="([^"]+)">\n<h2 id="\1">(.*?)<\/h2>/g)].map((m) => ({
    id: m[1]!,
    title: m[2]!,
  }));
  const at = main.html.indexOf('<section aria-labelledby=');
  if (headings.length < 5 || at < 0) return main;
  const toc = html`<nav class="toc" aria-labelledby="contents"><h2 id="contents">On this page</h2><ol class="cols">
${headings.map((h) => html`<li><a href="#${h.id}">${new Raw(h.title)}</a></li>\n`)}</ol></nav>
`;
  return new Raw(main.html.slice(0, at) + toc.html + main.html.slice(at));
}

/** The page of one entity (any kind). */
export function entityPage(reg: Registry, e: Entity, meanings: Meanings = meaningsOf(reg)): string {
  const node = getNode(reg, e.id);
  const title = titleOf(e);
  const summary = e.kind === 'source' ? sourceFinding(e) : e.summary;
  const head = html`${breadcrumbs(e.kind, e.id, browsePath(e.kind))}
<p class="kicker">${KIND_NAMES[e.kind].one} <span class="id">${e.id}</span></p>
<h1>${title}</h1>
`;
  if (node.successor) {
    const to = entityPath(node.successor.id);
    return page(reg, {
      title: `${e.id} (deprecated)`,
      path: entityPath(e.id),
      description: `${e.id} is deprecated; it is superseded by ${node.successor.id} ${node.successor.title}.`,
      head: html`<meta http-equiv="refresh" content="0; url=${to}">\n<link rel="canonical" href="${to}">\n${ENTITY_HEAD}`,
      main: html`${head}<div class="note deprecated" role="status">
<p><strong>Deprecated: superseded by ${refLink(node.successor)}.</strong> ${e.id} still resolves, and this page sends you to its successor. If nothing happens, follow the link.</p>
</div>
<p class="lede">${summary}</p>
${dataFooter(reg, e)}`,
    });
  }
  const predecessors =
    node.predecessors.length > 0
      ? html`<p class="muted">Replaces ${node.predecessors.map((p, i) => html`${i ? ', ' : ''}${refLink(p)}`)}, which ${node.predecessors.length === 1 ? 'is' : 'are'} deprecated.</p>\n`
      : '';
  const deprecatedNoSuccessor =
    e.kind !== 'source' && e.status === 'deprecated'
      ? html`<p class="note deprecated"><strong>Deprecated.</strong> The atlas no longer uses this ${KIND_NAMES[e.kind].one.toLowerCase()}; it has no successor.</p>\n`
      : '';
  return page(reg, {
    title: `${e.id} ${title}`,
    path: entityPath(e.id),
    description: summary.replace(/\s+/g, ' ').slice(0, 300),
    head: ENTITY_HEAD,
    main: html`${head}${deprecatedNoSuccessor}${node.caveat ? html`<p class="note caveat"><strong>Caveat:</strong> ${node.caveat}</p>\n` : ''}<p class="lede">${linked(reg, summary)}</p>
${predecessors}${withContents(mainOf(reg, e, node, meanings))}
${dataFooter(reg, e)}`,
  });
}

/** Every entity's page, in ID order, and the stylesheet they share. */
export function* entityPages(reg: Registry): Generator<SitePage> {
  yield entityStylesheet();
  const meanings = meaningsOf(reg);
  for (const e of reg.entities) yield { url: entityPath(e.id), bytes: Buffer.from(entityPage(reg, e, meanings), 'utf8') };
}
