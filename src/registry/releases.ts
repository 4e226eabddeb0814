// Recorded releases: releases/ at the root of a checkout holds, for every released registry version, the
// registry data as canonical JSON (so a fresh clone rebuilds every release byte for byte, without git
// history), and an index with each version's content hash and the SHA-256 of each of its download files.
//
//   releases/index.json                  the records, oldest first (ReleaseIndex)
//   releases/<version>.json              the registry data: manifest, entities and edges (canonicalData)
//   releases/schemas/<schema>/<file>     the JSON Schemas of each content-model version, as published
//
// The data is stored as it was recorded, under the schema of its time (manifest.schema_version): an older
// release is never migrated, since filling in what a later schema added would change its files. Its edges
// are stored with it, so that reading it never runs today's reference rules over yesterday's fields. The
// JSON Schemas are stored per schema version because they come from the code, not the data: a release's
// schemas/ downloads are these files, whatever the model has become since.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compareIds, compareEdges, type RegistryData } from './registry.ts';
import { compareVersions, ReleaseIndex, type ReleaseRecord } from './release-model.ts';

export { ReleaseFile, ReleaseIndex, ReleaseRecord } from './release-model.ts';

const RELEASES_DIR = 'releases';
export const RELEASE_INDEX = `${RELEASES_DIR}/index.json`;

/** A recorded release, read back: its record, its registry data and the JSON Schemas of its model. */
export interface RecordedRelease {
  record: ReleaseRecord;
  data: RegistryData;
  /** The stored JSON Schemas (file name below schemas/ → bytes). */
  schemas: Map<string, Buffer>;
}

/** A releases/ directory that cannot be read as recorded: what is wrong and what to do. */
export class ReleaseError extends Error {}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The release index of a checkout; empty when it records no release. */
export function readReleaseIndex(checkout: string): ReleaseIndex {
  const path = join(checkout, RELEASE_INDEX);
  if (!existsSync(path)) return { releases: [] };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ReleaseError(
      `${RELEASE_INDEX} is not valid JSON (${(err as Error).message}). It is written by \`hoba release\`: restore it from version control.`,
    );
  }
  const result = ReleaseIndex.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ReleaseError(
      `${RELEASE_INDEX}: ${issue.path.join('.') || '(top)'}: ${issue.message}. It is written by \`hoba release\`: restore it from version control.`,
    );
  }
  return result.data;
}

/** The recorded release of a version, or undefined. */
export function findRelease(index: ReleaseIndex, version: string): ReleaseRecord | undefined {
  return index.releases.find((r) => r.version === version);
}

/** The highest recorded version, or undefined. */
export function latestRecord(index: ReleaseIndex): ReleaseRecord | undefined {
  return index.releases.at(-1);
}

/**
 * The registry data as stored: the manifest, then the entities sorted by ID and the edges in graph order,
 * one per line (valid JSON that a line-based diff reads entity by entity). Field order is the order of the
 * content model the data was loaded under; JSON.parse keeps it, so data read back serialises to the same bytes.
 */
export function canonicalData(data: RegistryData): Buffer {
  if (!data.edges) throw new Error('canonicalData: the edges must be stored with the data');
  const entities = [...data.entities].sort((a, b) => compareIds(a.id, b.id));
  const edges = [...data.edges].sort(compareEdges);
  const lines = [
    `{"manifest":${JSON.stringify(data.manifest)},`,
    '"entities":[',
    entities.map((e) => JSON.stringify(e)).join(',\n'),
    '],',
    '"edges":[',
    edges.map((e) => JSON.stringify(e)).join(',\n'),
    ']}',
  ];
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

/** The registry data of a recorded release, checked against the SHA-256 its record holds. */
export function readReleaseData(checkout: string, record: ReleaseRecord): RegistryData {
  const path = join(checkout, RELEASES_DIR, record.data.file);
  if (!existsSync(path)) {
    throw new ReleaseError(
      `${RELEASES_DIR}/${record.data.file}, the data of release ${record.version}, is missing. Restore it from version control; a release cannot be rebuilt without it.`,
    );
  }
  const bytes = readFileSync(path);
  if (sha256(bytes) !== record.data.sha256) {
    throw new ReleaseError(
      `${RELEASES_DIR}/${record.data.file} does not match the SHA-256 recorded for release ${record.version}: a published release never changes. Restore the file from version control.`,
    );
  }
  return JSON.parse(bytes.toString('utf8')) as RegistryData;
}

/** Where the JSON Schemas of a content-model version are stored. */
function schemasDir(checkout: string, schemaVersion: string): string {
  return join(checkout, RELEASES_DIR, 'schemas', schemaVersion);
}

/** The stored JSON Schemas of a content-model version (file name → bytes), or undefined when none are. */
export function readStoredSchemas(checkout: string, schemaVersion: string): Map<string, Buffer> | undefined {
  const dir = schemasDir(checkout, schemaVersion);
  if (!existsSync(dir)) return undefined;
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name))]),
  );
}

/** Every recorded release of a checkout, oldest first, with its data and schemas read and checked. */
export function loadReleases(checkout: string): RecordedRelease[] {
  return readReleaseIndex(checkout).releases.map((record) => loadRelease(checkout, record));
}

export function loadRelease(checkout: string, record: ReleaseRecord): RecordedRelease {
  const data = readReleaseData(checkout, record);
  const schemas = readStoredSchemas(checkout, record.schema_version);
  if (!schemas) {
    throw new ReleaseError(
      `${RELEASES_DIR}/schemas/${record.schema_version}/, the JSON Schemas of release ${record.version}, is missing. Restore it from version control.`,
    );
  }
  return { record, data, schemas };
}

/** Writes a file by way of a temporary name beside it, so that a reader never sees half of it. */
function writeAtomic(path: string, bytes: Buffer | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.partial-${process.pid}`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}

/** The index file's bytes: releases oldest first, two-space JSON, LF, a trailing newline. */
export function indexBytes(index: ReleaseIndex): Buffer {
  const releases = [...index.releases].sort((a, b) => compareVersions(a.version, b.version));
  return Buffer.from(JSON.stringify(ReleaseIndex.parse({ releases }), null, 2) + '\n', 'utf8');
}

/** Records a release: its data file, its schemas (when its model's are not stored yet) and its index entry. */
export function writeRelease(checkout: string, record: ReleaseRecord, data: Buffer, schemas: Map<string, Buffer>): void {
  const dir = schemasDir(checkout, record.schema_version);
  if (!existsSync(dir)) {
    const staging = `${dir}.partial-${process.pid}`;
    mkdirSync(staging, { recursive: true });
    for (const [name, bytes] of schemas) writeFileSync(join(staging, name), bytes);
    renameSync(staging, dir);
  }
  writeAtomic(join(checkout, RELEASES_DIR, record.data.file), data);
  const index = readReleaseIndex(checkout);
  const releases = index.releases.filter((r) => r.version !== record.version);
  writeAtomic(join(checkout, RELEASE_INDEX), indexBytes({ releases: [...releases, record] }));
}
