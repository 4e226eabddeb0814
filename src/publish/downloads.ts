// The bulk downloads: the whole atlas as files a researcher can load without the API. One generator,
// downloadFiles, makes them for the latest content (/downloads/latest/) and for every recorded release
// (/downloads/<version>/), from the registry data alone: no build date, no generator version, nothing but
// the data (and, for a release, the JSON Schemas of its own content model), so a release's files can be
// rebuilt byte for byte from what releases/ stores.
//
//   entities.ndjson              every entity, one JSON object a line, sorted by ID (valid against schemas/)
//   nodes.csv, edges.csv         the graph as two tables (RFC 4180: UTF-8, CRLF, a header row)
//   graph.graphml                the graph as GraphML, with typed keys for the node and edge columns
//   schemas/<kind>.schema.json   the JSON Schema of each kind's records (the files /schemas/ serves)
//   CITATION.cff                 how to cite this version (Citation File Format 1.2.0)
//   manifest.json                every file above with its media type, size, SHA-256 and columns; the licences
//   SHA256SUMS                   every file above and manifest.json, for `sha256sum -c SHA256SUMS`
//
// Entities are written as the registry holds them, never parsed again through today's schemas: a release
// recorded under an older content model keeps its own fields (and validates against its own schemas).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { KINDS, type Edge, type Entity, type Kind } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import { recordJsonSchema } from './responses.ts';
import { jsonBytes, utf8Of } from './json-text.ts';

/** Where the downloads are served: /downloads/latest/<file> and /downloads/<version>/<file>. */
export const DOWNLOADS_BASE = '/downloads';
export const LATEST = 'latest';

/** The URL directory of a version's downloads, or of the latest (with a trailing slash). */
export function downloadsUrl(version: string = LATEST): string {
  return `${DOWNLOADS_BASE}/${version}/`;
}

export interface DownloadFile {
  /** Path relative to the download directory, with forward slashes (e.g. schemas/artifact.schema.json). */
  file: string;
  media_type: string;
  bytes: Buffer;
}

export interface DownloadOptions {
  /** A release's own JSON Schemas (file name below schemas/ → bytes); today's model's by default. */
  schemas?: ReadonlyMap<string, Buffer>;
}

// ---------------------------------------------------------------------------------------------------
// Licences and citation facts, stated in every download's metadata (as the OpenAPI document does)

