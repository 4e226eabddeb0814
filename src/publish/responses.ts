// The shape of every document the static API serves, as zod. The build parses what it writes through
// these, the OpenAPI components and the published JSON Schemas are derived from them, and the contract
// tests validate against the derived schemas: each shape is written once, here.
//
// Envelopes (all carry registry_version):
//   collection  { registry_version, kind, count, items: [record…] }          items sorted by ID
//   single item { registry_version, kind, item: record, links: { outgoing, incoming }, citations: [citation…] }
//               (a source's own document also carries a caveat when it is not current)
//   graph       { registry_version, counts, nodes: [node…], edges: [edge…] }
//   discovery   { registry_version, name, …, counts, endpoints }
//   problem     RFC 9457 problem details + registry_version
// A record is the entity as its content schema outputs it (defaults filled in) plus its `kind`.
import { z } from 'zod';
import { Citation, NodeView } from '../analysis/schemas.ts';
import { Edge, KINDS, RECORDS as ENTITY_RECORDS, RELATIONS, type Kind } from '../model/index.ts';
import { ChangelogEntry, DiffEntity } from '../analysis/diff.ts';
import { ReleaseFile } from '../registry/release-model.ts';

/** Component names of the response schemas, as they appear in the OpenAPI document. */
export const responseSchemas = z.registry<{ id: string }>();

const named = <T extends z.ZodType>(id: string, schema: T): T => {
  responseSchemas.add(schema, { id });
  return schema;
};

const RegistryVersion = z
  .string()
  .regex(/^\d+\.\d+\.\d+$/)
  .describe('Version of the atlas content this document was built from (semver)');

const PascalCase = (kind: Kind) => kind[0]!.toUpperCase() + kind.slice(1);

const recordOf = <K extends Kind>(kind: K) => named(PascalCase(kind), ENTITY_RECORDS[kind]);

/** An entity as served: its content schema's output plus its kind. */
export const RECORDS = {
  artifact: recordOf('artifact'),
  barrier: recordOf('barrier'),
  mechanism: recordOf('mechanism'),
  pattern: recordOf('pattern'),
  loop: recordOf('loop'),
  intervention: recordOf('intervention'),
  scenario: recordOf('scenario'),
  source: recordOf('source'),
} as const satisfies { [K in Kind]: z.ZodType };

const EdgeSchema = named('Edge', Edge);

const Links = named(
  'Links',
  z
    .strictObject({
      outgoing: z.array(EdgeSchema).describe('Edges from this entity, sorted by relation then target'),
      incoming: z.array(EdgeSchema).describe('Edges into this entity, sorted by source then relation'),
    })
    .describe('The typed edges of the graph that touch an entity'),
);

const countsByKind = z
  .strictObject(Object.fromEntries(KINDS.map((k) => [k, z.int().min(0)])) as Record<Kind, z.ZodInt>)
  .describe('Number of entities of each kind');

export const COLLECTION_RESPONSES = Object.fromEntries(
  KINDS.map((kind) => [
    kind,
    named(
      `${PascalCase(kind)}List`,
      z
        .strictObject({
          registry_version: RegistryVersion,
          kind: z.literal(kind),
          count: z.int().min(0).describe('Number of items'),
          items: z.array(RECORDS[kind]).describe('Every entity of this kind, deprecated ones included, sorted by ID'),
        })
        .describe(`Every ${kind}`),
    ),
  ]),
) as unknown as { [K in Kind]: z.ZodType };

const CitationSchema = named('Citation', Citation);

export const ITEM_RESPONSES = Object.fromEntries(
  KINDS.map((kind) => [
    kind,
    named(
      `${PascalCase(kind)}Item`,
      z
        .strictObject({
          registry_version: RegistryVersion,
          kind: z.literal(kind),
          item: RECORDS[kind],
          links: Links,
          citations: z
            .array(CitationSchema)
            .describe(
              'The sources the item cites, in its order; one that is not current (withdrawn, repealed, contested, superseded) carries a caveat',
            ),
          // A source's own document says how to read it when it is not current, as its citations do.
          ...(kind === 'source' ? { caveat: NodeView.shape.caveat } : {}),
          // Law notes are not legal advice; the document that carries them says so.
          ...(kind === 'artifact' || kind === 'barrier' || kind === 'mechanism' || kind === 'intervention'
            ? { legal_notice: NodeView.shape.legal_notice }
            : {}),
        })
        .describe(
          `One ${kind} with the edges that touch it and the sources it cites; a deprecated one names its successor in superseded_by`,
        ),
    ),
  ]),
) as unknown as { [K in Kind]: z.ZodType };

