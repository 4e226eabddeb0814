// A neighbourhood as text, Mermaid (paste into Markdown) or Graphviz DOT. Pure string building, so the
// CLI, the MCP server and the site render graphs the same way.
import type { Kind } from '../model/vocab.ts';
import type { Edge } from '../model/schemas.ts';
import type { Neighbourhood } from './schemas.ts';

export const GRAPH_FORMATS = ['text', 'mermaid', 'dot'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

const COLOURS: Record<Kind, string> = {
  artifact: '#e8f1fb',
  barrier: '#fdf0dc',
  mechanism: '#fbe4e4',
  pattern: '#eee6f8',
  loop: '#fde9f3',
  intervention: '#e3f5e8',
  scenario: '#fff8d6',
  source: '#eeeeee',
};

const edgeLabel = (e: Edge) => (e.fidelity ? `${e.relation} (${e.fidelity})` : e.relation);

export function formatGraph(n: Neighbourhood, format: GraphFormat): string {
  switch (format) {
    case 'text':
      return toText(n);
    case 'mermaid':
      return toMermaid(n);
    case 'dot':
      return toDot(n);
  }
}

export function toText(n: Neighbourhood): string {
  const title = new Map(n.nodes.map((x) => [x.id, x.title]));
  const lines = [
    `${n.root.id} ${n.root.title} (${n.root.kind}): neighbourhood at depth ${n.depth}, ${n.direction === 'both' ? 'both directions' : n.direction === 'out' ? 'outgoing edges' : 'incoming edges'}`,
    `relations: ${n.relations.join(', ')}`,
    '',
    `nodes (${n.nodes.length}${n.truncated ? ', truncated' : ''}):`,
    ...n.nodes.map(
      (x) =>
        `  ${String(x.distance).padStart(2)}  ${x.id.padEnd(6)} ${x.kind.padEnd(12)} ${x.title}${x.status === 'deprecated' ? ' [deprecated]' : ''}`,
    ),
    '',
    `edges (${n.edges.length}):`,
    ...n.edges.map((e) => `  ${e.source.padEnd(6)} ${`─${edgeLabel(e)}→`.padEnd(24)} ${e.target.padEnd(6)} ${title.get(e.target) ?? ''}`),
  ];
  return lines.join('\n') + '\n';
}

const MERMAID_SHAPES: Record<Kind, [string, string]> = {
  artifact: ['([', '])'],
  barrier: ['[[', ']]'],
  mechanism: ['(', ')'],
  pattern: ['{{', '}}'],
  loop: ['((', '))'],
  intervention: ['[/', '/]'],
  scenario: ['>', ']'],
  source: ['[(', ')]'],
};

const mermaidId = (id: string) => id.replace('-', '_');
const mermaidText = (s: string) => s.replace(/"/g, '#quot;').replace(/[<>]/g, (c) => (c === '<' ? '#lt;' : '#gt;'));

export function toMermaid(n: Neighbourhood): string {
  const kinds = [...new Set(n.nodes.map((x) => x.kind))];
  const lines = ['flowchart LR'];
  for (const x of n.nodes) {
    const [open, close] = MERMAID_SHAPES[x.kind];
    lines.push(`  ${mermaidId(x.id)}${open}"${x.id} · ${mermaidText(x.title)}"${close}:::${x.kind}`);
  }
  for (const e of n.edges) lines.push(`  ${mermaidId(e.source)} -->|${edgeLabel(e)}| ${mermaidId(e.target)}`);
  for (const k of kinds) lines.push(`  classDef ${k} fill:${COLOURS[k]},stroke:#555,color:#111`);
  lines.push(`  style ${mermaidId(n.root.id)} stroke-width:3px`);
  return lines.join('\n') + '\n';
}

const DOT_SHAPES: Record<Kind, string> = {
  artifact: 'note',
  barrier: 'box',
  mechanism: 'box',
  pattern: 'hexagon',
  loop: 'ellipse',
  intervention: 'parallelogram',
  scenario: 'component',
  source: 'cylinder',
};

const dotText = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** Breaks a label into lines of about `width` characters, for Graphviz (which does not wrap). */
function wrapLabel(s: string, width = 28): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function toDot(n: Neighbourhood): string {
  const lines = [
    'digraph hoba {',
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  for (const x of n.nodes) {
    const label = [x.id, ...wrapLabel(x.title)].map(dotText).join('\\n');
    const style = x.kind === 'mechanism' ? 'rounded,filled' : 'filled';
    const root = x.id === n.root.id ? ', penwidth=3' : '';
    lines.push(`  "${x.id}" [label="${label}", shape=${DOT_SHAPES[x.kind]}, style="${style}", fillcolor="${COLOURS[x.kind]}"${root}];`);
  }
  for (const e of n.edges) lines.push(`  "${e.source}" -> "${e.target}" [label="${dotText(edgeLabel(e))}"];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}
