// The developer page: the REST API, its OpenAPI description, the MCP server, the command line, the data
// downloads and the files for crawlers and assistants. Wide tables and code scroll inside their own box
// (.table-wrap, <pre>), so the page never scrolls sideways on a phone.
import { KINDS } from '../../model/index.ts';
import type { Registry } from '../../registry/registry.ts';
import { API_BASE, API_CACHE_CONTROL, API_ROUTES, HOST_FILES, OPENAPI_PATH, urlOf } from '../../publish/routes.ts';
import { MCP_PATH } from '../../model/endpoints.ts';
import { downloadCatalogue, downloadsUrl } from '../../publish/downloads.ts';
import { hostedConfig, localConfig, PACKAGE_NAME, TARBALL, tarballConfig } from '../../model/package.ts';
import { html, joined, Raw } from '../html.ts';
import { page } from '../layout.ts';
import { ORIGIN_ENV } from '../../publish/origin.ts';
import { LLMS_PATH, ROBOTS_PATH, SITEMAP_PATH } from '../meta.ts';
import { SITE, browsePath } from '../paths.ts';

/** A path that may wrap after each slash (a table cell stays narrow on a phone). */
const breakable = (path: string) => joined(path.split('/'), new Raw('/<wbr>'));

export function developersPage(reg: Registry): string {
  // Two columns (the path with a link to its JSON, and what it returns), so that the table reads on a phone;
  // every operation is a GET, said once above the table.
  const rows = API_ROUTES.map((route) => {
    const example = route.itemKind ? reg.all(route.itemKind)[0]?.id : undefined;
    // A templated path with no kind to fill it (a release version) is shown, not linked: its values depend
    // on what the build recorded, and a link to the template itself would lead nowhere.
    const templated = route.path.includes('{');
    const href = route.itemKind ? (example ? urlOf(route, example) : undefined) : templated ? undefined : urlOf(route);
    const path = html`<code>${breakable(`${API_BASE}${route.path}`)}</code>`;
    const label = route.itemKind ? `${route.summary.toLowerCase()} (${example})` : route.summary.toLowerCase();
    const link =
      href &&
      html`<br><span class="small"><a href="${href}">View JSON<span class="visually-hidden">: ${label}</span></a>${example ? html` (${example})` : ''}</span>`;
    return html`<tr>
<td>${path}${link}</td>
<td>${route.summary}</td>
</tr>
`;
  });
  const schemas = KINDS.map((k) => html`<li><a href="/schemas/${k}.schema.json"><code>/schemas/${k}.schema.json</code></a></li>\n`);
  const local = localConfig();
  const hosted = hostedConfig();
  const tarball = tarballConfig();
  // The explain example passes --stage: an artifact recorded at that stage, so that it does not move the
  // observation to a stage where it does not arise.
  const stage = 'technical';
  const artifact = reg.all('artifact').find((a) => a.status === 'active' && a.stages.includes(stage))?.id ?? 'A-001';
  const mechanism = reg.all('mechanism')[0]?.id ?? 'M-001';
  const scenario = reg.all('scenario')[0]?.id ?? 'S-001';
  return page(reg, {
    title: 'Developers',
    path: SITE.developers,
    main: html`<h1>Developers</h1>
<p>The atlas is published four ways, all read-only and all built from the same content (version ${reg.version}):
a static REST API, its OpenAPI description, a Model Context Protocol (MCP) server, and the <code>hoba</code> command line.</p>
<nav class="toc" aria-label="On this page">
<ul>
<li><a href="#rest">REST API</a></li>
<li><a href="#responses">Responses, errors and caching</a></li>
<li><a href="#openapi">OpenAPI and JSON Schemas</a></li>
<li><a href="#explain">Reading an explanation</a></li>
<li><a href="#mcp">MCP server</a></li>
<li><a href="#cli">Command line</a></li>
<li><a href="#data">Downloading the data</a></li>
<li><a href="#crawlers">For crawlers and assistants: llms.txt, robots.txt, sitemap</a></li>
<li><a href="#hosting">Hosting the mirror</a></li>
</ul>
</nav>

<h2 id="rest">REST API</h2>
<p>Base URL: <code>${API_BASE}</code> on this site. Every operation is an HTTP <code>GET</code> with no body; there are no query parameters.
The collections below link straight to their JSON.</p>
<div class="table-wrap" role="region" aria-labelledby="endpoints-caption" tabindex="0">
<table>
<caption id="endpoints-caption">Endpoints (paths relative to the site root)</caption>
<thead><tr><th scope="col">Path (GET)</th><th scope="col">Returns</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
</div>
<p>Example: <code>curl -s ORIGIN${API_BASE}/mechanisms/${mechanism}</code>, where ORIGIN is the address of this site.</p>
<p>Scenarios (<code>${API_BASE}/scenarios</code>) are worked situations: a candidate’s own words, the observations and probe outcomes they map to (<code>input</code>), and the analysis explain must give (<code>expect</code>: mechanisms in the first tier, mechanisms that must not appear, probes offered, verdict).
Each links to the artifacts it <code>observes</code> in the graph, and has a <a href="${browsePath('scenario')}">page on this site</a> showing the analysis.
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
Results are sized for an assistant’s context: by default a summary (brief items, capped lists that say how to get the rest; about 8 KB for one observation, the plain answer included), and <code>detail: "full"</code> returns everything.
<code>get_methodology</code> with a <code>section</code> returns that section alone. Each tool advertises a compact output schema derived from the analysis result schemas (open objects, shared parts under <code>$defs</code>): a summary and a full result both validate against it.</p>
<h3>Local variant (stdio, from a checkout)</h3>
<p>Build a checkout (<code>npm ci &amp;&amp; npm run build</code>), then add this to your MCP client’s configuration, replacing <code>&lt;checkout&gt;</code> with the absolute path of the checkout:</p>
<pre tabindex="0"><code>${local}</code></pre>
<h3>Hosted variant</h3>
<p>With the package <code>${PACKAGE_NAME}</code> from the npm registry (once it is published) the client starts the server itself:</p>
<pre tabindex="0"><code>${hosted}</code></pre>
<p>Until it is published, pack a checkout (<code>npm pack</code> writes <code>${TARBALL}</code>) and point the client at the tarball:</p>
<pre tabindex="0"><code>${tarball}</code></pre>
<p>Over HTTP, <code>hoba serve</code> mounts the same server (Streamable HTTP, stateless) at <code>${MCP_PATH}</code> on the site it serves: point an HTTP-capable MCP client at <code>ORIGIN${MCP_PATH}</code>. On its own, <code>hoba-mcp --http --port 8090</code> serves it at <code>http://127.0.0.1:8090${MCP_PATH}</code>.</p>

<h2 id="cli">Command line</h2>
<pre tabindex="0"><code>npm ci &amp;&amp; npm start                      # build and serve this site locally
npx hoba --help                          # every command, with examples
npx hoba search "ghosted after final interview"
npx hoba explain ${artifact} --stage ${stage}    # the HOBA protocol for an observation
npx hoba explain --scenario ${scenario}            # a worked scenario: a preset and a regression test
npx hoba explain "no reply since my final interview"   # plain words: which observations, and why
npx hoba show ${mechanism}                       # one mechanism, with its facets and relations
npx hoba stats                           # the atlas in numbers and its depth targets (--json, --check)
npx hoba methodology                     # how to read the atlas (the same text as ${SITE.methodology})
npx hoba validate --strict               # content, DAG, loops and mirror parity
npx hoba build --out _site               # write this site (static REST mirror, OpenAPI, pages)
npx hoba serve --port 8080               # serve it with the same routes and headers as a CDN
</code></pre>
<p>Add <code>--json</code> to any command for machine-readable output.</p>

<h2 id="data">Downloading the data</h2>
<p>Everything is open: the content under CC BY-SA 4.0, the software under MIT. Three ways to take all of it at once:</p>
<ul>
<li><a href="${SITE.data}"><code>${SITE.data}</code></a>: the whole atlas in one JSON file, every entity with every field, as <code>{registry_version, data}</code>. It is what this site’s own scripts read (search, analyze, the graph explorer); <code>new Registry(data)</code> from <code>src/registry/registry.ts</code> turns it back into the registry the CLI uses.</li>
<li><a href="${API_BASE}/graph"><code>${API_BASE}/graph</code></a>: every node and typed edge (<code>{registry_version, counts, nodes, edges}</code>), for graph tools.</li>
<li>The collections of the <a href="#rest">REST API</a>, one kind at a time, and the source YAML in <code>content/</code> of the repository.</li>
</ul>
<p><code>hoba stats</code> prints the atlas in numbers: counts by kind, topics and jurisdictions covered, intervention actors, evidence levels, and whether each depth target the project set itself is met (<code>--json</code> for all of it, <code>--check</code> to fail a CI job when one is not).</p>

<h2 id="downloads">Bulk downloads</h2>
<p>The whole atlas (version ${reg.version}, released ${reg.manifest.released}) as files, for spreadsheets, notebooks and graph tools.
The latest files are at <code>${downloadsUrl()}</code> (listed in its <a href="${downloadsUrl()}manifest.json"><code>manifest.json</code></a>); each recorded release keeps its own copy at <code>/downloads/&lt;version&gt;/</code>, which never changes (the list: <a href="${API_BASE}/releases"><code>${API_BASE}/releases</code></a>; what changed: <a href="${API_BASE}/changelog"><code>${API_BASE}/changelog</code></a>).</p>
<div class="table-wrap" role="region" aria-labelledby="downloads-caption" tabindex="0"><table>
<caption id="downloads-caption">Files of every download directory</caption>
<thead><tr><th scope="col">File</th><th scope="col">What it holds</th></tr></thead>
<tbody>
${downloadCatalogue().map(
  (
    d,
  ) => html`<tr><td><a href="${downloadsUrl()}${d.file}"><code>${d.file}</code></a><br><span class="muted">${d.media_type.split(';')[0]}</span></td><td>${d.description}</td></tr>
`,
)}</tbody>
</table></div>
<ul>
<li><strong>Check what you downloaded</strong>: <code>sha256sum -c SHA256SUMS</code> in the download directory; <code>manifest.json</code> lists every file with its size, SHA-256, media type and, for the CSVs, what each column means.</li>
<li><strong>CSV</strong>: RFC 4180 (UTF-8 without a byte-order mark, CRLF line ends, a header row). A cell holding a list (stages, topics, sources) joins its items with <code>|</code>; a column that does not apply to a kind is empty. In a spreadsheet, import it as UTF-8.</li>
<li><strong>NDJSON</strong>: one entity a line, every field, sorted by ID; each line is valid against <code>schemas/&lt;kind&gt;.schema.json</code> (JSON Schema 2020-12).</li>
<li><strong>GraphML</strong>: the graph with typed attributes; it opens in Gephi, Cytoscape, yEd, networkx and graphology.</li>
<li><strong>Licences and citation</strong>: the content is CC BY-SA 4.0, the software MIT; <code>manifest.json</code>, <code>graph.graphml</code> and <code>CITATION.cff</code> state both. Cite the version you used (<code>CITATION.cff</code>, Citation File Format 1.2.0).</li>
</ul>

<h2 id="crawlers">For crawlers and assistants: llms.txt, robots.txt, sitemap</h2>
<ul>
<li><a href="${LLMS_PATH}"><code>${LLMS_PATH}</code></a> follows the llms.txt convention: what the atlas is, the rules for reading and repeating it (no probabilities, compatible is not proven, no names), and where its machine-readable parts are.</li>
<li><a href="${ROBOTS_PATH}"><code>${ROBOTS_PATH}</code></a> allows every path.</li>
<li><code>${SITEMAP_PATH}</code> lists every page (the site’s own, the browse pages and one per active entity). The sitemap protocol requires absolute URLs, and a static build does not know where it will be served, so the sitemap is written only when the build is given the site’s origin: <code>${ORIGIN_ENV}=https://your.host npx hoba build</code>. robots.txt then names it; without the origin, robots.txt says why there is none.</li>
</ul>

<h2 id="hosting">Hosting the mirror</h2>
<p><code>hoba build</code> writes the whole site as static files, with host configuration generated from the same route table:
${HOST_FILES.map((f, i) => html`${i ? ', ' : ''}<code>${f}</code>`)} (Cloudflare Pages and Netlify read the first two; include the last in an nginx server block).
Two builds of the same content are byte-identical.</p>`,
  });
}
