// The bodies of the API documents, built from the Registry alone. Every body is parsed through its
// response schema (responses.ts) before it is written: that fixes the key order (so output is
// byte-deterministic whatever order the registry's objects hold their keys in) and guarantees that
// every file the build writes matches the schema the OpenAPI document publishes for it.
import type { CorpusItem } from '../analysis/reader-train.ts';
import { citationsOf, hasLaw, sourceCaveat } from '../analysis/node.ts';
import { LEGAL_NOTICE } from '../analysis/terms.ts';
import { KINDS, RELATIONS, type Entity, type Kind } from '../model/index.ts';
import type { Registry } from '../registry/registry.ts';
import type { RecordedRelease } from '../registry/releases.ts';
import { changelogEntry, type ChangelogEntry } from '../analysis/diff.ts';
import {
  COLLECTION_RESPONSES,
  GraphResponse,
  IndexResponse,
  ITEM_RESPONSES,
  ChangelogResponse,
  ProblemResponse,
  RECORDS,
  ReleaseListResponse,
  ReleaseResponse,
  nodeFields,
} from './responses.ts';

/** Facts about a build that are not in the registry. */
export interface BuildInfo {
  /** contentHash() of the checkout the registry was loaded from. */
  contentHash: string;
  /** "hoba <version>" */
  generator: string;
  /** The checkout's recorded releases (releases/), oldest first; none when absent. */
  releases?: readonly RecordedRelease[];
  /** The checkout's labelled corpus the situation reader trains on (quality/reader/train.yaml); none when absent. */
  readerCorpus?: readonly CorpusItem[];
  /**
   * Trained reader models (JSON texts) to reuse when one was trained from the same inputs (the bundled
   * snapshot's, the checkout's own build's: reusableIndexes).
   */
  readerReuse?: readonly string[];
}

export function collectionBody(reg: Registry, kind: Kind): unknown {
  const items = reg.all(kind).map((e) => RECORDS[kind].parse(e));
  return COLLECTION_RESPONSES[kind].parse({ registry_version: reg.version, kind, count: items.length, items });
}

export function itemBody(reg: Registry, entity: Entity): unknown {
  const caveat = entity.kind === 'source' ? sourceCaveat(entity) : undefined;
  return ITEM_RESPONSES[entity.kind].parse({
    registry_version: reg.version,
    kind: entity.kind,
    item: entity,
    links: { outgoing: reg.outgoing(entity.id), incoming: reg.incoming(entity.id) },
    citations: citationsOf(reg, entity),
    ...(caveat ? { caveat } : {}),
    ...(hasLaw(entity) ? { legal_notice: LEGAL_NOTICE } : {}),
  });
}

export function graphBody(reg: Registry): unknown {
  const nodes = reg.entities.map((e) => {
    const source = e as unknown as Record<string, unknown>;
    return Object.fromEntries(
      nodeFields(e.kind)
        .filter((f) => f in source)
        .map((f) => [f, source[f]]),
    );
  });
  return GraphResponse.parse({
    registry_version: reg.version,
    counts: {
      nodes: nodes.length,
      edges: reg.edges.length,
      by_kind: countByKind(reg),
      by_relation: Object.fromEntries(RELATIONS.map((r) => [r, reg.edges.filter((e) => e.relation === r).length])),
    },
    nodes,
    edges: reg.edges,
  });
}

export interface EndpointInfo {
  path: string;
  operation_id: string;
  summary: string;
}

export function indexBody(reg: Registry, info: BuildInfo, endpoints: EndpointInfo[], openapi: string): unknown {
  const m = reg.manifest;
  return IndexResponse.parse({
    registry_version: reg.version,
    name: m.name,
    description: m.description,
    versions: { registry: m.registry_version, schema: m.schema_version, description: m.description_version, api: 'v1' },
    released: m.released,
    licences: { software: m.licences.code, content: m.licences.content },
    generator: info.generator,
    content_hash: info.contentHash,
    counts: { ...countByKind(reg), edges: reg.edges.length },
    openapi,
    endpoints,
  });
}

export function problemBody(reg: Registry, status: 404 | 405, detail: string): unknown {
  const title = status === 404 ? 'Not Found' : 'Method Not Allowed';
  return ProblemResponse.parse({ type: 'about:blank', title, status, detail, registry_version: reg.version });
}

function countByKind(reg: Registry): Record<Kind, number> {
  return Object.fromEntries(KINDS.map((k) => [k, reg.all(k).length])) as Record<Kind, number>;
}

// ---------------------------------------------------------------------------------------------------
// Releases: the recorded releases of the checkout (releases/), the files of each, and the changelog

/** Where a release's documents and files are: its API document, its download directory. */
export interface ReleaseUrls {
  release(version: string): string;
  downloads(version: string): string;
  changelog: string;
}

const entriesOf = new WeakMap<readonly RecordedRelease[], ChangelogEntry[]>();

/** Each release's changelog entry (against the release before it), oldest first; computed once per build. */
export function changelogEntries(releases: readonly RecordedRelease[]): ChangelogEntry[] {
  let entries = entriesOf.get(releases);
  if (!entries) {
    entries = releases.map((r, i) => changelogEntry(r.data, releases[i - 1]?.data));
    entriesOf.set(releases, entries);
  }
  return entries;
}

export function releasesBody(reg: Registry, releases: readonly RecordedRelease[], urls: ReleaseUrls): unknown {
  const latest = releases.at(-1)?.record.version ?? null;
  return ReleaseListResponse.parse({
    registry_version: reg.version,
    latest,
    count: releases.length,
    releases: [...releases].reverse().map(({ record }) => ({
      version: record.version,
      released: record.released,
      schema_version: record.schema_version,
      content_hash: record.content_hash,
      latest: record.version === latest,
      url: urls.release(record.version),
      downloads: urls.downloads(record.version),
    })),
  });
}

/** One release's document: its record, what changed since the one before, and its files as recorded. */
export function releaseBody(reg: Registry, releases: readonly RecordedRelease[], index: number, urls: ReleaseUrls): unknown {
  const { record, data } = releases[index]!;
  const changes = changelogEntries(releases)[index]!;
  return ReleaseResponse.parse({
    registry_version: reg.version,
    version: record.version,
    released: record.released,
    schema_version: record.schema_version,
    content_hash: record.content_hash,
    data_sha256: record.data.sha256,
    latest: index === releases.length - 1,
    previous: changes.previous,
    licences: { software: data.manifest.licences.code, content: data.manifest.licences.content },
    entities: data.entities.length,
    changes,
    changelog: urls.changelog,
    downloads: {
      url: urls.downloads(record.version),
      files: record.files.map((f) => ({ ...f, url: `${urls.downloads(record.version)}${f.file}` })),
    },
  });
}

export function changelogBody(reg: Registry, releases: readonly RecordedRelease[]): unknown {
  return ChangelogResponse.parse({
    registry_version: reg.version,
    latest: releases.at(-1)?.record.version ?? null,
    count: releases.length,
    releases: [...changelogEntries(releases)].reverse(),
  });
}
