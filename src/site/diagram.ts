// Diagrams drawn at build time as inline SVG: a pattern's motif (the observations that must be seen
// together → the pattern → the mechanisms compatible with it) and a loop's cycle (its mechanisms around a
// circle, each edge an arrow labelled amplifies or masks). Each SVG has a <title> and a <desc>, and the
// page gives the same facts as text beside it; the drawing adds nothing the text does not say.
// Colours come from the site's CSS variables (light and dark); relations differ by line style and label,
// never by colour alone. Output is deterministic: positions are computed, never random.
import { escapeHtml, Raw } from './html.ts';

export interface DiagramNode {
  id: string;
  title: string;
  /** The page the node links to. */
  href: string;
}

const FONT = 13;
const LINE = 16;
/** Characters per line of a node's title: a conservative estimate for the site's sans-serif at 13 px. */
const CHARS = 30;
const PAD = 8;

/** Word-wraps a title into lines of at most `chars` characters (a word longer than that is cut). */
function wrap(text: string, chars = CHARS, maxLines = 4): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const w = word.length > chars ? `${word.slice(0, chars - 1)}…` : word;
    if (line && line.length + 1 + w.length > chars) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.replace(/.{0,2}$/, '')}…`;
    return kept;
  }
  return lines;
}

const n = (v: number) => (Math.round(v * 10) / 10).toString();

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A node: a linked box with its ID in bold and its title wrapped below. */
function nodeBox(node: DiagramNode, box: Box, kind: string, lines: string[]): string {
  const text = [`<tspan x="${n(box.x + PAD)}" dy="0" class="nid">${escapeHtml(node.id)}</tspan>`]
    .concat(lines.map((l) => `<tspan x="${n(box.x + PAD)}" dy="${LINE}">${escapeHtml(l)}</tspan>`))
    .join('');
  return `<a href="${escapeHtml(node.href)}" class="node ${kind}"><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${n(box.h)}" rx="${kind === 'pattern' ? 14 : 4}"/><text x="${n(box.x + PAD)}" y="${n(box.y + PAD + FONT)}">${text}</text></a>`;
}

const boxHeight = (lines: number) => PAD * 2 + FONT + lines * LINE - 2;