/** What each licence of the manifest is, for people and for machines. */
export const LICENCE_INFO = {
  'CC-BY-SA-4.0': { name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
  MIT: { name: 'the MIT License', url: 'https://spdx.org/licenses/MIT.html' },
} as const;

/** The licence statement, in words: the content is CC BY-SA 4.0, the code MIT. */
function licenceStatement(reg: Registry): string {
  const { content, code } = reg.manifest.licences;
  return (
    `The atlas content (its entities, graph and texts) is licensed under ${LICENCE_INFO[content].name} (${LICENCE_INFO[content].url}); ` +
    `the software that builds and serves it, under ${LICENCE_INFO[code].name} (${code}).`
  );
}

/** Who to credit: the project, since no person is named as an author. */
export const CREATOR = 'Hiring Obstacles & Barriers Atlas contributors';

/** Keywords of the dataset (CITATION.cff and the schema.org description). */
export const KEYWORDS = [
  'hiring',
  'recruitment',
  'job search',
  'candidate experience',
  'employment discrimination',
  'labour market',
  'knowledge graph',
] as const;

// ---------------------------------------------------------------------------------------------------
// Columns: one table drives nodes.csv and the node keys of graph.graphml (and their descriptions in the
// manifest and in the GraphML <key> elements), so the two never disagree.

type Value = string | number | boolean | readonly string[] | null | undefined;

export interface Column {
  name: string;
  /** GraphML attr.type; a list is written as its items joined by LIST_SEPARATOR, typed string. */
  type: 'string' | 'int' | 'boolean' | 'list';
  description: string;
  value(entity: Entity): Value;
}

/** Joins the items of a list-valued cell: IDs, stages and topics never contain it. */
export const LIST_SEPARATOR = '|';

/** A field of an entity as stored (a release under an older model may lack it). */
const field = (e: Entity, name: string): unknown => (e as unknown as Record<string, unknown>)[name];
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const facet = (e: Entity, name: string): string | undefined => {
  const f = field(e, 'facets');
  return f && typeof f === 'object' ? str((f as Record<string, unknown>)[name]) : undefined;
};
/** A field that only some kinds carry: read only for those, so that no kind's field leaks into another's column. */
const of =
  (kinds: readonly Kind[], read: (e: Entity) => Value) =>
  (e: Entity): Value =>
    kinds.includes(e.kind) ? read(e) : undefined;

export const NODE_COLUMNS: readonly Column[] = [
  {
    name: 'id',
    type: 'string',
    description: 'Permanent ID: a kind letter, a hyphen and a number (A-001); never reused',
    value: (e) => e.id,
  },
  { name: 'kind', type: 'string', description: `Entity kind: ${KINDS.join(', ')}`, value: (e) => e.kind },
  {
    name: 'title',
    type: 'string',
    description: 'Short human-readable name (for a source, the title of the work)',
    value: (e) => str(field(e, 'title')),
  },
  {
    name: 'summary',
    type: 'string',
    description: 'One or two sentences saying what this is (for a source, its paraphrased finding)',
    value: (e) => (e.kind === 'source' ? str(field(e, 'finding')) : str(field(e, 'summary'))),
  },
  {
    name: 'status',
    type: 'string',
    description:
      'active or deprecated (deprecated IDs keep resolving); for a source: current, superseded, contested, withdrawn or repealed',
    value: (e) => str(field(e, 'status')),
  },
  {
    name: 'superseded_by',
    type: 'string',
    description: 'The successor of a deprecated entity or a superseded source',
    value: (e) => str(field(e, 'superseded_by')),
  },
  {
    name: 'stages',
    type: 'list',
    description: `Funnel stages: where an artifact is observed, a barrier’s stage, or the stage a scenario names (joined by ${LIST_SEPARATOR})`,
    value: (e) => {
      if (e.kind === 'artifact') return strings(field(e, 'stages'));
      if (e.kind === 'barrier') return strings([field(e, 'stage')]);
      if (e.kind === 'scenario') {
        const input = field(e, 'input');
        return strings([input && typeof input === 'object' ? (input as Record<string, unknown>)['stage'] : undefined]);
      }
      return undefined;
    },
  },
  {
    name: 'order',
    type: 'int',
    description: 'Barrier: position in the funnel (a barrier that precedes another has a lower order)',
    value: of(['barrier'], (e) => num(field(e, 'order'))),
  },
  { name: 'family', type: 'string', description: 'Mechanism: its family', value: of(['mechanism'], (e) => str(field(e, 'family'))) },
  {
    name: 'facet_actor',
    type: 'string',
    description: 'Mechanism facet: who or what drives it',
    value: of(['mechanism'], (e) => facet(e, 'actor')),
  },
  {
    name: 'facet_nature',
    type: 'string',
    description: 'Mechanism facet: rule, incentive, bias, noise or void',
    value: of(['mechanism'], (e) => facet(e, 'nature')),
  },
  {
    name: 'facet_visibility',
    type: 'string',
    description: 'Mechanism facet: whether a candidate can see it operate',
    value: of(['mechanism'], (e) => facet(e, 'visibility')),
  },
  {
    name: 'facet_removability',
    type: 'string',
    description: 'Mechanism facet: who can remove or work around it',
    value: of(['mechanism'], (e) => facet(e, 'removability')),
  },
  {
    name: 'honest_baseline',
    type: 'boolean',
    description: 'Mechanism: true for the ordinary explanations that always stay on the table (skill gap, stronger competitor)',
    value: of(['mechanism'], (e) => bool(field(e, 'honest_baseline'))),
  },
  {
    name: 'evidence_level',
    type: 'string',
    description:
      'Mechanism, pattern, loop, intervention: established, supported, hypothesis or illustrative (for an intervention: how well its target is evidenced)',
    value: (e) => str(field(e, 'evidence_level')),
  },
  {
    name: 'effect_level',
    type: 'string',
    description: 'Intervention: how well the evidence says the change works (established, supported, mixed, contested, unmeasured)',
    value: of(['intervention'], (e) => {
      const effect = field(e, 'effect');
      return effect && typeof effect === 'object' ? str((effect as Record<string, unknown>)['level']) : undefined;
    }),
  },
  {
    name: 'shape',
    type: 'string',
    description: 'Pattern: the kind of configuration',
    value: of(['pattern'], (e) => str(field(e, 'shape'))),
  },
  {
    name: 'actor',
    type: 'string',
    description: 'Intervention: the system actor who makes the change',
    value: of(['intervention'], (e) => str(field(e, 'actor'))),
  },
  {
    name: 'scope',
    type: 'string',
    description: 'Intervention: how far the change reaches',
    value: of(['intervention'], (e) => str(field(e, 'scope'))),
  },
  {
    name: 'cost',
    type: 'string',
    description: 'Intervention: rough cost of making the change',
    value: of(['intervention'], (e) => str(field(e, 'cost'))),
  },
  {
    name: 'year',
    type: 'int',
    description: 'Source: year of publication (empty for undated guidance)',
    value: of(['source'], (e) => num(field(e, 'year'))),
  },
  {
    name: 'source_type',
    type: 'string',
    description: 'Source: research, survey, reporting, primary or legal',
    value: of(['source'], (e) => str(field(e, 'type'))),
  },
  {
    name: 'source_url',
    type: 'string',
    description: 'Source: where the work can be read',
    value: of(['source'], (e) => str(field(e, 'url'))),
  },
  { name: 'topics', type: 'list', description: `Coverage topics (joined by ${LIST_SEPARATOR})`, value: (e) => strings(field(e, 'topics')) },
  {
    name: 'sources',
    type: 'list',
    description: `Source IDs the entity cites (joined by ${LIST_SEPARATOR}); also the cites edges`,
    value: (e) => strings(field(e, 'sources')),
  },
];

export interface EdgeColumn {
  name: string;
  type: 'string';
  description: string;
  value(edge: Edge): string | undefined;
}

export const EDGE_COLUMNS: readonly EdgeColumn[] = [
  { name: 'source', type: 'string', description: 'ID of the entity the edge leaves', value: (e) => e.source },
  { name: 'target', type: 'string', description: 'ID of the entity the edge enters', value: (e) => e.target },
  {
    name: 'relation',
    type: 'string',
    description:
      'precedes B→B, operates_at M→B, emits M→A, amplifies M→M, masks M→M, instantiates A|M→P, member_of M→L, targets I→M|B|L, mitigates I→P|L, observes S→A, cites *→E',
    value: (e) => e.relation,
  },
  {
    name: 'fidelity',
    type: 'string',
    description: 'emits only: how faithfully the artifact reflects the mechanism (direct, euphemism, distortion, noise, void)',
    value: (e) => e.fidelity,
  },
];

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Formats

/** Each item of `items` through `f`, when the iteration reaches it (utf8Of's parts, made one at a time). */
function* map<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** Every entity as it is stored, one compact JSON object a line, sorted by ID; LF after each line. */
function entitiesNdjson(reg: Registry): Buffer {
  return utf8Of(map(reg.entities, (e) => JSON.stringify(e) + '\n'));
}

/**
 * RFC 4180: a header row, CRLF after every record (the last included), a field quoted when it holds a
 * comma, a double quote, CR or LF, and a double quote inside doubled. UTF-8 without a byte-order mark
 * (the RFC knows none, and a BOM becomes part of the first header name in many readers).
 */
export function csv(rows: Iterable<readonly string[]>): Buffer {
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return utf8Of(map(rows, (row) => row.map(cell).join(',') + '\r\n'));
}

/** A cell's text: empty when the column does not apply. */
function cellText(v: Value): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.join(LIST_SEPARATOR);
  return String(v);
}

