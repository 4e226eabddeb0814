// The route table: every URL the site answers, the file that holds it, its response schema and its
// headers. The static build, the OpenAPI paths, the host files (_headers, _redirects, _nginx.conf),
// `hoba serve`, mirror parity and the contract tests all read this one table.
//
// A static host cannot serve /api/v1/artifacts and /api/v1/artifacts/A-001 as plain files (one would be a
// file and a directory at once), so every API document is stored as <url>.json and the host maps the
// extensionless URL onto it: the files are also reachable at their .json names on any plain host.
import type { z } from 'zod';
import { KIND_INFO, idPattern, type Entity, type Kind } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import {
  changelogBody,
  collectionBody,
  graphBody,
  indexBody,
  itemBody,
  problemBody,
  releaseBody,
  releasesBody,
  type BuildInfo,
  type ReleaseUrls,
} from './documents.ts';
import { ENCODINGS } from '../http/encodings.ts';
import { DOWNLOAD_MEDIA_TYPES, downloadsUrl } from './downloads.ts';
import {
  ChangelogResponse,
  COLLECTION_RESPONSES,
  GraphResponse,
  IndexResponse,
  ITEM_RESPONSES,
  ReleaseListResponse,
  ReleaseResponse,
} from './responses.ts';

/** Path prefix of the REST API; the OpenAPI `servers` entry. */
export const API_BASE = '/api/v1';
export const OPENAPI_PATH = '/openapi.json';
/** Documents served for errors (RFC 9457 problem details), as site-relative files. */
export const NOT_FOUND_FILE = 'problems/not-found.json';
export const METHOD_NOT_ALLOWED_FILE = 'problems/method-not-allowed.json';
/** The HTML page served for unknown paths outside the API. */
export const NOT_FOUND_PAGE = '404.html';
/** The file in a site root that says a build wrote it, and what (site-dir.ts). */
export const SITE_MARKER = '.hoba-site.json';
/** Host configuration the build writes into the site root, and the marker; hosts read them, nobody is
 * served them. */
export const HOST_FILES = ['_headers', '_redirects', '_nginx.conf', SITE_MARKER] as const;
/** The names of precompressed variants (<file>.br, <file>.gz; compress.ts): served only in place of their
 * file, to clients that accept them, never at their own URLs. No site file has a URL ending so (build.ts). */
export const VARIANT_SUFFIX = new RegExp(`(${ENCODINGS.map((e) => e.suffix.replace('.', '\\.')).join('|')})$`);
/** Where `hoba serve` mounts the hosted MCP server (Streamable HTTP, POST); static hosts do not serve it. */
/** The methods every path answers; anything else gets 405, except OPTIONS on the paths any origin may read,
 * which is a CORS preflight (PREFLIGHT_HEADERS). */
export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;

export interface ApiRoute {
  /** Path template below API_BASE, as in the OpenAPI document, e.g. /artifacts/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** Schema of the 200 response (named in responses.ts, so it becomes an OpenAPI component). */
  response: z.ZodType;
  /** For single-item routes: the kind whose IDs fill {id}. */
  itemKind?: Kind;
  /** For other routes with a path parameter (e.g. {version}): its name, its pattern and an example. */
  param?: PathParam;
  /** Listed in the interface contract's seed table (SPEC §4.1); the developer page lists these first. */
  seed: boolean;
  /**
   * Every document the route serves: one per ID for item routes, one otherwise. Each is made when the
   * iteration reaches it, so that a build that writes each and lets it go holds one at a time.
   */
  documents(reg: Registry, info: BuildInfo): Iterable<{ id?: string; body: unknown }>;
}

/** A path parameter other than an entity ID. */
interface PathParam {
  /** As in the path template: {name}. */
  name: string;
  /** Regular expression source of a valid value, without anchors. */
  pattern: string;
  description: string;
  /** A value for the OpenAPI example and the developer page. */
  example(reg: Registry): string;
}

