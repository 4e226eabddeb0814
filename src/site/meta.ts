// Files for crawlers and assistants: /robots.txt, /sitemap.xml and /llms.txt.
//
// The sitemap protocol (sitemaps.org) requires every <loc> to be an absolute URL with its scheme, and
// robots.txt's Sitemap line likewise; a static build does not know where it will be served. So the
// sitemap is written only when the build is told the site's origin (HOBA_SITE_ORIGIN, e.g.
// https://atlas.example.org), and robots.txt names it then; without an origin robots.txt says why there
// is no sitemap instead of publishing one that crawlers would reject. llms.txt links with site-relative
// paths (absolute when the origin is known), which resolve against the address it was fetched from.
import { KINDS, KIND_INFO } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import { DOWNLOADS_BASE, downloadsUrl } from '../publish/downloads.ts';
import { ORIGIN_ENV, siteOrigin } from '../publish/origin.ts';
import { API_BASE, OPENAPI_PATH } from '../publish/routes.ts';
import { MCP_PATH } from '../model/endpoints.ts';
import { SITE, browsePath, entityPath } from './paths.ts';

export const ROBOTS_PATH = '/robots.txt';
export const SITEMAP_PATH = '/sitemap.xml';
export const LLMS_PATH = '/llms.txt';
/** The browse hub (one page listing every kind). */
export const BROWSE_PATH = '/browse/';

/**
 * Every HTML page a crawler should index, in a stable order: the site's own pages, the browse pages, and
 * one page per active entity. Deprecated IDs have pages too, but they lead to their successor and are
 * not listed (a sitemap lists canonical URLs); the 404 page is not a page of the site.
 */
