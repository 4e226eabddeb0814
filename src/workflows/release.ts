// The release workflow: record a checkout's content as a release (releases/), with the SHA-256 of every
// download file, and regenerate CHANGELOG.md; check that every recorded release still rebuilds; refresh
// the recorded checksums. A recorded release is immutable: recording the same version again is a no-op
// when the content is the same and an error when it is not (bump registry_version), except with replace,
// which re-records the latest release and is meant only for one that was never published. hoba release
// (src/cli/release.ts) wires it to the command line and prints what it returns.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changelogMarkdown, diffRegistries, releaseVersionProblems, type RegistryDiff } from '../analysis/diff.ts';
import { releaseDownloadFiles } from '../publish/build.ts';
import { changelogEntries } from '../publish/documents.ts';
import { downloadFiles, downloadsUrl } from '../publish/downloads.ts';
import { bibliographyPath, loadBibliography } from '../registry/bibliography.ts';
import { contentHash } from '../registry/hash.ts';
import { loadAtlas } from '../registry/load.ts';
import { Registry, type RegistryData } from '../registry/registry.ts';
import { bumpSatisfies, compareVersions, effectiveBump, nextVersion } from '../registry/release-model.ts';
import {
  canonicalData,
  findRelease,
  indexBytes,
  latestRecord,
  loadRelease,
  loadReleases,
  readReleaseData,
  readReleaseIndex,
  readStoredSchemas,
  RELEASE_INDEX,
  ReleaseError,
  sha256,
  writeRelease,
  type RecordedRelease,
  type ReleaseFile,
  type ReleaseRecord,
} from '../registry/releases.ts';
import type { Problem } from '../registry/rules.ts';
import { validateAtlas } from '../registry/validate.ts';
import { WorkflowError } from './errors.ts';

export const CHANGELOG_FILE = 'CHANGELOG.md';

/** The recorded releases of a checkout, read and checked; a damaged releases/ is a failure for people. */
export function recordedReleases(dir: string): RecordedRelease[] {
  try {
    return loadReleases(dir);
  } catch (err) {
    if (err instanceof ReleaseError) throw new WorkflowError(err.message, 1, 'failed');
    throw err;
  }
}

/**
 * The release-version rule for a checkout: its content against the latest recorded release. A damaged
 * releases/ is reported under the rule too, rather than stopping the whole validation.
 */
export function releaseProblems(dir: string, registry: Registry): Problem[] {
  try {
    const latest = latestRecord(readReleaseIndex(dir));
    if (!latest) return [];
    return releaseVersionProblems({ ...registry.toData(), edges: [...registry.edges] }, readReleaseData(dir, latest));
  } catch (err) {
    if (!(err instanceof ReleaseError)) throw err;
    return [{ rule: 'release-version', severity: 'warning', file: RELEASE_INDEX, message: err.message }];
  }
}

/** A release's download files as the current code builds them, with their checksums. */
function filesOf(release: Pick<RecordedRelease, 'data' | 'schemas'>): ReleaseFile[] {
  return releaseDownloadFiles(release).map((f) => ({
    file: f.file,
    media_type: f.media_type,
    bytes: f.bytes.length,
    sha256: sha256(f.bytes),
  }));
}

/** The files whose recorded checksum (or presence) differs from the rebuilt one. */
function differingFiles(recorded: readonly ReleaseFile[], rebuilt: readonly ReleaseFile[]): string[] {
  const before = new Map(recorded.map((f) => [f.file, f]));
  const after = new Map(rebuilt.map((f) => [f.file, f]));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.filter((n) => {
    const a = before.get(n);
    const b = after.get(n);
    return !a || !b || a.sha256 !== b.sha256 || a.bytes !== b.bytes || a.media_type !== b.media_type;
  });
}

const sameRecord = (a: ReleaseRecord, b: ReleaseRecord) => JSON.stringify(a) === JSON.stringify(b);

/** The JSON Schemas the current code publishes (file name below schemas/ → bytes). */
function currentSchemas(data: RegistryData): Map<string, Buffer> {
  // The same files the latest downloads carry: downloadFiles is the one place that makes them.
  const files = downloadFiles(new Registry(data)).filter((f) => f.file.startsWith('schemas/'));
  return new Map(files.map((f) => [f.file.slice('schemas/'.length), f.bytes]));
}