/** Tags of the OpenAPI document, in order, with their descriptions. */
export const TAGS: Array<{ name: string; description: string }> = [
  { name: 'Discovery', description: 'What this API serves: versions, counts and endpoints.' },
  { name: 'Artifacts', description: 'Artifacts (observations): what a candidate directly sees or receives.' },
  { name: 'Barriers', description: 'Barriers: the structural gates of the hiring funnel, which form a DAG.' },
  { name: 'Mechanisms', description: 'Mechanisms: the processes that make a barrier reject, stall or misclassify, with their facets.' },
  { name: 'Patterns', description: 'Recurring configurations of artifacts and mechanisms worth naming.' },
  { name: 'Loops', description: 'Persistent causal cycles among mechanisms (strongly connected components).' },
  { name: 'Interventions', description: 'Changes by a system actor that target mechanisms, barriers, patterns or loops.' },
  {
    name: 'Scenarios',
    description:
      'Worked situations in a candidate’s plain words, with the observations they map to and the analysis expected of them: presets for explain and regression tests.',
  },
  { name: 'Sources', description: 'The evidence the atlas cites: studies, surveys, statutes and reports.' },
  { name: 'Graph', description: 'The whole atlas as typed nodes and edges.' },
  {
    name: 'Releases',
    description:
      'Every recorded release of the content, immutable, with its bulk downloads and their SHA-256 checksums, and the changelog between releases.',
  },
];

/** What each kind's collection and item routes say about themselves. */
const KIND_ROUTES: Record<Kind, { tag: string; plural: string; list: string; one: string; seed: { list: boolean; item: boolean } }> = {
  artifact: {
    tag: 'Artifacts',
    plural: 'Artifacts',
    list: 'All artifacts / observations',
    one: 'One artifact',
    seed: { list: true, item: true },
  },
  barrier: {
    tag: 'Barriers',
    plural: 'Barriers',
    list: 'All barriers of the funnel DAG',
    one: 'One barrier',
    seed: { list: true, item: true },
  },
  mechanism: {
    tag: 'Mechanisms',
    plural: 'Mechanisms',
    list: 'All mechanisms with facets',
    one: 'One mechanism',
    seed: { list: true, item: true },
  },
  pattern: {
    tag: 'Patterns',
    plural: 'Patterns',
    list: 'All recurring graph patterns',
    one: 'One pattern',
    seed: { list: true, item: false },
  },
  loop: { tag: 'Loops', plural: 'Loops', list: 'All strongly connected causal loops', one: 'One loop', seed: { list: true, item: false } },
  intervention: {
    tag: 'Interventions',
    plural: 'Interventions',
    list: 'All targeted system interventions',
    one: 'One intervention',
    seed: { list: true, item: false },
  },
  scenario: {
    tag: 'Scenarios',
    plural: 'Scenarios',
    list: 'All worked scenarios',
    one: 'One scenario',
    seed: { list: false, item: false },
  },
  source: { tag: 'Sources', plural: 'Sources', list: 'All cited sources', one: 'One source', seed: { list: false, item: false } },
};

const capitalised = (kind: Kind) => kind[0]!.toUpperCase() + kind.slice(1);

function collectionRoute(kind: Kind): ApiRoute {
  const k = KIND_ROUTES[kind];
  return {
    path: `/${KIND_INFO[kind].dir}`,
    operationId: `list${k.plural}`,
    summary: k.list,
    description: `Every ${KIND_INFO[kind].label}, deprecated ones included (they keep resolving), sorted by ID.`,
    tag: k.tag,
    response: COLLECTION_RESPONSES[kind],
    seed: k.seed.list,
    documents: (reg) => [{ body: collectionBody(reg, kind) }],
  };
}

function itemRoute(kind: Kind): ApiRoute {
  const k = KIND_ROUTES[kind];
  return {
    path: `/${KIND_INFO[kind].dir}/{id}`,
    operationId: `get${capitalised(kind)}`,
    summary: k.one,
    description: `One ${KIND_INFO[kind].label} with the typed edges that touch it. A deprecated ID still resolves and names its successor in superseded_by. An unknown ID is a 404 problem.`,
    tag: k.tag,
    response: ITEM_RESPONSES[kind],
    itemKind: kind,
    seed: k.seed.item,
    *documents(reg) {
      for (const e of reg.all(kind)) yield { id: e.id, body: itemBody(reg, e as Entity) };
    },
  };
}