/** The key facts of each kind that a graph node carries besides id, kind and title. */
const NODE_FIELDS = {
  artifact: { status: true, stages: true },
  barrier: { status: true, stage: true, order: true },
  mechanism: { status: true, family: true, facets: true, evidence_level: true, honest_baseline: true },
  pattern: { status: true, shape: true, evidence_level: true },
  loop: { status: true, evidence_level: true },
  intervention: { status: true, actor: true, scope: true, cost: true, evidence_level: true },
  scenario: { status: true },
  source: { status: true, year: true, type: true },
} as const;

const nodeOf = <K extends Kind>(kind: K) =>
  // pick() keeps the field definitions of the content schema, so a node never redefines a field.
  (RECORDS[kind] as z.ZodObject).pick({ id: true, kind: true, title: true, ...NODE_FIELDS[kind] } as Record<string, true>);

const GraphNode = named(
  'GraphNode',
  z
    .discriminatedUnion('kind', KINDS.map((k) => nodeOf(k)) as unknown as [z.ZodObject, ...z.ZodObject[]])
    .describe('A node of the graph: an entity’s id, kind, title and key facets'),
);

/** Which fields of an entity its graph node keeps. */
export function nodeFields(kind: Kind): string[] {
  return ['id', 'kind', 'title', ...Object.keys(NODE_FIELDS[kind])];
}

export const GraphResponse = named(
  'Graph',
  z
    .strictObject({
      registry_version: RegistryVersion,
      counts: z.strictObject({
        nodes: z.int().min(0),
        edges: z.int().min(0),
        by_kind: countsByKind,
        by_relation: z
          .strictObject(Object.fromEntries(RELATIONS.map((r) => [r, z.int().min(0)])) as Record<(typeof RELATIONS)[number], z.ZodInt>)
          .describe('Number of edges of each relation'),
      }),
      nodes: z.array(GraphNode).describe('Every entity, sorted by ID'),
      edges: z.array(EdgeSchema).describe('Every typed edge, sorted by source, relation, target; emits edges carry their fidelity'),
    })
    .describe('The complete graph: nodes and typed, directed edges'),
);

const Endpoint = named(
  'Endpoint',
  z
    .strictObject({
      path: z.string().describe('URL path template from the site root, e.g. /api/v1/artifacts/{id}'),
      operation_id: z.string().describe('operationId in /openapi.json'),
      summary: z.string(),
    })
    .describe('An endpoint of the API'),
);

export const IndexResponse = named(
  'Index',
  z
    .strictObject({
      registry_version: RegistryVersion,
      name: z.string(),
      description: z.string(),
      versions: z.strictObject({
        registry: RegistryVersion,
        schema: z.string().describe('Version of the content model'),
        description: z.string().describe('Version of the interface description (OpenAPI info.version)'),
        api: z.literal('v1').describe('API path version'),
      }),
      released: z.iso.date().describe('Release date of this content version'),
      licences: z.strictObject({
        software: z.literal('MIT'),
        content: z.literal('CC-BY-SA-4.0'),
      }),
      generator: z.string().describe('The hoba version that built this mirror'),
      content_hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('sha256 of the content files this mirror was built from'),
      counts: z.strictObject({ ...countsByKind.shape, edges: z.int().min(0) }).describe('Entities of each kind, and edges'),
      openapi: z.string().describe('Path of the OpenAPI description'),
      endpoints: z.array(Endpoint),
    })
    .describe('Discovery document: what this API serves'),
);

