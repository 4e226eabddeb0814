// The site's HTML pages: a minimal home page, the developer page, and the 404 page. Plain, accessible
// HTML with no scripts; every API link comes from the route table.
import { KIND_INFO, KINDS } from '../model/index.ts';
import type { EntityOfKind, Registry } from '../registry/registry.ts';
import { explain } from '../analysis/explain.ts';
import { AnalysisError } from '../analysis/resolve.ts';
import { inputOf } from '../analysis/scenarios.ts';
import { API_BASE, API_CACHE_CONTROL, API_ROUTES, HOST_FILES, MCP_PATH, OPENAPI_PATH, urlOf } from './routes.ts';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Tagged template that escapes interpolated strings; arrays are joined, Raw values are kept. */
class Raw {
  constructor(readonly html: string) {}
}
function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Raw(out);
}
function render(v: unknown): string {
  if (v instanceof Raw) return v.html;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return escapeHtml(String(v));
}

const STYLE = `
  body { font: 16px/1.55 system-ui, sans-serif; max-width: 56rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; color: #1b1b1b; background: #fff; }
  a { color: #0645ad; } a:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
  code, pre { font: 0.92em/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  pre { background: #f4f4f4; border: 1px solid #ddd; padding: 0.75rem; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
  caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
  th, td { border: 1px solid #ccc; padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
  th { background: #f0f0f0; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: 0.25rem; }
  footer { margin-top: 3rem; border-top: 1px solid #ddd; padding-top: 0.75rem; font-size: 0.9em; }
  @media (prefers-color-scheme: dark) {
    body { color: #e6e6e6; background: #161616; } a { color: #8ab4f8; }
    pre { background: #222; border-color: #444; } th { background: #262626; } th, td { border-color: #444; }
    .skip:focus { background: #161616; }
  }`;