export const API_ROUTES: readonly ApiRoute[] = [
  {
    path: '/index.json',
    operationId: 'getIndex',
    summary: 'Discovery document',
    description: 'Name, versions, licences, counts and every endpoint of this API. Also served at the base URL with a trailing slash.',
    tag: 'Discovery',
    response: IndexResponse,
    seed: false,
    documents: (reg, info) => [{ body: indexBody(reg, info, ENDPOINTS, OPENAPI_PATH) }],
  },
  ...(['artifact', 'barrier', 'mechanism', 'pattern', 'loop', 'intervention', 'scenario', 'source'] as const).flatMap((kind) => [
    collectionRoute(kind),
    itemRoute(kind),
  ]),
  {
    path: '/graph',
    operationId: 'getGraph',
    summary: 'Complete graph: nodes and edges',
    description:
      'Every entity as a node (id, kind, title and key facets) and every typed, directed edge (source, target, relation, and fidelity for emits).',
    tag: 'Graph',
    response: GraphResponse,
    seed: true,
    documents: (reg) => [{ body: graphBody(reg) }],
  },
  {
    path: '/releases',
    operationId: 'listReleases',
    summary: 'All recorded releases',
    description:
      'Every recorded release of the atlas content, newest first, with the latest named. A release never changes once recorded; its files stay downloadable under /downloads/<version>/.',
    tag: 'Releases',
    response: ReleaseListResponse,
    seed: false,
    documents: (reg, info) => [{ body: releasesBody(reg, info.releases ?? [], RELEASE_URLS) }],
  },
  {
    path: '/releases/{version}',
    operationId: 'getRelease',
    summary: 'One release',
    description:
      'One recorded release: its content hash, what changed since the release before it, and every download file with its SHA-256. An unrecorded version is a 404 problem.',
    tag: 'Releases',
    response: ReleaseResponse,
    param: {
      name: 'version',
      // No backslash: the pattern also goes into the nginx snippet's quoted location regex.
      pattern: '[0-9]+[.][0-9]+[.][0-9]+',
      description: 'A recorded registry version (semver), e.g. the latest in /releases.',
      example: (reg) => reg.version,
    },
    seed: false,
    documents: (reg, info) =>
      (info.releases ?? []).map((r, i, all) => ({ id: r.record.version, body: releaseBody(reg, all, i, RELEASE_URLS) })),
  },
  {
    path: '/changelog',
    operationId: 'getChangelog',
    summary: 'Changelog between releases',
    description:
      'What changed in each recorded release, newest first, each compared with the release before it: IDs added and removed, entities changed (which fields), deprecated or superseded, and restored, with the semver bump the changes needed. hoba diff gives the values before and after.',
    tag: 'Releases',
    response: ChangelogResponse,
    seed: false,
    documents: (reg, info) => [{ body: changelogBody(reg, info.releases ?? []) }],
  },
];

/** Where the release documents and files are served. */
const RELEASE_URLS: ReleaseUrls = {
  release: (version) => `${API_BASE}/releases/${version}`,
  downloads: (version) => downloadsUrl(version),
  changelog: `${API_BASE}/changelog`,
};

const ENDPOINTS = API_ROUTES.map((r) => ({ path: `${API_BASE}${r.path}`, operation_id: r.operationId, summary: r.summary }));

/** Extra URLs that serve an API document: the base URL with a trailing slash is the discovery document. */
export const API_ALIASES: ReadonlyArray<{ url: string; target: string }> = [{ url: `${API_BASE}/`, target: `${API_BASE}/index.json` }];

/** The path parameter of a route, as it appears in its template: {id} or {<param>}. */
function placeholder(route: ApiRoute): string {
  return route.param ? `{${route.param.name}}` : '{id}';
}

/** The public URL of a route's document. */
export function urlOf(route: ApiRoute, id?: string): string {
  return `${API_BASE}${id === undefined ? route.path : route.path.replace(placeholder(route), id)}`;
}