function svgOpen(id: string, width: number, height: number, title: string, desc: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(width)} ${n(height)}" width="${n(width)}" height="${n(height)}" role="group" aria-labelledby="${id}-title" aria-describedby="${id}-desc" class="diagram-svg" font-size="${FONT}">
<title id="${id}-title">${escapeHtml(title)}</title>
<desc id="${id}-desc">${escapeHtml(desc)}</desc>
<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker></defs>
`;
}

/**
 * A pattern's motif, wide: the required observations (left) converge on the pattern (middle), which fans
 * out to the compatible mechanisms (right).
 */
export function patternDiagram(
  pattern: DiagramNode,
  artifacts: readonly DiagramNode[],
  mechanisms: readonly DiagramNode[],
  suffix = '',
): Raw {
  const id = `diagram-${pattern.id}${suffix}`;
  const colW = 230;
  const gap = 70;
  const vgap = 12;
  const top = 30;
  const xs = [10, 10 + colW + gap, 10 + 2 * (colW + gap)];
  const width = xs[2]! + colW + 10;
  const column = (nodes: readonly DiagramNode[], x: number) => {
    let y = top;
    return nodes.map((node) => {
      const lines = wrap(node.title);
      const box = { x, y, w: colW, h: boxHeight(lines.length) };
      y += box.h + vgap;
      return { node, lines, box };
    });
  };
  const left = column(artifacts, xs[0]!);
  const right = column(mechanisms, xs[2]!);
  const heightOf = (col: Array<{ box: Box }>) => (col.length ? col[col.length - 1]!.box.y + col[col.length - 1]!.box.h : top);
  const contentH = Math.max(heightOf(left), heightOf(right));
  const pLines = wrap(pattern.title);
  const pH = boxHeight(pLines.length);
  const pBox = { x: xs[1]!, y: Math.max(top, (top + contentH) / 2 - pH / 2), w: colW, h: pH };
  // Centre the shorter column against the taller one.
  const shift = (col: Array<{ box: Box }>) => {
    const d = (contentH - heightOf(col)) / 2;
    for (const c of col) c.box.y += d;
  };
  shift(left);
  shift(right);
  const height = contentH + 14;
  const midY = (b: Box) => b.y + b.h / 2;
  const edge = (x1: number, y1: number, x2: number, y2: number) => {
    const c = (x1 + x2) / 2;
    return `<path d="M${n(x1)} ${n(y1)}C${n(c)} ${n(y1)} ${n(c)} ${n(y2)} ${n(x2 - 2)} ${n(y2)}" class="edge" marker-end="url(#${id}-arrow)"/>`;
  };
  return new Raw(
    [
      svgOpen(id, width, height, patternTitle(pattern, artifacts, mechanisms), patternDesc(pattern, artifacts, mechanisms)),
      `<text x="${xs[0]}" y="18" class="colhead">Seen together</text><text x="${xs[1]}" y="18" class="colhead">Pattern</text><text x="${xs[2]}" y="18" class="colhead">Compatible (not proven)</text>\n`,
      ...left.map((c) => edge(c.box.x + c.box.w, midY(c.box), pBox.x, midY(pBox))),
      ...right.map((c) => edge(pBox.x + pBox.w, midY(pBox), c.box.x, midY(c.box))),
      '\n',
      ...left.map((c) => nodeBox(c.node, c.box, 'artifact', c.lines)),
      nodeBox(pattern, pBox, 'pattern', pLines),
      ...right.map((c) => nodeBox(c.node, c.box, 'mechanism', c.lines)),
      '\n</svg>',
    ].join(''),
  );
}

const patternTitle = (pattern: DiagramNode, artifacts: readonly DiagramNode[], mechanisms: readonly DiagramNode[]) =>
  `Diagram of ${pattern.id}: ${artifacts.length} observations seen together, and ${mechanisms.length} compatible mechanisms`;
const patternDesc = (pattern: DiagramNode, artifacts: readonly DiagramNode[], mechanisms: readonly DiagramNode[]) =>
  `${artifacts.map((a) => `${a.id} ${a.title}`).join(' and ')}, observed together, form ${pattern.id} ${pattern.title}. Compatible with it: ${mechanisms
    .map((m) => `${m.id} ${m.title}`)
    .join('; ')}. Compatible, not proven.`;

/**
 * The same motif, tall, for narrow screens: the observations on top lead down into the pattern, and a
 * spine on the left leads from the pattern to each compatible mechanism below.
 */
export function patternDiagramTall(
  pattern: DiagramNode,
  artifacts: readonly DiagramNode[],
  mechanisms: readonly DiagramNode[],
  suffix = '-tall',
): Raw {
  const id = `diagram-${pattern.id}${suffix}`;
  const w = 300;
  const x = 10;
  const indent = 34;
  const parts: string[] = [];
  const boxes: string[] = [];
  let y = 26;
  parts.push(`<text x="${x}" y="16" class="colhead">Seen together</text>`);
  const artifactBoxes = artifacts.map((a) => {
    const lines = wrap(a.title, 34);
    const box = { x, y, w, h: boxHeight(lines.length) };
    y += box.h + 8;
    boxes.push(nodeBox(a, box, 'artifact', lines));
    return box;
  });
  y += 28;
  const pLines = wrap(pattern.title, 34);
  const pBox = { x, y, w, h: boxHeight(pLines.length) };
  for (const b of artifactBoxes.slice(-1))
    parts.push(`<path d="M${n(x + w / 2)} ${n(b.y + b.h)}V${n(pBox.y - 2)}" class="edge" marker-end="url(#${id}-arrow)"/>`);
  boxes.push(nodeBox(pattern, pBox, 'pattern', pLines));
  y += pBox.h + 30;
  parts.push(`<text x="${x + indent}" y="${n(y - 8)}" class="colhead">Compatible (not proven)</text>`);
  y += 6;
  const spineX = x + 14;
  let lastMid = pBox.y + pBox.h;
  for (const m of mechanisms) {
    const lines = wrap(m.title, 30);
    const box = { x: x + indent, y, w: w - indent, h: boxHeight(lines.length) };
    lastMid = box.y + box.h / 2;
    parts.push(`<path d="M${n(spineX)} ${n(lastMid)}H${n(box.x - 2)}" class="edge" marker-end="url(#${id}-arrow)"/>`);
    boxes.push(nodeBox(m, box, 'mechanism', lines));
    y += box.h + 8;
  }
  parts.push(`<path d="M${n(spineX)} ${n(pBox.y + pBox.h)}V${n(lastMid)}" class="edge"/>`);
  const height = y + 4;
  return new Raw(
    [
      svgOpen(id, w + 20, height, patternTitle(pattern, artifacts, mechanisms), patternDesc(pattern, artifacts, mechanisms)),
      ...parts,
      '\n',
      ...boxes,
      '\n</svg>',
    ].join(''),
  );
}

export interface CycleEdge {
  from: string;
  to: string;
  relation: 'amplifies' | 'masks';
}

/**
 * A loop's cycle, in a column narrow enough for a phone: the mechanisms one above the other (with three,
 * the one with most edges in the middle), each declared edge an arc beside the column: going down on the
 * right, going up on the left, so a pair's two directions read as a circuit. Arcs that span more nodes
 * bend further out. Amplifies is a solid line, masks a dashed one, and each carries its word.
 */
export function loopDiagram(loop: DiagramNode, mechanisms: readonly DiagramNode[], edges: readonly CycleEdge[]): Raw {
  const id = `diagram-${loop.id}`;
  const degree = (m: string) => edges.filter((e) => e.from === m || e.to === m).length;
  let order = [...mechanisms];
  if (order.length === 3) {
    const hub = order.reduce((best, m) => (degree(m.id) > degree(best.id) ? m : best), order[0]!);
    order = [order.find((m) => m !== hub)!, hub, order.filter((m) => m !== hub)[1]!];
  }
  const boxW = 220;
  const vgap = 64;
  const bendOf = (span: number) => 44 + 48 * (span - 1);
  const index = new Map(order.map((m, i) => [m.id, i]));
  const spans = edges.map((e) => Math.abs((index.get(e.to) ?? 0) - (index.get(e.from) ?? 0)));
  const maxBend = bendOf(Math.max(1, ...spans));
  const side = maxBend * 0.75 + 48;
  const width = boxW + 2 * side + 20;
  const x = (width - boxW) / 2;
  let y = 12;
  const laid = order.map((node) => {
    const lines = wrap(node.title, 29);
    const box = { x, y, w: boxW, h: boxHeight(lines.length) };
    y += box.h + vgap;
    return { node, lines, box };
  });
  const height = y - vgap + 12;
  const arcs: string[] = [];
  const labels: string[] = [];
  edges.forEach((e, k) => {
    const i = index.get(e.from);
    const j = index.get(e.to);
    if (i === undefined || j === undefined || i === j) return;
    const a = laid[i]!.box;
    const b = laid[j]!.box;
    const down = j > i;
    const span = spans[k]!;
    const bend = bendOf(span);
    const edgeX = down ? x + boxW : x;
    const out = down ? 1 : -1;
    // Leave and enter towards each other, further from the centre for longer arcs, so nested arcs do not share ends.
    const off = 7 + 9 * (span - 1);
    const y1 = a.y + a.h / 2 + (down ? off : -off);
    const y2 = b.y + b.h / 2 + (down ? -off : off);
    const cx = edgeX + out * bend;
    arcs.push(
      `<path d="M${n(edgeX + out * 2)} ${n(y1)}C${n(cx)} ${n(y1)} ${n(cx)} ${n(y2)} ${n(edgeX + out * 4)} ${n(y2)}" class="edge ${e.relation}" marker-end="url(#${id}-arrow)"/>`,
    );
    // A cubic with these control points reaches 3/4 of the bend at its middle.
    const lx = edgeX + out * bend * 0.75;
    const ly = (y1 + y2) / 2;
    const lw = e.relation.length * 7.4 + 10;
    labels.push(
      `<g class="edge-label ${e.relation}"><rect x="${n(lx - lw / 2)}" y="${n(ly - 10)}" width="${n(lw)}" height="20" rx="3"/><text x="${n(lx)}" y="${n(ly + 4)}" text-anchor="middle">${e.relation}</text></g>`,
    );
  });
  const edgeWords = edges.map((e) => `${e.from} ${e.relation} ${e.to}`).join('; ');
  return new Raw(
    [
      svgOpen(
        id,
        width,
        height,
        `Diagram of ${loop.id} ${loop.title}: a cycle of ${mechanisms.length} mechanisms`,
        `The mechanisms ${mechanisms.map((m) => `${m.id} ${m.title}`).join(', ')} form a cycle. Edges: ${edgeWords}. Solid lines amplify, dashed lines mask.`,
      ),
      ...arcs,
      '\n',
      ...laid.map((l) => nodeBox(l.node, l.box, 'mechanism', l.lines)),
      '\n',
      ...labels,
      '\n</svg>',
    ].join(''),
  );
}
