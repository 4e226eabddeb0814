// The release model, pure (no I/O, so the route table and the worker can use it): registry versions
// (semver), the bump a change needs, and the record of a release as releases/index.json stores it.
import { z } from 'zod';

/** How much a version must move: removing or renaming an ID breaks links (major), new or newly
 * deprecated or restored entities add (minor), edits alone are a patch. */
export const BUMPS = ['none', 'patch', 'minor', 'major'] as const;
export type Bump = (typeof BUMPS)[number];

/** -1, 0 or 1 as semver a is below, equal to or above b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i]! !== pb[i]!) return pa[i]! < pb[i]! ? -1 : 1;
  return 0;
}

/** How far `to` moved from `from`: the highest component that went up, or `lower` when it went down. */
export function versionBump(from: string, to: string): Bump | 'lower' {
  const c = compareVersions(from, to);
  if (c > 0) return 'lower';
  if (c === 0) return 'none';
  const [fa, fb] = from.split('.').map(Number);
  const [ta, tb] = to.split('.').map(Number);
  return ta! > fa! ? 'major' : tb! > fb! ? 'minor' : 'patch';
}

/**
 * The bump a change needs from `from`, as a version component: while the major version is 0, a breaking
 * change moves the minor version (semver §4 leaves 0.x open; npm's and Cargo's caret ranges treat 0.y as
 * the breaking component), so major reads as minor there.
 */
export function effectiveBump(from: string, required: Bump): Bump {
  return required === 'major' && from.startsWith('0.') ? 'minor' : required;
}

/** Whether moving from `from` to `to` is bump enough for changes that need `required`. */
export function bumpSatisfies(from: string, to: string, required: Bump): boolean {
  const moved = versionBump(from, to);
  if (moved === 'lower') return false;
  return BUMPS.indexOf(moved) >= BUMPS.indexOf(effectiveBump(from, required));
}

/** The smallest version after `from` that satisfies `required` (itself when nothing is needed). */
export function nextVersion(from: string, required: Bump): string {
  const [a, b, c] = from.split('.').map(Number) as [number, number, number];
  switch (effectiveBump(from, required)) {
    case 'major':
      return `${a + 1}.0.0`;
    case 'minor':
      return `${a}.${b + 1}.0`;
    case 'patch':
      return `${a}.${b}.${c + 1}`;
    default:
      return from;
  }
}

// ---------------------------------------------------------------------------------------------------
// Release records

const Version = z.string().regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version such as 1.0.0');
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lower-case hex');

export const ReleaseFile = z
  .strictObject({
    file: z.string().min(1).describe('File name, relative to the release’s download directory (e.g. entities.ndjson)'),
    media_type: z.string().min(1).describe('Media type the file is served with'),
    bytes: z.int().min(0).describe('Size in bytes'),
    sha256: Sha256.describe('SHA-256 of the file’s bytes (hex)'),
  })
  .describe('One download file of a release, with its checksum');

export const ReleaseRecord = z
  .strictObject({
    version: Version.describe('The registry version released (registry_version in content/atlas.yaml)'),
    released: z.iso.date().describe('Authored release date (released in content/atlas.yaml)'),
    schema_version: Version.describe('Version of the content model the data was recorded under'),
    content_hash: Sha256.describe('sha256 of the content/ files the release was recorded from (src/registry/hash.ts)'),
    data: z
      .strictObject({
        file: z.string().describe('The canonical registry data, relative to releases/'),
        bytes: z.int().min(0),
        sha256: Sha256,
      })
      .describe('The registry data the release rebuilds from'),
    files: z.array(ReleaseFile).describe('Every download file of the release, sorted by name'),
  })
  .describe('A recorded release: what it was made from and the checksum of every file it publishes');

export const ReleaseIndex = z
  .strictObject({
    releases: z.array(ReleaseRecord).describe('Every recorded release, oldest first'),
  })
  .describe('releases/index.json');

export type ReleaseFile = z.infer<typeof ReleaseFile>;
export type ReleaseRecord = z.infer<typeof ReleaseRecord>;
export type ReleaseIndex = z.infer<typeof ReleaseIndex>;