export const ProblemResponse = named(
  'Problem',
  z
    .strictObject({
      type: z.string().describe('Problem type URI (RFC 9457); about:blank means the HTTP status says it all'),
      title: z.string(),
      status: z.int().min(400).max(599),
      detail: z.string().describe('What went wrong and what to do'),
      registry_version: RegistryVersion,
    })
    .describe('An error, as RFC 9457 problem details'),
);

// Releases (releases/ in the checkout): the list, each release with its downloads, and the changelog.

const releaseLicences = z.strictObject({ software: z.literal('MIT'), content: z.literal('CC-BY-SA-4.0') });

const ReleaseSummary = named(
  'ReleaseSummary',
  z
    .strictObject({
      version: RegistryVersion.describe('The registry version released'),
      released: z.iso.date().describe('Authored release date'),
      schema_version: z.string().describe('Version of the content model the release was recorded under'),
      content_hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('sha256 of the content files the release was recorded from'),
      latest: z.boolean().describe('Whether this is the latest release'),
      url: z.string().describe('The release’s own document'),
      downloads: z.string().describe('URL directory of its download files (immutable)'),
    })
    .describe('A recorded release, in the list of releases'),
);

export const ReleaseListResponse = named(
  'ReleaseList',
  z
    .strictObject({
      registry_version: RegistryVersion,
      latest: RegistryVersion.nullable().describe(
        'The latest recorded release (null when none is recorded); its files are also at /downloads/latest/ when this site serves that version',
      ),
      count: z.int().min(0),
      releases: z.array(ReleaseSummary).describe('Every recorded release, newest first'),
    })
    .describe('Every recorded release of the atlas content'),
);

const ReleaseDownload = named(
  'ReleaseDownload',
  ReleaseFile.extend({ url: z.string().describe('Where the file is served') }).describe(
    'A download file of a release, with its recorded checksum',
  ),
);

const ChangelogEntrySchema = named('ChangelogEntry', ChangelogEntry);
named('DiffEntity', DiffEntity);

export const ReleaseResponse = named(
  'Release',
  z
    .strictObject({
      registry_version: RegistryVersion,
      version: RegistryVersion.describe('The registry version released'),
      released: z.iso.date().describe('Authored release date'),
      schema_version: z.string().describe('Version of the content model the release was recorded under'),
      content_hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('sha256 of the content files the release was recorded from'),
      data_sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('sha256 of the canonical registry data the release rebuilds from (releases/<version>.json in the repository)'),
      latest: z.boolean().describe('Whether this is the latest release'),
      previous: RegistryVersion.nullable().describe('The release before this one (null for the first)'),
      licences: releaseLicences,
      entities: z.int().min(0).describe('Number of entities in the release'),
      changes: ChangelogEntrySchema.describe('What changed since the previous release'),
      changelog: z.string().describe('The changelog of every release'),
      downloads: z
        .strictObject({
          url: z.string().describe('URL directory of the files; they never change once released'),
          files: z.array(ReleaseDownload).describe('Every file, sorted by name, with its SHA-256 (SHA256SUMS holds the same)'),
        })
        .describe('The release’s bulk downloads'),
    })
    .describe('One recorded release: what it was made from, what changed, and its downloads with their checksums'),
);

export const ChangelogResponse = named(
  'Changelog',
  z
    .strictObject({
      registry_version: RegistryVersion,
      latest: RegistryVersion.nullable().describe('The latest recorded release'),
      count: z.int().min(0),
      releases: z.array(ChangelogEntrySchema).describe('Every recorded release, newest first, each compared with the one before it'),
    })
    .describe('What changed in each release: added, changed (which fields), deprecated or superseded, restored, removed'),
);

/** JSON Schema (2020-12) of every named response shape, with $refs between them at `uri(id)`. */
export function responseJsonSchemas(uri: (id: string) => string): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(responseSchemas, { io: 'output', uri }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(schemas)) {
    delete schema['$schema'];
    delete schema['$id'];
  }
  return schemas;
}

/** A self-contained JSON Schema (2020-12) of one record kind, as published under /schemas/. */
export function recordJsonSchema(kind: Kind): Record<string, unknown> {
  return z.toJSONSchema(RECORDS[kind], { io: 'output' }) as Record<string, unknown>;
}
