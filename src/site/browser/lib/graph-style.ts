// How the graph explorer draws each kind: a shape AND a colour (never colour alone), shared by the page
// (its legend, drawn as SVG at build time) and the browser script (the Cytoscape style), so the legend
// always matches the drawing. Shapes are polygons in [-1, 1] coordinates (y down), as Cytoscape's
// `shape-polygon-points` takes them; an artifact is a circle.
import type { Kind, Relation } from '../../../model/vocab.ts';

export interface KindLook {
  /** Plural name for people: what the layer toggle and the legend say. */
  label: string;
  /** One of them. */
  one: string;
  /** Name of the shape, said in the legend so that it does not rely on seeing the colour. */
  shapeName: string;
  /** Polygon points, or undefined for a circle. */
  points?: readonly number[];
  /** Fill (Okabe–Ito palette, distinguishable with the common colour-vision deficiencies). */
  fill: string;
}

const star = (() => {
  const pts: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? 1 : 0.45;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(round(r * Math.cos(a)), round(r * Math.sin(a)));
  }
  return pts;
})();

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export const KIND_LOOK: Record<Kind, KindLook> = {
  artifact: { label: 'Observations (artifacts)', one: 'observation (artifact)', shapeName: 'circle', fill: '#56b4e9' },
  barrier: {
    label: 'Barriers',
    one: 'barrier',
    shapeName: 'square',
    points: [-0.85, -0.85, 0.85, -0.85, 0.85, 0.85, -0.85, 0.85],
    fill: '#e69f00',
  },
  mechanism: { label: 'Mechanisms', one: 'mechanism', shapeName: 'diamond', points: [0, -1, 1, 0, 0, 1, -1, 0], fill: '#d55e00' },
  pattern: {
    label: 'Patterns',
    one: 'pattern',
    shapeName: 'hexagon',
    points: [-0.5, -0.9, 0.5, -0.9, 1, 0, 0.5, 0.9, -0.5, 0.9, -1, 0],
    fill: '#cc79a7',
  },
  loop: { label: 'Loops', one: 'loop', shapeName: 'triangle', points: [0, -1, 1, 0.8, -1, 0.8], fill: '#f0e442' },
  intervention: { label: 'Interventions', one: 'intervention', shapeName: 'star', points: star, fill: '#009e73' },
  scenario: {
    label: 'Scenarios',
    one: 'scenario',
    shapeName: 'slanted box',
    points: [-0.5, -0.75, 1, -0.75, 0.5, 0.75, -1, 0.75],
    fill: '#0072b2',
  },
  source: { label: 'Sources', one: 'source', shapeName: 'downward triangle', points: [-1, -0.8, 1, -0.8, 0, 1], fill: '#bbbbbb' },
};

/** Kinds in the order of the layered drawing and of the legend: from what a candidate sees to the evidence. */
export const LAYER_ORDER: readonly Kind[] = ['scenario', 'artifact', 'barrier', 'mechanism', 'pattern', 'loop', 'intervention', 'source'];

/** Kinds hidden when the explorer opens: 162 sources and their 800-odd citations would bury the rest. */
export const KINDS_HIDDEN_AT_START: readonly Kind[] = ['source'];

/** How an edge of each relation is drawn (besides its arrow): the line style tells relations apart without colour. */
export const RELATION_LINE: Record<Relation, 'solid' | 'dashed' | 'dotted'> = {
  precedes: 'solid',
  operates_at: 'solid',
  emits: 'solid',
  amplifies: 'solid',
  masks: 'dashed',
  instantiates: 'dotted',
  member_of: 'dotted',
  targets: 'dashed',
  mitigates: 'dashed',
  observes: 'dotted',
  cites: 'dotted',
};

/** The legend swatch of a kind: a small inline SVG of its shape and colour (decorative; the label says the kind). */
export function swatchSvg(kind: Kind): string {
  const look = KIND_LOOK[kind];
  const shape = look.points ? `<polygon points="${pairs(look.points)}"/>` : '<circle cx="0" cy="0" r="0.9"/>';
  return `<svg class="swatch" viewBox="-1.2 -1.2 2.4 2.4" width="18" height="18" aria-hidden="true" focusable="false"><g fill="${look.fill}" stroke="currentColor" stroke-width="0.18">${shape}</g></svg>`;
}

function pairs(points: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i + 1 < points.length; i += 2) out.push(`${points[i]},${points[i + 1]}`);
  return out.join(' ');
}