export function nodesCsv(reg: Registry): Buffer {
  return csv(
    (function* () {
      yield NODE_COLUMNS.map((c) => c.name);
      for (const e of reg.entities) yield NODE_COLUMNS.map((c) => cellText(c.value(e)));
    })(),
  );
}

function edgesCsv(reg: Registry): Buffer {
  return csv(
    (function* () {
      yield EDGE_COLUMNS.map((c) => c.name);
      for (const edge of reg.edges) yield EDGE_COLUMNS.map((c) => c.value(edge) ?? '');
    })(),
  );
}

/** Characters XML 1.0 cannot carry at all (not even as references). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it matches
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Escapes text for XML content or a double-quoted attribute; CR, LF and tab as references so they round-trip. */
function xml(text: string, where: string): string {
  const bad = NOT_XML.exec(text);
  if (bad) {
    throw new Error(
      `${where} holds the control character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, which XML (graph.graphml) cannot carry. Remove it from the content file.`,
    );
  }
  return text.replace(/[&<>"\r\n\t]/g, (c) => XML_ESCAPES[c]!);
}
const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

const GRAPHML_TYPE = { string: 'string', list: 'string', int: 'int', boolean: 'boolean' } as const;

/** Graph-level data of graph.graphml (key id → [attr.name, value]). */
function graphData(reg: Registry): Array<{ name: string; description: string; value: string }> {
  const m = reg.manifest;
  return [
    { name: 'name', description: 'Name of the dataset', value: m.name },
    { name: 'registry_version', description: 'Version of the atlas content (semver)', value: m.registry_version },
    { name: 'released', description: 'Release date of this content version', value: m.released },
    { name: 'licence', description: 'Licence of the content (SPDX)', value: m.licences.content },
    { name: 'software_licence', description: 'Licence of the software (SPDX)', value: m.licences.code },
    { name: 'licence_statement', description: 'The licences, in words', value: licenceStatement(reg) },
  ];
}

/**
 * GraphML (http://graphml.graphdrawing.org/): a directed graph whose nodes carry NODE_COLUMNS and whose
 * edges carry relation and fidelity, as typed <key>s (int, boolean, string; lists joined by
 * LIST_SEPARATOR). A column that does not apply to a node is left out of it. Edge IDs are
 * source:relation:target, stable across versions.
 */
export function graphml(reg: Registry): Buffer {
  return utf8Of(map(graphmlLines(reg), (line) => line + '\n'));
}

function* graphmlLines(reg: Registry): Generator<string> {
  const m = reg.manifest;
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">';
  yield `  <desc>${xml(`${m.name} ${m.registry_version} (released ${m.released}): every entity as a node and every typed, directed edge. ${licenceStatement(reg)}`, 'the manifest')}</desc>`;
  const key = (id: string, domain: 'graph' | 'node' | 'edge', name: string, type: string, description: string) =>
    `  <key id="${id}" for="${domain}" attr.name="${name}" attr.type="${type}"><desc>${xml(description, `the ${name} column`)}</desc></key>`;
  const graph = graphData(reg);
  for (const g of graph) yield key(`g_${g.name}`, 'graph', g.name, 'string', g.description);
  for (const c of NODE_COLUMNS) if (c.name !== 'id') yield key(`n_${c.name}`, 'node', c.name, GRAPHML_TYPE[c.type], c.description);
  for (const c of EDGE_COLUMNS)
    if (c.name !== 'source' && c.name !== 'target') yield key(`e_${c.name}`, 'edge', c.name, GRAPHML_TYPE[c.type], c.description);
  yield '  <graph id="atlas" edgedefault="directed">';
  // Graph-level data comes first in <graph>, before any node (readers stop looking for it at the first node).
  for (const g of graph) yield `    <data key="g_${g.name}">${xml(g.value, 'the manifest')}</data>`;
  for (const e of reg.entities) {
    yield `    <node id="${xml(e.id, e.id)}">`;
    for (const c of NODE_COLUMNS) {
      if (c.name === 'id') continue;
      const v = c.value(e);
      if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
      yield `      <data key="n_${c.name}">${xml(cellText(v), `${e.id} (${c.name})`)}</data>`;
    }
    yield '    </node>';
  }
  for (const edge of reg.edges) {
    const id = `${edge.source}:${edge.relation}:${edge.target}`;
    yield `    <edge id="${xml(id, id)}" source="${xml(edge.source, id)}" target="${xml(edge.target, id)}">`;
    for (const c of EDGE_COLUMNS) {
      if (c.name === 'source' || c.name === 'target') continue;
      const v = c.value(edge);
      if (v !== undefined) yield `      <data key="e_${c.name}">${xml(v, `${id} (${c.name})`)}</data>`;
    }
    yield '    </edge>';
  }
  yield '  </graph>';
  yield '</graphml>';
}

/** YAML double-quoted scalar: JSON's string syntax is valid YAML 1.2. */
const yamlString = (s: string) => JSON.stringify(s);

/**
 * CITATION.cff (Citation File Format 1.2.0) for this content version. The copy at the repository root is
 * this file for the checkout's content (a test compares them). Several CFF licences would mean "either",
 * so `license` is the dataset's own (the content licence) and the message names the software's.
 */
function citationCff(reg: Registry): Buffer {
  const m = reg.manifest;
  const lines = [
    `# How to cite the ${m.name} (Citation File Format 1.2.0), generated from content/atlas.yaml.`,
    'cff-version: 1.2.0',
    `message: ${yamlString(`If you use this dataset, please cite it using these metadata. ${licenceStatement(reg)}`)}`,
    'type: dataset',
    `title: ${yamlString(m.name)}`,
    `abstract: ${yamlString(m.description)}`,
    `version: ${yamlString(m.registry_version)}`,
    `date-released: ${yamlString(m.released)}`,
    `license: ${yamlString(m.licences.content)}`,
    'authors:',
    `  - name: ${yamlString(CREATOR)}`,
    'keywords:',
    ...KEYWORDS.map((k) => `  - ${yamlString(k)}`),
  ];
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

// ---------------------------------------------------------------------------------------------------
// The download set

/** What each file is, for the manifest and the developer page. */
const DESCRIPTIONS: Record<string, string> = {
  'entities.ndjson':
    'Every entity with all its fields, one JSON object a line (newline-delimited JSON), sorted by ID; each line is valid against schemas/<kind>.schema.json',
  'nodes.csv': `Every entity as a row of the graph’s nodes (RFC 4180 CSV: UTF-8, CRLF line ends, a header row; list cells joined by ${LIST_SEPARATOR})`,
  'edges.csv': 'Every typed, directed edge of the graph as a row (RFC 4180 CSV: UTF-8, CRLF line ends, a header row)',
  'graph.graphml': 'The graph as GraphML: nodes with the columns of nodes.csv, edges with relation and fidelity, as typed keys',
  'CITATION.cff': 'How to cite this version (Citation File Format 1.2.0)',
  'manifest.json': 'This list: every file with its media type, size, SHA-256 and columns, and the licences',
};
const schemaDescription = (kind: string) => `JSON Schema (2020-12) of a ${kind} record, as the lines of entities.ndjson carry it`;

/**
 * The media types of the downloads, by extension; the site's type table (routes.ts PAGE_TYPES) takes them
 * from here. Every CSV of the site has a header row (RFC 4180's optional header parameter says so);
 * NDJSON and CFF (YAML, RFC 9512) are UTF-8 by definition, and GraphML declares its encoding.
 */
export const DOWNLOAD_MEDIA_TYPES = {
  '.ndjson': 'application/x-ndjson',
  '.csv': 'text/csv; charset=utf-8; header=present',
  '.graphml': 'application/graphml+xml',
  '.cff': 'application/yaml',
  // As every JSON document of the site (PAGE_TYPES has the same).
  '.json': 'application/json; charset=utf-8',
} as const;

/** The media type a download is served with; SHA256SUMS, which has no extension, is served as bytes. */
function mediaType(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot < 0) return 'application/octet-stream';
  const ext = name.slice(dot);
  const type = Object.hasOwn(DOWNLOAD_MEDIA_TYPES, ext) ? (DOWNLOAD_MEDIA_TYPES as Record<string, string>)[ext] : undefined;
  if (!type) throw new Error(`no media type for the download ${file}: add its extension to DOWNLOAD_MEDIA_TYPES`);
  return type;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const ManifestColumn = z.strictObject({ name: z.string(), type: z.enum(['string', 'int', 'boolean', 'list']), description: z.string() });

/** manifest.json: each file's checksum, and what the set is and may be used under. */
export const DownloadManifest = z
  .strictObject({
    name: z.string(),
    registry_version: z.string().regex(/^\d+\.\d+\.\d+$/),
    released: z.iso.date(),
    licences: z
      .strictObject({ software: z.literal('MIT'), content: z.literal('CC-BY-SA-4.0') })
      .describe('SPDX identifiers, as the API index says them'),
    licence_urls: z.strictObject({ software: z.url(), content: z.url() }),
    licence_statement: z.string(),
    cite: z.string().describe('The file that says how to cite this version'),
    files: z.array(
      z.strictObject({
        file: z.string().describe('Path relative to this manifest'),
        media_type: z.string(),
        bytes: z.int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        description: z.string(),
        columns: z
          .array(ManifestColumn)
          .optional()
          .describe('For a CSV file: its columns, in order (the node columns are also the node keys of graph.graphml)'),
      }),
    ),
  })
  .describe('manifest.json of a download directory');
export type DownloadManifest = z.infer<typeof DownloadManifest>;

const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

/**
 * Every download file of a registry, sorted by path: the data files, the JSON Schemas, CITATION.cff,
 * manifest.json (every other file's checksum, size and media type, the columns, the licences) and
 * SHA256SUMS (every file's checksum, manifest.json included, in `sha256sum` format).
 */
export function downloadFiles(reg: Registry, options: DownloadOptions = {}): DownloadFile[] {
  return [...downloadFilesOneByOne(reg, options)].sort(byFile);
}

/**
 * downloadFiles, one file at a time and not sorted: each data file is made when the iteration reaches it,
 * and only its size and checksum are kept for manifest.json and SHA256SUMS, which come last. A build that
 * writes each file and lets it go holds one at a time (at 100,000 entities entities.ndjson alone is
 * 370 MB).
 */
export function* downloadFilesOneByOne(reg: Registry, options: DownloadOptions = {}): Generator<DownloadFile> {
  const columns = (cols: ReadonlyArray<Column | EdgeColumn>) => cols.map(({ name, type, description }) => ({ name, type, description }));
  const data: Array<{ file: string; make: () => Buffer; description: string; columns?: z.infer<typeof ManifestColumn>[] }> = [
    { file: 'entities.ndjson', make: () => entitiesNdjson(reg), description: DESCRIPTIONS['entities.ndjson']! },
    { file: 'nodes.csv', make: () => nodesCsv(reg), description: DESCRIPTIONS['nodes.csv']!, columns: columns(NODE_COLUMNS) },
    { file: 'edges.csv', make: () => edgesCsv(reg), description: DESCRIPTIONS['edges.csv']!, columns: columns(EDGE_COLUMNS) },
    { file: 'graph.graphml', make: () => graphml(reg), description: DESCRIPTIONS['graph.graphml']! },
    { file: 'CITATION.cff', make: () => citationCff(reg), description: DESCRIPTIONS['CITATION.cff']! },
  ];
  const schemas = options.schemas ?? new Map(KINDS.map((k) => [`${k}.schema.json`, jsonBytes(recordJsonSchema(k))]));
  for (const [name, bytes] of schemas) {
    // A copy: every file made here is its consumer's own (the build hands large ones over to its writer).
    data.push({
      file: `schemas/${name}`,
      make: () => Buffer.from(bytes),
      description: schemaDescription(name.replace(/\.schema\.json$/, '')),
    });
  }
  data.sort(byFile);

  const made: Array<{ file: string; bytes: number; sha256: string }> = [];
  for (const d of data) {
    const bytes = d.make();
    made.push({ file: d.file, bytes: bytes.length, sha256: sha256(bytes) });
    yield { file: d.file, media_type: mediaType(d.file), bytes };
  }
  const m = reg.manifest;
  const manifest = DownloadManifest.parse({
    name: m.name,
    registry_version: m.registry_version,
    released: m.released,
    licences: { software: m.licences.code, content: m.licences.content },
    licence_urls: { software: LICENCE_INFO[m.licences.code].url, content: LICENCE_INFO[m.licences.content].url },
    licence_statement: licenceStatement(reg),
    cite: 'CITATION.cff',
    files: data.map((d, i) => ({
      file: d.file,
      media_type: mediaType(d.file),
      bytes: made[i]!.bytes,
      sha256: made[i]!.sha256,
      description: d.description,
      ...(d.columns ? { columns: d.columns } : {}),
    })),
  });
  const manifestBytes = jsonBytes(manifest);
  made.push({ file: 'manifest.json', bytes: manifestBytes.length, sha256: sha256(manifestBytes) });
  yield { file: 'manifest.json', media_type: mediaType('manifest.json'), bytes: manifestBytes };
  // Two spaces between checksum and name: what `sha256sum` writes and `sha256sum -c` reads.
  const sums = made
    .sort(byFile)
    .map((f) => `${f.sha256}  ${f.file}\n`)
    .join('');
  yield { file: 'SHA256SUMS', media_type: mediaType('SHA256SUMS'), bytes: Buffer.from(sums, 'utf8') };
}

/** The file names of a download set and what each is, in the order of downloadFiles, for pages and the dataset description. */
export function downloadCatalogue(): Array<{ file: string; media_type: string; description: string }> {
  const files = [
    ...Object.keys(DESCRIPTIONS).map((file) => ({ file, media_type: mediaType(file), description: DESCRIPTIONS[file]! })),
    ...KINDS.map((k) => ({
      file: `schemas/${k}.schema.json`,
      media_type: mediaType(`schemas/${k}.schema.json`),
      description: schemaDescription(k),
    })),
    { file: 'SHA256SUMS', media_type: mediaType('SHA256SUMS'), description: 'SHA-256 of every file, for sha256sum -c SHA256SUMS' },
  ];
  return files.sort(byFile);
}
