/// <reference lib="dom" />
// The graph explorer (/explore/): draws the published graph (/api/v1/graph) with Cytoscape.js and keeps a
// list of what is drawn, as links, in step with it. One computation (what is visible) feeds both the
// drawing and the list; the controls are the page's plain form controls (src/site/pages/explore.ts).
import cytoscape from 'cytoscape';
import { relationLabel } from '../../analysis/node.ts';
import type { Kind, Relation } from '../../model/vocab.ts';
import { entityPath } from '../paths.ts';
import { KIND_LOOK, LAYER_ORDER, RELATION_LINE } from './lib/graph-style.ts';
import { focusOfFragment } from './lib/fragment.ts';

/** A node of /api/v1/graph: an entity's id, kind, title and key facets. */
interface GraphNode {
  id: string;
  kind: Kind;
  title: string;
  status?: string;
  stages?: string[];
  stage?: string;
  order?: number;
  facets?: { actor?: string };
  evidence_level?: string;
}
interface GraphEdge {
  source: string;
  target: string;
  relation: Relation;
  fidelity?: string;
}
interface Graph {
  registry_version: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** What the controls ask for. */
interface Choice {
  kinds: Set<string>;
  relations: Set<string>;
  actor: string;
  evidence: string;
  stage: string;
  connected: boolean;
  focus: string;
  layout: string;
}

/** What is visible for a choice, and the focused neighbourhood (the whole visible graph when nothing is focused). */
interface View {
  nodes: Set<string>;
  edges: GraphEdge[];
  hoodNodes: Set<string>;
  hoodEdges: GraphEdge[];
  focus?: GraphNode | undefined;
}

const edgeId = (e: GraphEdge) => `${e.source}|${e.relation}|${e.target}`;

/** Rings from the centre out: the gates, what acts at them, what they produce, then the rest. */
const RING_ORDER: readonly Kind[] = ['barrier', 'mechanism', 'artifact', 'pattern', 'loop', 'intervention', 'scenario', 'source'];

function must<T extends Element>(selector: string, root: ParentNode = document): T {
  const el = root.querySelector<T>(selector);
  if (!el) throw new Error(`the explorer page has no ${selector}`);
  return el;
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

class Explorer {
  readonly byId: Map<string, GraphNode>;
  /** The stages of the barriers each mechanism operates at (the stage filter keeps a mechanism acting at the stage). */
  readonly mechanismStages = new Map<string, Set<string>>();
  readonly cy: cytoscape.Core;
  readonly form: HTMLFormElement;
  readonly status: HTMLElement;
  readonly focusPanel: HTMLElement;
  private layoutKey = '';
  private current: Choice;

  constructor(
    readonly graph: Graph,
    readonly root: HTMLElement,
  ) {
    this.byId = new Map(graph.nodes.map((n) => [n.id, n]));
    for (const e of graph.edges) {
      if (e.relation !== 'operates_at') continue;
      const stage = this.byId.get(e.target)?.stage;
      if (!stage) continue;
      const set = this.mechanismStages.get(e.source) ?? new Set<string>();
      set.add(stage);
      this.mechanismStages.set(e.source, set);
    }
    this.form = must<HTMLFormElement>('#explore-controls', root);
    this.status = must<HTMLElement>('#explore-status', root);
    this.focusPanel = must<HTMLElement>('#explore-focus-panel', root);
    this.fillFocusOptions();
    // On a phone the drawing comes first: the long lists of toggles open on request.
    if (matchMedia('(max-width: 40rem)').matches) must<HTMLDetailsElement>('#explore-more', root).open = false;
    const hash = focusOfFragment(location.hash);
    if (this.byId.has(hash)) this.select('focus').value = hash;
    this.current = this.choice();

    this.cy = cytoscape({
      container: must<HTMLElement>('#explore-canvas', root),
      elements: [
        ...graph.nodes.map((n) => ({ group: 'nodes' as const, data: { id: n.id, kind: n.kind, status: n.status ?? 'active' } })),
        ...graph.edges.map((e) => ({
          group: 'edges' as const,
          data: { id: edgeId(e), source: e.source, target: e.target, relation: e.relation },
        })),
      ],
      style: this.style(),
      layout: { name: 'preset' },
      minZoom: 0.1,
      maxZoom: 4,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    this.cy.on('tap', 'node', (event) => {
      const id = (event.target as cytoscape.NodeSingular).id();
      if (this.current.focus === id) location.assign(entityPath(id));
      else this.setFocus(id);
    });
    this.cy.on('tap', (event) => {
      if (event.target === this.cy && this.current.focus) this.setFocus('');
    });

    this.form.addEventListener('submit', (event) => event.preventDefault());
    this.form.addEventListener('change', () => this.update());
    this.form.addEventListener('click', (event) => {
      const action = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-action]')?.dataset['action'];
      if (action) this.act(action);
    });
    this.focusPanel.addEventListener('click', (event) => {
      if (!(event.target as HTMLElement).closest('button[data-action="clear-focus"]')) return;
      this.setFocus('');
      // The button goes with the panel: keep the keyboard where the focus is chosen.
      this.select('focus').focus();
    });
    // The lists are long (hundreds of rows): they are written when opened, and kept up to date while open.
    for (const box of root.querySelectorAll('.explore-list details'))
      box.addEventListener('toggle', () => this.renderList(this.view(this.current)));
    window.addEventListener('hashchange', () => {
      const id = focusOfFragment(location.hash);
      if (this.byId.has(id) && id !== this.current.focus) this.setFocus(id);
    });
    // The drawing follows the reader's colour scheme, as the page does.
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.cy.style(this.style()));
    this.update();
  }

  private select(name: string): HTMLSelectElement {
    return this.form.elements.namedItem(name) as HTMLSelectElement;
  }

  private fillFocusOptions(): void {
    const select = this.select('focus');
    for (const kind of LAYER_ORDER) {
      const group = h('optgroup', { label: KIND_LOOK[kind].label });
      for (const n of this.graph.nodes) if (n.kind === kind) group.append(h('option', { value: n.id }, `${n.id} ${n.title}`));
      select.append(group);
    }
  }

  private choice(): Choice {
    const checked = (name: string) =>
      new Set([...this.form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`)].filter((i) => i.checked).map((i) => i.value));
    return {
      kinds: checked('kind'),
      relations: checked('relation'),
      actor: this.select('actor').value,
      evidence: this.select('evidence').value,
      stage: this.select('stage').value,
      connected: (this.form.elements.namedItem('connected') as HTMLInputElement).checked,
      focus: this.byId.has(this.select('focus').value) ? this.select('focus').value : '',
      layout: this.select('layout').value,
    };
  }

  /** Whether a node passes the facet filters: each narrows only the kinds that carry its facet. */
  private passes(n: GraphNode, c: Choice): boolean {
    if (c.actor && n.kind === 'mechanism' && n.facets?.actor !== c.actor) return false;
    if (c.evidence && n.evidence_level !== undefined && n.evidence_level !== c.evidence) return false;
    if (c.stage) {
      if (n.kind === 'artifact' && !(n.stages ?? []).includes(c.stage)) return false;
      if (n.kind === 'barrier' && n.stage !== c.stage) return false;
      if (n.kind === 'mechanism' && !this.mechanismStages.get(n.id)?.has(c.stage)) return false;
    }
    return true;
  }

  view(c: Choice): View {
    const nodes = new Set(this.graph.nodes.filter((n) => c.kinds.has(n.kind) && this.passes(n, c)).map((n) => n.id));
    // The focused node is always shown, whatever the toggles say.
    if (c.focus) nodes.add(c.focus);
    const edges = this.graph.edges.filter((e) => c.relations.has(e.relation) && nodes.has(e.source) && nodes.has(e.target));
    if (c.connected) {
      const linked = new Set(edges.flatMap((e) => [e.source, e.target]));
      for (const id of [...nodes]) if (!linked.has(id) && id !== c.focus) nodes.delete(id);
    }
    if (!c.focus) return { nodes, edges, hoodNodes: nodes, hoodEdges: edges };
    const hoodEdges = edges.filter((e) => e.source === c.focus || e.target === c.focus);
    const hoodNodes = new Set([c.focus, ...hoodEdges.flatMap((e) => [e.source, e.target])]);
    return { nodes, edges, hoodNodes, hoodEdges, focus: this.byId.get(c.focus) };
  }

  private act(action: string): void {
    const cy = this.cy;
    const centre = { x: cy.width() / 2, y: cy.height() / 2 };
    if (action === 'zoom-in') cy.zoom({ level: Math.min(cy.maxZoom(), cy.zoom() * 1.3), renderedPosition: centre });
    else if (action === 'zoom-out') cy.zoom({ level: Math.max(cy.minZoom(), cy.zoom() / 1.3), renderedPosition: centre });
    else if (action === 'fit') this.fit();
    else if (action === 'reset') {
      this.form.reset();
      this.layoutKey = '';
      this.update();
    }
  }

  setFocus(id: string): void {
    this.select('focus').value = id;
    this.update();
  }

  update(): void {
    const c = this.choice();
    const focusChanged = c.focus !== this.current.focus;
    this.current = c;
    const v = this.view(c);
    this.cy.batch(() => {
      this.cy.elements().removeClass('hidden dim hood focus');
      this.cy.nodes().forEach((n) => {
        const id = n.id();
        if (!v.nodes.has(id)) n.addClass('hidden');
        else if (v.focus) n.addClass(id === v.focus.id ? 'focus' : v.hoodNodes.has(id) ? 'hood' : 'dim');
      });
      const shown = new Set(v.edges.map(edgeId));
      const hood = new Set(v.hoodEdges.map(edgeId));
      this.cy.edges().forEach((e) => {
        const id = e.id();
        if (!shown.has(id)) e.addClass('hidden');
        else if (v.focus) e.addClass(hood.has(id) ? 'hood' : 'dim');
      });
    });
    // Lay out again only when what is drawn changes, so that focusing keeps everything in its place.
    const key = `${c.layout} ${[...v.nodes].join(',')}`;
    if (key !== this.layoutKey) {
      this.layoutKey = key;
      this.layout(c.layout, v);
      this.fit();
    } else if (focusChanged) this.fit();
    this.renderStatus(v);
    this.renderFocus(v);
    this.renderList(v);
    const hash = c.focus ? `#${c.focus}` : '';
    if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  }

  private fit(): void {
    const focus = this.current.focus;
    const shown = this.cy.elements().not('.hidden');
    const eles = focus ? shown.filter('.focus, .hood') : shown;
    if (eles.length > 0) this.cy.fit(eles, 24);
  }

  private layout(name: string, v: View): void {
    const eles = this.cy.elements().not('.hidden');
    if (name === 'rings') {
      eles
        .layout({
          name: 'concentric',
          concentric: (n: cytoscape.NodeSingular) => RING_ORDER.length - RING_ORDER.indexOf(n.data('kind') as Kind),
          levelWidth: () => 1,
          minNodeSpacing: 8,
          animate: false,
        })
        .run();
    } else if (name === 'force') {
      // Start from the layered positions so that the same choice always gives the same drawing.
      this.layers(v);
      eles
        .layout({
          name: 'cose',
          randomize: false,
          animate: false,
          nodeRepulsion: () => 6000,
          idealEdgeLength: () => 48,
          numIter: 1500,
        } as cytoscape.LayoutOptions)
        .run();
    } else this.layers(v);
  }

  /** Bands by kind, from scenarios to sources; each band wraps into rows, as many to a row as suits the drawing's shape. */
  private layers(v: View): void {
    const [dx, dy, gap] = [56, 44, 36];
    const bands = LAYER_ORDER.map((kind) => {
      const nodes = this.graph.nodes.filter((n) => n.kind === kind && v.nodes.has(n.id));
      if (kind === 'barrier') nodes.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
      return nodes;
    }).filter((b) => b.length > 0);
    const aspect = Math.max(0.3, this.cy.width() / Math.max(1, this.cy.height()));
    const widest = Math.max(1, ...bands.map((b) => b.length));
    let perRow = 1;
    let best = Infinity;
    for (let k = 1; k <= widest; k++) {
      const rows = bands.reduce((sum, b) => sum + Math.ceil(b.length / k), 0);
      const misfit = Math.abs(Math.log((Math.max(1, k - 1) * dx + dx) / (rows * dy + (bands.length - 1) * gap) / aspect));
      if (misfit < best) [best, perRow] = [misfit, k];
    }
    let y = 0;
    const positions = new Map<string, { x: number; y: number }>();
    for (const band of bands) {
      for (let i = 0; i < band.length; i += perRow) {
        const row = band.slice(i, i + perRow);
        row.forEach((n, j) => {
          positions.set(n.id, { x: (j - (row.length - 1) / 2) * dx, y });
        });
        y += dy;
      }
      y += gap;
    }
    this.cy
      .nodes()
      .not('.hidden')
      .layout({
        name: 'preset',
        positions: (n: cytoscape.NodeSingular) => positions.get(n.id()) ?? { x: 0, y: 0 },
        animate: false,
      } as cytoscape.LayoutOptions)
      .run();
  }

  private renderStatus(v: View): void {
    const total = this.graph.nodes.length;
    let text = `Showing ${v.nodes.size} of ${total} nodes and ${v.edges.length} of ${this.graph.edges.length} connections.`;
    if (v.focus)
      text += ` Focused on ${v.focus.id}: ${v.hoodNodes.size - 1} neighbours, ${v.hoodEdges.length} connections; the rest is dimmed.`;
    this.status.textContent = text;
    this.status.dataset['nodes'] = String(v.nodes.size);
    this.status.dataset['edges'] = String(v.edges.length);
    this.status.dataset['hoodNodes'] = String(v.hoodNodes.size);
  }

  private renderFocus(v: View): void {
    const panel = this.focusPanel;
    panel.replaceChildren();
    panel.hidden = !v.focus;
    if (!v.focus) return;
    const n = v.focus;
    const look = KIND_LOOK[n.kind];
    panel.append(
      h(
        'p',
        {},
        h('strong', {}, n.id),
        ` ${n.title} `,
        h('span', { class: 'muted' }, `(${look.one}, drawn as a ${look.shapeName}${n.status === 'deprecated' ? ', deprecated' : ''})`),
      ),
      h('p', {}, h('a', { href: entityPath(n.id) }, `Open the page of ${n.id}`)),
      h(
        'p',
        {},
        `Shown with its ${v.hoodNodes.size - 1} neighbours through the kinds and relations chosen above; the rest of the graph is dimmed.`,
      ),
      h('button', { type: 'button', 'data-action': 'clear-focus' }, 'Show the whole graph'),
    );
  }

  private renderList(v: View): void {
    const degree = new Map<string, number>();
    for (const e of v.hoodEdges) for (const id of [e.source, e.target]) degree.set(id, (degree.get(id) ?? 0) + 1);
    const link = (id: string) => h('a', { href: entityPath(id) }, id);
    const nodes = this.graph.nodes.filter((n) => v.hoodNodes.has(n.id));
    const around = v.focus ? ` around ${v.focus.id}` : '';
    const nodeBox = must<HTMLDetailsElement>('#explore-nodes', this.root);
    must('summary', nodeBox).textContent = `Nodes shown${around} (${nodes.length})`;
    must('caption', nodeBox).textContent = `Nodes shown${around}`;
    must('tbody', nodeBox).replaceChildren(
      ...(nodeBox.open ? nodes : []).map((n) =>
        h(
          'tr',
          {},
          h('td', {}, link(n.id)),
          h('td', {}, n.status === 'deprecated' ? `${n.title} (deprecated)` : n.title),
          h('td', {}, KIND_LOOK[n.kind].one),
          h('td', {}, String(degree.get(n.id) ?? 0)),
        ),
      ),
    );
    const edgeBox = must<HTMLDetailsElement>('#explore-edges', this.root);
    must('summary', edgeBox).textContent = `Connections shown${around} (${v.hoodEdges.length})`;
    must('caption', edgeBox).textContent = `Connections shown${around}`;
    must('tbody', edgeBox).replaceChildren(
      ...(edgeBox.open ? v.hoodEdges : []).map((e) => {
        const [from, to] = [this.byId.get(e.source)!, this.byId.get(e.target)!];
        const label = relationLabel(e.relation, 'out', from.kind, to.kind) + (e.fidelity ? ` (${e.fidelity})` : '');
        return h('tr', {}, h('td', {}, link(from.id), ` ${from.title}`), h('td', {}, label), h('td', {}, link(to.id), ` ${to.title}`));
      }),
    );
  }

  /** The drawing's style: shapes and fills per kind (graph-style.ts), colours of lines and labels from the page's scheme. */
  private style(): cytoscape.StylesheetJson {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    const [fg, bg, muted, focus] = [v('--fg', '#1b1b1b'), v('--bg', '#ffffff'), v('--muted', '#4a4a4a'), v('--focus', '#b35c00')];
    const kinds = LAYER_ORDER.map((k) => {
      const look = KIND_LOOK[k];
      return {
        selector: `node[kind = "${k}"]`,
        style: look.points
          ? { shape: 'polygon', 'shape-polygon-points': look.points.join(' '), 'background-color': look.fill }
          : { shape: 'ellipse', 'background-color': look.fill },
      };
    });
    const lines = (Object.keys(RELATION_LINE) as Relation[]).map((r) => ({
      selector: `edge[relation = "${r}"]`,
      style: { 'line-style': RELATION_LINE[r] },
    }));
    return [
      {
        selector: 'node',
        style: {
          width: 18,
          height: 18,
          'border-width': 1.5,
          'border-color': fg,
          label: 'data(id)',
          'font-size': 8,
          color: fg,
          'text-valign': 'bottom',
          'text-margin-y': 2,
          'min-zoomed-font-size': 7,
          'text-background-color': bg,
          'text-background-opacity': 0.75,
          'text-background-padding': '1px',
        },
      },
      ...kinds,
      { selector: 'node[status = "deprecated"]', style: { 'border-style': 'dashed' } },
      {
        selector: 'edge',
        style: {
          width: 1,
          'line-color': muted,
          'target-arrow-color': muted,
          'target-arrow-shape': 'triangle',
          'arrow-scale': 0.6,
          'curve-style': 'straight',
          opacity: 0.5,
          // A connection does nothing when tapped: a tap goes through it to the node beneath.
          events: 'no',
        },
      },
      ...lines,
      { selector: '.hidden', style: { display: 'none' } },
      { selector: 'node.dim', style: { opacity: 0.15 } },
      { selector: 'edge.dim', style: { opacity: 0.07 } },
      { selector: 'edge.hood', style: { opacity: 1, width: 1.6, 'line-color': fg, 'target-arrow-color': fg } },
      { selector: 'node.hood', style: { 'font-size': 10, 'min-zoomed-font-size': 0 } },
      // The focused node is drawn above its neighbours, so a tap on it always reaches it (and opens its page).
      {
        selector: 'node.focus',
        style: {
          'z-index': 10,
          width: 28,
          height: 28,
          'border-width': 4,
          'border-color': focus,
          'font-size': 12,
          'font-weight': 'bold',
          'min-zoomed-font-size': 0,
        },
      },
    ] as cytoscape.StylesheetJson;
  }
}

async function main(): Promise<void> {
  const root = document.getElementById('explorer');
  if (!root) return;
  let graph: Graph;
  try {
    const res = await fetch(root.dataset['graph'] ?? '/api/v1/graph');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    graph = (await res.json()) as Graph;
  } catch (error) {
    // Leave the page as it reads without JavaScript, and say why.
    const nojs = document.getElementById('explore-nojs');
    nojs?.append(h('p', { role: 'alert' }, `The graph could not be loaded (${String(error)}); the links above still work.`));
    return;
  }
  document.getElementById('explore-nojs')?.setAttribute('hidden', '');
  root.hidden = false;
  const explorer = new Explorer(graph, root);
  // For the site's browser test and for curious readers: the explorer, from the console.
  (window as unknown as { hobaExplorer: Explorer }).hobaExplorer = explorer;
}

void main();