/** The site-relative file that holds the document of an API URL: the URL plus .json. */
export function fileOfUrl(url: string): string {
  const path = url.replace(/^\//, '');
  return path.endsWith('.json') ? path : `${path}.json`;
}

/** The site-root file a page URL is written to: /a/b/ → a/b/index.html. */
export const fileOfPage = (url: string) => (url.endsWith('/') ? `${url.slice(1)}index.html` : url.slice(1));

/** The ID pattern of an item route without anchors, for embedding in a larger pattern. */
export function idRegexSource(kind: Kind): string {
  return idPattern(kind).replace(/^\^/, '').replace(/\$$/, '');
}

/** A regular expression matching the URLs of a route (the {id} or other parameter captured). */
export function urlPattern(route: ApiRoute): string {
  const path = (API_BASE + route.path).replace(/\./g, '\\.');
  const capture = route.itemKind ? idRegexSource(route.itemKind) : route.param?.pattern;
  return `^${capture === undefined ? path : path.replace(placeholder(route), `(${capture})`)}$`;
}

const COMPILED = API_ROUTES.map((route) => ({ route, regex: new RegExp(urlPattern(route)) }));

// ---------------------------------------------------------------------------------------------------
// Headers

/** Freshness for a read-only API whose documents change only when a new content version is published:
 * caches may reuse a document for five minutes, then revalidate cheaply with the ETag (304), and may
 * serve a stale copy for a day while revalidating or while the origin is down. */
export const API_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400, stale-if-error=86400';
/** Errors are cached briefly: an unknown ID may exist in the next release. */
export const ERROR_CACHE_CONTROL = 'public, max-age=60';

/** Any origin may read the documents (Access-Control-Allow-Origin), ETag included: CORS hides every
 * response header outside a short safelist unless it is exposed, and a script needs the ETag to
 * revalidate with If-None-Match. */
const EXPOSED_HEADERS = 'ETag';

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': API_CACHE_CONTROL,
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
} as const;

const PROBLEM_HEADERS = {
  'Content-Type': 'application/problem+json; charset=utf-8',
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': ERROR_CACHE_CONTROL,
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
} as const;

// The security headers of every response (CONTENT_SECURITY_POLICY, SECURITY_HEADERS) are in security.ts,
// a module of its own that the MCP endpoints import too.
import { SECURITY_HEADERS } from '../http/security.ts';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../http/security.ts';

/** The answer to a CORS preflight (OPTIONS) on a path that any origin may read. A browser sends one
 * before a cross-origin request with a header outside the CORS safelist, such as If-None-Match; without
 * it the request fails. Allowed request headers: the conditional and cache headers that make sense on a
 * read-only API. Browsers cap the max-age (Chromium at two hours, Firefox at a day): a day lets each keep
 * the answer as long as it will. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': [...ALLOWED_METHODS, 'OPTIONS'].join(', '),
  'Access-Control-Allow-Headers': 'Accept, Accept-Language, Cache-Control, If-Modified-Since, If-None-Match, Pragma',
  'Access-Control-Max-Age': '86400',
};

export interface HeaderRule {
  /** An exact URL path, or a prefix ending in /* (the _headers convention). */
  pattern: string;
  headers: Readonly<Record<string, string>>;
}

/** Headers by URL path; a path takes the first rule that matches. Paths no rule matches (the HTML pages)
 * get the host's defaults. ETags come from the host (and from `hoba serve`). */
export const HEADER_RULES: readonly HeaderRule[] = [
  { pattern: `/${METHOD_NOT_ALLOWED_FILE}`, headers: { ...PROBLEM_HEADERS, Allow: ALLOWED_METHODS.join(', ') } },
  { pattern: `${API_BASE}/*`, headers: JSON_HEADERS },
  { pattern: OPENAPI_PATH, headers: JSON_HEADERS },
  { pattern: '/schemas/*', headers: JSON_HEADERS },
  { pattern: '/problems/*', headers: PROBLEM_HEADERS },
];

function headerRuleFor(urlPath: string): HeaderRule | undefined {
  return HEADER_RULES.find((rule) =>
    rule.pattern.endsWith('/*') ? urlPath.startsWith(rule.pattern.slice(0, -1)) : urlPath === rule.pattern,
  );
}

/** Whether any origin may read a rule's paths; those paths also answer CORS preflights. */
export function isCrossOrigin(rule: HeaderRule): boolean {
  return rule.headers['Access-Control-Allow-Origin'] === '*';
}

