// The styles of the entity and browse pages, on top of the site stylesheet (style.ts) and its colour
// variables, so light and dark schemes and the contrast they guarantee carry over. Served once as
// /assets/entity.css and cached across pages. Nothing here conveys meaning by colour alone: tells carry
// a visible label, relations a word and a line style, deadlines and caveats a bold label.
import type { SitePage } from '../page.ts';

export const ENTITY_CSS_PATH = '/assets/entity.css';

const ENTITY_CSS = `
[hidden] { display: none !important; }
.crumbs ol { list-style: none; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem; padding: 0; margin: 0.5rem 0 0; font-size: 0.9em; }
.crumbs li + li { margin-top: 0; }
.crumbs li + li::before { content: "\\203A"; margin-right: 0.35rem; color: var(--muted); }
.kicker { margin: 0.75rem 0 0; color: var(--muted); font-size: 0.9em; letter-spacing: 0.03em; text-transform: uppercase; }
.refs .id, .entity-list .id, .kicker .id, .mech-head .id { font-weight: 700; }
.tags .tag, .tags .badge { margin: 0 0.25rem 0.3rem 0; }
.note h2 { font-size: 1.1rem; margin: 0.4rem 0; }
.refs > li { margin: 0.3rem 0; }
.tier > li { margin: 0 0 0.9rem; }
.tier p, .probes p, .steps p, .outcomes p, .entity-list p { margin: 0.15rem 0; }
.mech-head { font-weight: 600; }
details.second-tier { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; margin: 0.75rem 0; }
.probes > li, .steps > li { margin: 0 0 1.1rem; }
.probe-id { white-space: nowrap; }
.outcomes { margin: 0.4rem 0; }
.outcomes > li { margin: 0.45rem 0; }
.deadline, .caveat { border-left: 4px solid var(--warn); padding-left: 0.5rem; }
span.caveat { display: block; margin: 0.2rem 0; }
.citations > li { margin: 0.4rem 0; }
.law { border-top: 1px solid var(--line); padding: 0.25rem 0; }
.law p { margin: 0.35rem 0; }
.perspective dt { font-weight: 600; }
.perspective dd { margin: 0 0 0.5rem; }
.specimen-figure { margin: 1rem 0 1.5rem; }
.specimen-figure figcaption { margin-bottom: 0.35rem; }
.specimen-figure .specimen { margin: 0.35rem 0 0.5rem; }
.tell-label { font: 700 0.75em system-ui, sans-serif; vertical-align: super; margin-left: 0.1rem; white-space: nowrap; }
.tells { margin: 0.5rem 0 0; }
blockquote.situation { margin: 0.5rem 0; padding: 0.5rem 1rem; border-left: 4px solid var(--accent); background: var(--panel); font-size: 1.05em; }
figure.diagram { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; }
figure.diagram svg { width: auto; height: auto; max-width: 100%; }
figure.diagram .diagram-tall { display: none; }
@media (max-width: 56rem) { figure.diagram .diagram-wide { display: none; } figure.diagram .diagram-tall { display: block; } }
.diagram-svg text { fill: var(--fg); font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
.diagram-svg .nid { font-weight: 700; }
.diagram-svg .colhead { fill: var(--muted); font-weight: 600; }
.diagram-svg .node rect { fill: var(--bg); stroke: var(--strong-line, var(--muted)); stroke-width: 1.5; }
.diagram-svg .node.artifact rect { fill: var(--panel); stroke-dasharray: 5 3; }
.diagram-svg .node.pattern rect { fill: var(--panel); stroke: var(--accent); stroke-width: 2.5; }
.diagram-svg a.node:hover rect, .diagram-svg a.node:focus rect { stroke: var(--focus); stroke-width: 3.5; }
.diagram-svg a.node:focus { outline: none; }
.diagram-svg .edge { fill: none; stroke: var(--strong-line, var(--muted)); stroke-width: 1.6; }
.diagram-svg .edge.masks { stroke-dasharray: 7 5; }
.diagram-svg .arrowhead { fill: var(--strong-line, var(--muted)); }
.diagram-svg .edge-label rect { fill: var(--bg); stroke: var(--line); }
.diagram-svg .edge-label text { font-size: 12px; font-weight: 600; }
.filter-form { margin: 1rem 0; }
.filter-details { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.75rem; margin: 0; }
.filter-details[open] > summary { margin-bottom: 0.5rem; }
.filter-details .filters { border: 0; padding: 0; }
.filter-form .filters { margin: 0; align-items: flex-end; }
.filter-form .field { display: flex; flex-direction: column; gap: 0.15rem; min-width: 9rem; flex: 1 1 9rem; font-size: 0.95em; }
.filter-form .field.words { flex: 2 1 14rem; }
.filter-form .field.reset { flex: 0 0 auto; min-width: 0; }
.filter-form select, .filter-form input { width: 100%; }
.filter-status { font-weight: 600; margin: 0.5rem 0; }
.entity-list { list-style: none; padding: 0; margin: 0.5rem 0; }
.entity-list > li { border-top: 1px solid var(--line); padding: 0.6rem 0; margin: 0; }
.entity-list .item-title { font-weight: 600; }
`;

export function entityStylesheet(): SitePage {
  return { url: ENTITY_CSS_PATH, bytes: Buffer.from(ENTITY_CSS, 'utf8') };
}