export function summaryOf(diff: RegistryDiff): string {
  const c = diff.counts;
  const parts = [
    c.added && `${c.added} added`,
    c.changed && `${c.changed} changed`,
    c.deprecated && `${c.deprecated} deprecated`,
    c.restored && `${c.restored} restored`,
    c.removed && `${c.removed} removed`,
    diff.manifest.length > 0 && 'manifest changed',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'no change';
}

type RecordStatus = 'recorded' | 'replaced' | 'unchanged';

/** What recording did: the release as recorded, the changes since the release before it, and a note when nothing was recorded. */
export interface RecordOutcome {
  status: RecordStatus;
  release: ReleaseRecord;
  diff?: RegistryDiff;
  note?: string;
}

/** Records the checkout's content as a release (or re-records the latest with `replace`), and regenerates CHANGELOG.md. */
export function recordRelease(dir: string, replace: boolean): RecordOutcome {
  const load = loadAtlas(dir);
  const bibliography = loadBibliography(bibliographyPath(dir));
  const errors = validateAtlas(load, { bibliography }).filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}: ` : '';
    throw new WorkflowError(
      `the content has ${errors.length} validation error${errors.length === 1 ? '' : 's'}, so it was not recorded as a release. First: ${where}${first.rule}: ${first.message}\nRun \`hoba validate\` for the full report.`,
      1,
      'invalid-content',
    );
  }
  const reg = load.registry;
  const { registry_version: version, released, schema_version: schemaVersion } = reg.manifest;
  const bytes = canonicalData({ ...reg.toData(), edges: [...reg.edges] });
  // What is recorded is what will be read back: the files are built from the stored bytes, as every later build will.
  const data = JSON.parse(bytes.toString('utf8')) as RegistryData;

  const current = currentSchemas(data);
  const stored = readStoredSchemas(dir, schemaVersion);
  if (stored) {
    const changed = [...new Set([...stored.keys(), ...current.keys()])].filter(
      (n) => !stored.get(n)?.equals(current.get(n) ?? Buffer.alloc(0)),
    );
    if (changed.length > 0) {
      throw new WorkflowError(
        `the JSON Schemas of the content model differ from those recorded for schema_version ${schemaVersion} (releases/schemas/${schemaVersion}/: ${changed.join(', ')}). The content model changed since: bump schema_version in content/atlas.yaml, then run hoba release again.`,
        1,
        'failed',
      );
    }
  }
  const schemas = stored ?? current;
  const rec: ReleaseRecord = {
    version,
    released,
    schema_version: schemaVersion,
    content_hash: contentHash(dir),
    data: { file: `${version}.json`, bytes: bytes.length, sha256: sha256(bytes) },
    files: filesOf({ data, schemas }),
  };

  const index = wrap(() => readReleaseIndex(dir));
  const existing = findRelease(index, version);
  const latest = latestRecord(index);
  let status: RecordStatus = 'recorded';
  let previous: ReleaseRecord | undefined = latest;
  if (existing) {
    if (sameRecord(existing, rec))
      return {
        status: 'unchanged',
        release: rec,
        note: `release ${version} is already recorded with this content; nothing to do${writeChangelog(dir) ? ` (${CHANGELOG_FILE} regenerated)` : ''}.`,
      };
    const sameData = existing.data.sha256 === rec.data.sha256;
    if (!replace) {
      if (sameData && differingFiles(existing.files, rec.files).length === 0) {
        // Only the form of the content files changed (comments, layout): the release's data and files are the same.
        writeChangelog(dir);
        return {
          status: 'unchanged',
          release: existing,
          note: `release ${version} is already recorded with this data; the content files differ only in form, so nothing was recorded (its content hash stays ${existing.content_hash.slice(0, 12)}…).`,
        };
      }
      if (sameData) {
        const files = differingFiles(existing.files, rec.files);
        throw new WorkflowError(
          `release ${version} is recorded with this content, but its files no longer rebuild to the recorded checksums (${files.join(', ')}): a code change altered a release's downloads. Restore the download formats; or, if ${version} was never published, record the new checksums with hoba release --replace.`,
          1,
          'failed',
        );
      }
      const diff = diffRegistries(
        wrap(() => readReleaseData(dir, existing)),
        data,
      );
      const needed = nextVersion(version, diff.required_bump === 'none' ? 'patch' : diff.required_bump);
      throw new WorkflowError(
        `release ${version} is already recorded, with different content (${summaryOf(diff)}; hoba diff ${version} current lists it). A recorded release never changes: set registry_version to ${needed} in content/atlas.yaml (the changes need a ${effectiveBump(version, diff.required_bump === 'none' ? 'patch' : diff.required_bump)} bump) and run hoba release again. If ${version} was never published (deployed or tagged), re-record it with hoba release --replace.`,
        1,
        'failed',
      );
    }
    if (existing !== latest) {
      throw new WorkflowError(
        `release ${version} is not the latest recorded release (${latest!.version} is), so it cannot be replaced: later releases were compared with it. Record the content as a new version instead.`,
        1,
        'failed',
      );
    }
    status = 'replaced';
    previous = index.releases.at(-2);
  } else if (replace) {
    throw new WorkflowError(
      `--replace re-records a recorded release, but ${version} is not recorded yet. Run hoba release without --replace to record it.`,
      2,
      'invalid-argument',
    );
  } else if (latest && compareVersions(version, latest.version) < 0) {
    throw new WorkflowError(
      `registry_version ${version} is below the latest recorded release ${latest.version}: versions only go up. Set registry_version in content/atlas.yaml above ${latest.version}.`,
      1,
      'failed',
    );
  }

  let diff: RegistryDiff | undefined;
  if (previous) {
    diff = diffRegistries(
      wrap(() => readReleaseData(dir, previous)),
      data,
    );
    if (diff.required_bump === 'none') {
      throw new WorkflowError(
        `the content is the same as release ${previous.version}, so there is nothing new to record as ${version}.`,
        1,
        'failed',
      );
    }
    if (!bumpSatisfies(previous.version, version, diff.required_bump)) {
      const needs = effectiveBump(previous.version, diff.required_bump);
      throw new WorkflowError(
        `${version} is too small a step from the release before it, ${previous.version}: ${diff.reasons.join('; ')}. That needs a ${needs} bump: set registry_version to ${nextVersion(previous.version, diff.required_bump)} in content/atlas.yaml and run hoba release again.`,
        1,
        'failed',
      );
    }
    if (released < previous.released) {
      throw new WorkflowError(
        `released ${released} is before the date of the release before it (${previous.version}, ${previous.released}). Set released in content/atlas.yaml to the date of this release.`,
        1,
        'failed',
      );
    }
  }

  wrap(() => writeRelease(dir, rec, bytes, schemas));
  writeChangelog(dir);
  return { status, release: rec, ...(diff ? { diff } : {}) };
}