/** The headers of a 204 answer to OPTIONS on a URL path, or undefined when the path is not cross-origin
 * readable (the HTML pages): there OPTIONS is a 405 like any other method. */
export function preflightFor(urlPath: string): Readonly<Record<string, string>> | undefined {
  const rule = headerRuleFor(urlPath);
  return rule && isCrossOrigin(rule) ? PREFLIGHT_HEADERS : undefined;
}

// A Map, not an object literal: looked up by a file's extension, and ".constructor" must find nothing.
/** Media types of the site's files by extension: `hoba serve`, the nginx snippet and the headers file use this one table. */
export const PAGE_TYPES = new Map<string, string>([
  ['.html', 'text/html; charset=utf-8'],
  ['.json', 'application/json; charset=utf-8'],
  ['.txt', 'text/plain; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.ico', 'image/x-icon'],
  ['.css', 'text/css; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.xml', 'application/xml; charset=utf-8'],
  // The formats of the bulk downloads (.ndjson, .csv, .graphml, .cff), where downloads.ts defines them.
  ...Object.entries(DOWNLOAD_MEDIA_TYPES),
]);

/** The headers of the response that serves a site-relative file. */
export function headersForFile(file: string): Record<string, string> {
  const rule = headerRuleFor(`/${file}`);
  if (rule) return { ...rule.headers, ...SECURITY_HEADERS };
  const ext = file.slice(file.lastIndexOf('.'));
  return { 'Content-Type': PAGE_TYPES.get(ext) ?? 'application/octet-stream', ...SECURITY_HEADERS };
}

// ---------------------------------------------------------------------------------------------------
// Request routing (what `hoba serve` does, and what the host files tell a CDN or nginx to do)

export type Resolution =
  /** Serve this site-relative file if it exists; otherwise it is a 404 of `api`'s flavour. */
  | { kind: 'file'; file: string; api: boolean }
  /** Directory: redirect to the path with a trailing slash when it exists. */
  | { kind: 'directory'; file: string; api: boolean }
  /** Never served (host configuration, precompressed variants): a 404 of `api`'s flavour. */
  | { kind: 'hidden'; api: boolean };

function isApiPath(urlPath: string): boolean {
  return urlPath === API_BASE || urlPath.startsWith(`${API_BASE}/`);
}

/** Where a (decoded, already sanitised) URL path leads. */
export function resolveUrl(urlPath: string): Resolution {
  const api = isApiPath(urlPath);
  if (VARIANT_SUFFIX.test(urlPath)) return { kind: 'hidden', api };
  for (const { regex } of COMPILED) if (regex.test(urlPath)) return { kind: 'file', file: fileOfUrl(urlPath), api };
  const alias = API_ALIASES.find((a) => a.url === urlPath);
  if (alias) return { kind: 'file', file: fileOfUrl(alias.target), api };
  if ((HOST_FILES as readonly string[]).includes(urlPath.slice(1))) return { kind: 'hidden', api: false };
  if (urlPath.endsWith('/')) return { kind: 'file', file: `${urlPath.slice(1)}index.html`, api };
  return { kind: 'directory', file: urlPath.slice(1), api };
}

/** An API document of a registry: its URL, its file and its body (src/publish/build.ts makes them one by one). */
export interface ApiDocument {
  route: ApiRoute;
  url: string;
  file: string;
  body: unknown;
}

/** The error documents, built from the same registry (they carry its version). */
export function problemDocuments(reg: Registry): Array<{ file: string; body: unknown }> {
  return [
    {
      file: NOT_FOUND_FILE,
      body: problemBody(
        reg,
        404,
        `Nothing at this path of the API. IDs are permanent and never reused; check the ID's letter and number (e.g. A-001, M-004), list a collection such as ${API_BASE}/artifacts, or read ${API_BASE}/index.json for every endpoint.`,
      ),
    },
    {
      file: METHOD_NOT_ALLOWED_FILE,
      body: problemBody(
        reg,
        405,
        `This site is read-only: it answers ${ALLOWED_METHODS.join(' and ')} only (and OPTIONS, the CORS preflight, on the API).`,
      ),
    },
  ];
}