function indexablePages(reg: Registry): string[] {
  // The downloads' own pages: /downloads/ and the latest set's index (a recorded release's index is an
  // archive of that version, reached from /downloads/).
  const own = [
    SITE.home,
    SITE.analyze,
    SITE.search,
    SITE.explore,
    SITE.methodology,
    SITE.developers,
    BROWSE_PATH,
    `${DOWNLOADS_BASE}/`,
    downloadsUrl(),
  ];
  const entities = KINDS.flatMap((k) => [
    browsePath(k),
    ...reg
      .all(k)
      .filter((e) => e.kind === 'source' || e.status === 'active')
      .map((e) => entityPath(e.id)),
  ]);
  return [...own, ...entities];
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** sitemap.xml (protocol 0.9) for these page paths under an origin. No lastmod: the build reads no clock. */
function sitemapXml(origin: string, paths: readonly string[]): string {
  const urls = paths.map((p) => `  <url><loc>${xmlEscape(origin + p)}</loc></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`;
}

export function robotsTxt(origin: string | undefined): string {
  const lines = ['# Hiring Obstacles & Barriers Atlas: every page and every API document may be crawled.', 'User-agent: *', 'Allow: /', ''];
  if (origin) lines.push(`Sitemap: ${origin}${SITEMAP_PATH}`);
  else
    lines.push(
      `# No sitemap: this build was not told the site's address, and a sitemap must give absolute URLs.`,
      `# Build with ${ORIGIN_ENV}=https://your.host to write ${SITEMAP_PATH} and name it here.`,
    );
  return lines.join('\n') + '\n';
}

/** /llms.txt (the llms.txt convention: an H1, a summary, notes, then H2 sections of links). */
function llmsTxt(reg: Registry, origin: string | undefined): string {
  const m = reg.manifest;
  const at = (path: string) => `${origin ?? ''}${path}`;
  const link = (title: string, path: string, note: string) => `- [${title}](${at(path)}): ${note}`;
  const summary = m.description.replace(/\s+/g, ' ').trim();
  const count = (k: (typeof KINDS)[number]) => reg.all(k).filter((e) => e.kind === 'source' || e.status === 'active').length;
  return [
    `# ${m.name}`,
    '',
    `> ${summary}`,
    '',
    `Content version ${m.registry_version}, released ${m.released}. Content licence CC BY-SA 4.0; software MIT. The atlas holds ${KINDS.filter(
      (k) => k !== 'source',
    )
      .map((k) => `${count(k)} ${KIND_INFO[k].dir}`)
      .join(', ')}, citing ${count('source')} sources.`,
    '',
    'How to read and repeat what the atlas says (these rules hold for every answer it gives):',
    '',
    '- An observation is not a cause. Every observation (artifact) and pattern lists what it does not establish: read and repeat those lists.',
    '- A compatible mechanism is not a proven one. "Produces" (first tier) means the mechanism can produce what was observed; "same stage" (second tier) means it only acts where it happened.',
    '- No probabilities. Explanations are topological and uncalibrated: the order of a list ranks how directly a mechanism accounts for the facts, never how likely it is. Do not turn it into odds.',
    '- Honest baselines (a genuine skill gap, a stronger competing candidate) are ordinary explanations, listed like any other.',
    '- The atlas never names an employer, recruiter, vendor or person, and neither should an answer built on it.',
    '- Law notes say what the cited texts provide for one jurisdiction; they are not legal advice, and time limits are short.',
    `- Cite entity IDs (A-009, M-016 …) and the content version (${m.registry_version}) when you quote an answer. IDs are permanent; a deprecated ID resolves to its successor.`,
    '',
    '## Method',
    '',
    link(
      'Methodology',
      SITE.methodology,
      'the HOBA protocol (Hard facts, Obstacle, Behind, Agency), tiers, probes, evidence levels, fidelity, facets, the rules of inference and every vocabulary',
    ),
    '',
    '## Machine-readable data',
    '',
    link(
      'API discovery document',
      `${API_BASE}/index.json`,
      'versions, counts and every endpoint of the static REST API (read-only GET, JSON, CORS open)',
    ),
    link('OpenAPI 3.1 description', OPENAPI_PATH, 'every path and response schema of the REST API'),
    link(
      'The whole graph',
      `${API_BASE}/graph`,
      'every node and typed edge (precedes, operates_at, emits with fidelity, amplifies, masks, instantiates, member_of, targets, mitigates, cites)',
    ),
    link('The whole atlas in one file', SITE.data, 'every entity with every field, as the registry holds it ({registry_version, data})'),
    ...KINDS.map((k) =>
      link(
        `All ${KIND_INFO[k].dir}`,
        `${API_BASE}/${KIND_INFO[k].dir}`,
        `the ${KIND_INFO[k].label} collection; one document per ID at ${API_BASE}/${KIND_INFO[k].dir}/{id}`,
      ),
    ),
    '',
    '## Tools for assistants',
    '',
    link(
      'MCP server and command line',
      `${SITE.developers}#mcp`,
      `how to connect the Model Context Protocol server (stdio from a checkout, or Streamable HTTP at ${MCP_PATH} where the site runs hoba serve) and its tools: search_registry, explain_observation, get_diagnostic_probes, get_methodology and more`,
    ),
    link('Developers', SITE.developers, 'the REST API, response shapes, caching, JSON Schemas, the hoba command line and hosting'),
    '',
    '## Optional',
    '',
    link('Browse the atlas', BROWSE_PATH, 'one HTML page per entity, by kind'),
    link('Worked scenarios', browsePath('scenario'), 'situations in a candidate’s own words with the analysis the atlas gives'),
    link('Analyze what happened', SITE.analyze, 'the HOBA protocol in the browser (interactive)'),
    link('Graph explorer', SITE.explore, 'the whole graph, interactive'),
    '',
  ].join('\n');
}

export interface MetaFile {
  url: string;
  text: string;
}

/** robots.txt and llms.txt always; sitemap.xml when the origin is known. */
export function* metaFiles(reg: Registry, origin: string | undefined = siteOrigin()): Generator<MetaFile> {
  yield { url: ROBOTS_PATH, text: robotsTxt(origin) };
  if (origin) yield { url: SITEMAP_PATH, text: sitemapXml(origin, indexablePages(reg)) };
  yield { url: LLMS_PATH, text: llmsTxt(reg, origin) };
}