function page(reg: Registry, title: string, main: Raw): string {
  const m = reg.manifest;
  return (
    html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${m.description}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${new Raw(STYLE)}
</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<nav aria-label="Site">
<a href="/">Home</a> · <a href="/developers/">Developers</a> · <a href="${OPENAPI_PATH}">OpenAPI</a> · <a href="${API_BASE}/index.json">API index</a>
</nav>
</header>
<main id="main">
${main}
</main>
<footer>
<p>${m.name}, content version ${m.registry_version}, released <time datetime="${m.released}">${m.released}</time>.
Software: MIT. Content: <a href="https://creativecommons.org/licenses/by-sa/4.0/">CC BY-SA 4.0</a>.</p>
</footer>
</body>
</html>
`.html
  );
}

export function homePage(reg: Registry): string {
  const m = reg.manifest;
  const counts = KINDS.map((k) => {
    const collection = API_ROUTES.find((r) => !r.itemKind && r.path === `/${KIND_INFO[k].dir}`)!;
    return html`<li><a href="${urlOf(collection)}">${KIND_INFO[k].dir}</a>: ${reg.all(k).length}</li>`;
  });
  return page(
    reg,
    m.name,
    html`<h1>${m.name}</h1>
<p>${m.description}</p>
<p>Explanations are topological and uncalibrated: they say what is compatible with an observation, never how likely it is.</p>
<h2>What is in it</h2>
<ul>
${counts}
<li><a href="${API_BASE}/graph">graph</a>: ${reg.entities.length} nodes, ${reg.edges.length} edges</li>
</ul>
<h2>Use it</h2>
<ul>
<li><a href="${scenarioPagePath()}">Worked scenarios</a>: situations in a candidate’s words, and what the atlas makes of them.</li>
<li><a href="/developers/">Developers</a>: the REST API, its OpenAPI description, the MCP server and the command line.</li>
<li><a href="${API_BASE}/index.json">API discovery document</a> (JSON)</li>
<li><a href="${OPENAPI_PATH}">OpenAPI 3.1 description</a> (JSON)</li>
</ul>`,
  );
}

export function developersPage(reg: Registry): string {
  const rows = API_ROUTES.map((route) => {
    const example = route.itemKind ? reg.all(route.itemKind)[0]?.id : undefined;
    const href = route.itemKind ? (example ? urlOf(route, example) : undefined) : urlOf(route);
    const label = route.itemKind ? `${route.summary.toLowerCase()} (${example})` : route.summary.toLowerCase();
    return html`<tr>
<td>GET</td>
<td><code>${API_BASE}${route.path}</code></td>
<td>${route.summary}</td>
<td>${href ? html`<a href="${href}">View JSON<span class="visually-hidden">: ${label}</span></a>${example ? html` (${example})` : ''}` : 'none yet'}</td>
</tr>
`;
  });
  const schemas = KINDS.map((k) => html`<li><a href="/schemas/${k}.schema.json"><code>/schemas/${k}.schema.json</code></a></li>\n`);
  const localConfig = JSON.stringify(
    { mcpServers: { hoba: { command: 'node', args: ['<checkout>/dist/mcp.js', '--dir', '<checkout>'] } } },
    null,
    2,
  );
  const hostedConfig = JSON.stringify({ mcpServers: { hoba: { command: 'npx', args: ['-y', 'hoba'] } } }, null, 2);
  // The explain example passes --stage: an artifact recorded at that stage, so that it does not move the
  // observation to a stage where it does not arise.
  const stage = 'technical';
  const artifact = reg.all('artifact').find((a) => a.status === 'active' && a.stages.includes(stage))?.id ?? 'A-001';
  const mechanism = reg.all('mechanism')[0]?.id ?? 'M-001';
  const scenario = reg.all('scenario')[0]?.id ?? 'S-001';
  return page(
    reg,
    `Developers · ${reg.manifest.name}`,
    html`<h1>Developers</h1>
<p>The atlas is published four ways, all read-only and all built from the same content (version ${reg.version}):
a static REST API, its OpenAPI description, a Model Context Protocol (MCP) server, and the <code>hoba</code> command line.</p>
<nav aria-label="On this page">
<ul>
<li><a href="#rest">REST API</a></li>
<li><a href="#responses">Responses, errors and caching</a></li>
<li><a href="#openapi">OpenAPI and JSON Schemas</a></li>
<li><a href="#explain">Reading an explanation</a></li>
<li><a href="#mcp">MCP server</a></li>
<li><a href="#cli">Command line</a></li>
<li><a href="#hosting">Hosting the mirror</a></li>
</ul>
</nav>

<h2 id="rest">REST API</h2>
<p>Base URL: <code>${API_BASE}</code> on this site. Every operation is an HTTP <code>GET</code> with no body; there are no query parameters.
The collections below link straight to their JSON.</p>
<table>
<caption>Endpoints (paths relative to the site root)</caption>
<thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Returns</th><th scope="col">Try it</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
<p>Example: <code>curl -s ORIGIN${API_BASE}/mechanisms/${mechanism}</code>, where ORIGIN is the address of this site.</p>
<p>Scenarios (<code>${API_BASE}/scenarios</code>) are worked situations: a candidate’s own words, the observations and probe outcomes they map to (<code>input</code>), and the analysis explain must give (<code>expect</code>: mechanisms in the first tier, mechanisms that must not appear, probes offered, verdict).
Each links to the artifacts it <code>observes</code> in the graph, and has a <a href="${scenarioPagePath()}">page on this site</a> showing the analysis.
Pass a scenario’s <code>input</code> to explain to reproduce it; the atlas’s checks fail when an edit changes a scenario’s analysis without its expectation.</p>

<h2 id="responses">Responses, errors and caching</h2>
<ul>
<li>Every response is JSON (<code>Content-Type: application/json; charset=utf-8</code>) and carries <code>registry_version</code>, the content version it was built from.</li>
<li>Collections: <code>{registry_version, kind, count, items}</code>, items sorted by ID. Single items: <code>{registry_version, kind, item, links: {outgoing, incoming}, citations}</code>, where links are the typed edges that touch the entity and citations the sources it cites.
A source that is not current carries a <code>caveat</code> (in citations, and on its own document): withdrawn guidance and repealed law must not be read as current.
The graph: <code>{registry_version, counts, nodes, edges}</code>; an edge is <code>{source, target, relation}</code>, plus <code>fidelity</code> for <code>emits</code>.</li>
<li>IDs are permanent and never reused. A deprecated entity keeps resolving, with <code>status: deprecated</code> and its successor in <code>superseded_by</code>.</li>
<li>An unknown ID answers <code>404</code> with an RFC 9457 problem document (<code>application/problem+json</code>), never an HTML page. Methods other than GET and HEAD answer <code>405</code>, except the CORS preflight (<code>OPTIONS</code>), answered <code>204</code>.</li>
<li>Any origin may read the API (<code>Access-Control-Allow-Origin: *</code>), its <code>ETag</code> included (<code>Access-Control-Expose-Headers</code>). Documents carry an <code>ETag</code> and <code>Cache-Control: ${API_CACHE_CONTROL}</code>: revalidate with <code>If-None-Match</code> to get <code>304 Not Modified</code>, from a browser script too (the API answers its preflight).</li>
</ul>

<h2 id="openapi">OpenAPI and JSON Schemas</h2>
<p>The <a href="${OPENAPI_PATH}">OpenAPI 3.1 description</a> (<code>${OPENAPI_PATH}</code>) documents every path, parameter pattern and response schema.
The <a href="${API_BASE}/index.json">discovery document</a> lists versions, counts and endpoints.
JSON Schemas (2020-12) of each kind of record, as served:</p>
<ul>
${schemas}</ul>

<h2 id="explain">Reading an explanation</h2>
<p>The command line, the MCP server and the scenario pages run the same analysis (the HOBA protocol); the methodology (<code>hoba methodology</code>, the <code>get_methodology</code> tool, the MCP resource <code>hoba://methodology</code>) says it in full. In brief:</p>
<ul>
<li><strong>Three ways in.</strong> Observation IDs (<code>hoba explain ${artifact}</code>), a worked scenario (<code>--scenario ${scenario}</code>: a preset that is also a regression test), or what happened in plain English (<code>hoba explain "no reply since my final interview"</code>): the result says which observations it chose from the words and why, to check before relying on it.</li>
<li><strong>Two tiers.</strong> Mechanisms that <em>produce</em> what was observed come first, ranked by directness (never by likelihood); mechanisms that only <em>act at the same stage</em> follow, kept but collapsed. Each says why it is listed. Honest baselines enter where they can act, like any other mechanism; an observation can rule a mechanism out, with the reason.</li>
<li><strong>What would tell them apart.</strong> Probes the candidate can run alone or through a lawful right (a data-access request, a copy of a background-check report) come before an intermediary’s; only an outcome the atlas records as excluding a mechanism narrows the case.</li>
<li><strong>What you can still do.</strong> Next steps hold whatever the cause, so a low-signal verdict never hides an action.</li>
<li>Every result is topological and uncalibrated: compatible, not proven, never a probability, and it always says what the facts do not establish.</li>
</ul>

<h2 id="mcp">MCP server</h2>
<p>Assistants and agents can use the atlas through MCP tools (search, explain an observation, compatible mechanisms, diagnostic probes, patterns, interventions, graph traversal, methodology).
<code>explain_observation</code> takes exactly one of <code>artifacts</code> (IDs), <code>scenario</code> (an S-… preset; every scenario is also a resource, <code>hoba://scenario/${scenario}</code>) or <code>text</code> (plain words).
Results are sized for an assistant’s context: by default a summary (brief items, capped lists that say how to get the rest; about 8 KB for one observation), and <code>detail: "full"</code> returns everything.
<code>get_methodology</code> with a <code>section</code> returns that section alone. Each tool advertises a compact output schema derived from the analysis result schemas (open objects, shared parts under <code>$defs</code>): a summary and a full result both validate against it.</p>
<h3>Local variant (stdio, from a checkout)</h3>
<p>Build a checkout (<code>npm ci &amp;&amp; npm run build</code>), then add this to your MCP client’s configuration, replacing <code>&lt;checkout&gt;</code> with the absolute path of the checkout:</p>
<pre><code>${localConfig}</code></pre>
<h3>Hosted variant</h3>
<p>With the package from the npm registry (once it is published) the client starts the server itself:</p>
<pre><code>${hostedConfig}</code></pre>
<p>Over HTTP, <code>hoba serve</code> mounts the same server (Streamable HTTP, stateless) at <code>${MCP_PATH}</code> on the site it serves: point an HTTP-capable MCP client at <code>ORIGIN${MCP_PATH}</code>. On its own, <code>hoba-mcp --http --port 8090</code> serves it at <code>http://127.0.0.1:8090${MCP_PATH}</code>.</p>

<h2 id="cli">Command line</h2>
<pre><code>npm ci &amp;&amp; npm start                      # build and serve this site locally
npx hoba --help                          # every command, with examples
npx hoba search "ghosted after final interview"
npx hoba explain ${artifact} --stage ${stage}    # the HOBA protocol for an observation
npx hoba explain --scenario ${scenario}            # a worked scenario: a preset and a regression test
npx hoba explain "no reply since my final interview"   # plain words: which observations, and why
npx hoba show ${mechanism}                       # one mechanism, with its facets and relations
npx hoba validate --strict               # content, DAG, loops and mirror parity
npx hoba build --out _site               # write this site (static REST mirror, OpenAPI, pages)
npx hoba serve --port 8080               # serve it with the same routes and headers as a CDN
</code></pre>
<p>Add <code>--json</code> to any command for machine-readable output.</p>

<h2 id="hosting">Hosting the mirror</h2>
<p><code>hoba build</code> writes the whole site as static files, with host configuration generated from the same route table:
${HOST_FILES.map((f, i) => html`${i ? ', ' : ''}<code>${f}</code>`)} (Cloudflare Pages and Netlify read the first two; include the last in an nginx server block).
Two builds of the same content are byte-identical.</p>`,
  );
}

/** Site path of a scenario's page (and of the scenario index, without an ID). */
export const scenarioPagePath = (id?: string) => (id === undefined ? '/scenarios/' : `/scenarios/${id}/`);

/** The worked scenarios: each situation in the candidate's words, linking to its page. */
export function scenariosPage(reg: Registry): string {
  const scenarios = reg.all('scenario').filter((s) => s.status === 'active');
  const items = scenarios.map(
    (s) => html`<li><a href="${scenarioPagePath(s.id)}">${s.id}: ${s.title}</a><br>${s.summary}</li>\n`,
  );
  return page(
    reg,
    `Worked scenarios · ${reg.manifest.name}`,
    html`<h1>Worked scenarios</h1>
<p>Each scenario is a situation told in a candidate’s own words, the observations it maps to, and what the atlas’s analysis (the HOBA protocol) makes of it.
They are presets (<code>hoba explain --scenario S-001</code>) and regression tests: the atlas’s checks fail when an edit changes a scenario’s analysis without its expectation.</p>
<ul>
${items}</ul>
<p>As JSON: <a href="${API_BASE}/scenarios">${API_BASE}/scenarios</a>.</p>`,
  );
}

/** One scenario: the situation, what it maps to, and the analysis explain gives for it. */
export function scenarioPage(reg: Registry, scenario: EntityOfKind<'scenario'>): string {
  const name = (id: string) => {
    const e = reg.get(id);
    return e && e.kind !== 'source' ? `${id} ${e.title}` : id;
  };
  let analysis: Raw;
  try {
    const result = explain(reg, inputOf(scenario));
    const first = result.behind.mechanisms.filter((m) => m.tier === 'produces');
    const second = result.behind.mechanisms.filter((m) => m.tier !== 'produces');
    const patterns = result.behind.patterns.filter((pt) => pt.match === 'triggered');
    analysis = html`<h2>What the atlas makes of it</h2>
<p><strong>${result.agency.verdict.text}</strong></p>
${result.agency.verdict.details.length > 0 ? html`<ul>${result.agency.verdict.details.map((d) => html`<li>${d}</li>`)}</ul>` : ''}
<h3>What can produce this (first tier)</h3>
${first.length > 0 ? html`<ul>${first.map((m) => html`<li><a href="${API_BASE}/mechanisms/${m.id}">${m.id}</a> ${m.title}: ${m.why}</li>\n`)}</ul>` : html`<p>None remains.</p>`}
${second.length > 0 ? html`<p>Also acting at the same stage, without producing what was observed (second tier): ${second.map((m, i) => html`${i ? ', ' : ''}<a href="${API_BASE}/mechanisms/${m.id}">${m.id}</a> ${m.title}`)}.</p>` : ''}
${result.behind.excluded.length > 0 ? html`<p>Ruled out by the probe outcomes reported: ${result.behind.excluded.map((m, i) => html`${i ? ', ' : ''}${m.id} ${m.title}`)}.</p>` : ''}
${patterns.length > 0 ? html`<p>Together these observations form a named pattern: ${patterns.map((pt, i) => html`${i ? '; ' : ''}<a href="${API_BASE}/patterns/${pt.id}">${pt.id}</a> ${pt.title}`)}.</p>` : ''}
<h3>What would tell them apart</h3>
${result.agency.probes.length > 0 ? html`<ul>${result.agency.probes.map((p) => html`<li><strong>${p.id}</strong> (${p.agency === 'candidate' ? 'you can run it' : 'needs someone inside the process'}, ${p.cost} cost): ${p.action}</li>\n`)}</ul>` : html`<p>No probe of these observations can narrow what remains.</p>`}
<h3>What this does not establish</h3>
<ul>${result.behind.non_inferences.map((n) => html`<li>${n.text}</li>\n`)}</ul>
<p><small>${result.notice}</small></p>`;
  } catch (error) {
    if (!(error instanceof AnalysisError)) throw error;
    analysis = html`<p>The analysis cannot run on this scenario: ${error.message}</p>`;
  }
  const { input } = scenario;
  return page(
    reg,
    `${scenario.id} ${scenario.title} · ${reg.manifest.name}`,
    html`<p><a href="${scenarioPagePath()}">Worked scenarios</a></p>
<h1>${scenario.id}: ${scenario.title}</h1>
<p>${scenario.summary}</p>
<h2>In the candidate’s words</h2>
<blockquote><p>${scenario.situation}</p></blockquote>
<h2>What it maps to</h2>
<ul>
${input.artifacts.map((id) => html`<li>Observed: <a href="${API_BASE}/artifacts/${id}">${name(id)}</a></li>\n`)}${input.stage ? html`<li>Stage: ${input.stage}</li>\n` : ''}${input.probes.map((p) => html`<li>Probe already run: ${p.probe}, outcome ${p.outcome}</li>\n`)}</ul>
<p>Run it yourself: <code>hoba explain --scenario ${scenario.id}</code>. As JSON: <a href="${API_BASE}/scenarios/${scenario.id}">${API_BASE}/scenarios/${scenario.id}</a>.</p>
${analysis}`,
  );
}

export function notFoundPage(reg: Registry): string {
  return page(
    reg,
    `Not found · ${reg.manifest.name}`,
    html`<h1>Not found</h1>
<p>There is no page at this address. Try the <a href="/">home page</a> or the <a href="/developers/">developer page</a>.</p>`,
  );
}