/** Runs a releases/ operation, turning a damaged releases/ into a failure for people. */
function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ReleaseError) throw new WorkflowError(err.message, 1, 'failed');
    throw err;
  }
}

/** CHANGELOG.md as the recorded releases make it. */
export function changelogText(dir: string): string {
  return changelogMarkdown(
    changelogEntries(recordedReleases(dir)),
    (version) => downloadsUrl(version),
    (version) => releaseNotes(dir, version),
  );
}

/** Where a release's authored notes are kept (Markdown; headings start at ####, under the release's "Notes"). */
const NOTES_DIR = 'releases/notes';

/** A release's authored notes, when releases/notes/<version>.md exists. */
function releaseNotes(dir: string, version: string): string | undefined {
  try {
    return readFileSync(join(dir, NOTES_DIR, `${version}.md`), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Regenerates CHANGELOG.md; true when that changed it. */
function writeChangelog(dir: string): boolean {
  const path = join(dir, CHANGELOG_FILE);
  const text = changelogText(dir);
  let before: string | undefined;
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    before = undefined;
  }
  if (before === text) return false;
  writeFileSync(path, text);
  return true;
}

/** One recorded release rebuilt: ok when every file rebuilds to its recorded checksum. */
interface ReleaseCheckResult {
  version: string;
  ok: boolean;
  /** The files that no longer rebuild to their recorded checksum. */
  differing: string[];
  /** Why the release could not be read at all. */
  error: string | undefined;
}

export interface ReleaseCheck {
  ok: boolean;
  /** How many releases are recorded. */
  recorded: number;
  results: ReleaseCheckResult[];
  changelog: 'current' | 'stale' | 'missing';
}

/** Every recorded release rebuilt and compared with its record, and CHANGELOG.md with the releases. */
export function checkReleases(dir: string): ReleaseCheck {
  const index = wrap(() => readReleaseIndex(dir));
  const results = index.releases.map((record) => {
    try {
      const release = loadRelease(dir, record);
      const differing = differingFiles(record.files, filesOf(release));
      return { version: record.version, ok: differing.length === 0, differing, error: undefined as string | undefined };
    } catch (err) {
      if (!(err instanceof ReleaseError)) throw err;
      return { version: record.version, ok: false, differing: [] as string[], error: err.message };
    }
  });
  let changelog: 'current' | 'stale' | 'missing' = 'current';
  if (results.every((r) => r.error === undefined)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, CHANGELOG_FILE), 'utf8');
    } catch {
      text = undefined;
    }
    changelog =
      text === undefined ? (index.releases.length > 0 ? 'missing' : 'current') : text === changelogText(dir) ? 'current' : 'stale';
  }
  const ok = results.every((r) => r.ok) && changelog === 'current';
  return { ok, recorded: index.releases.length, results, changelog };
}

/** Records the checksums of every release's files as the current code builds them; the versions whose checksums changed. */
export function refreshChecksums(dir: string): string[] {
  const index = wrap(() => readReleaseIndex(dir));
  const changed: string[] = [];
  const releases = index.releases.map((record) => {
    const files = filesOf(wrap(() => loadRelease(dir, record)));
    if (differingFiles(record.files, files).length > 0) changed.push(record.version);
    return { ...record, files };
  });
  if (changed.length > 0) {
    writeFileSync(join(dir, RELEASE_INDEX), indexBytes({ releases }));
    writeChangelog(dir);
  }
  return changed;
}
