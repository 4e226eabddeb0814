// hoba release: record the checkout's content as a release (releases/), with the SHA-256 of every download
// file, and regenerate CHANGELOG.md. A recorded release is immutable: recording the same version again is
// a no-op when the content is the same and an error when it is not (bump registry_version), except with
// --replace, which re-records the latest release and is meant only for one that was never published.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { changelogMarkdown, diffRegistries, releaseVersionProblems, type RegistryDiff } from '../analysis/diff.ts';
import { changelogEntries } from '../publish/documents.ts';
import { downloadFiles, downloadsUrl } from '../publish/downloads.ts';
import { releaseDownloadFiles } from '../publish/build.ts';
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
import { CliError, colour, EXIT, resolveCheckout, writeJson } from './io.ts';

export const CHANGELOG_FILE = 'CHANGELOG.md';

interface Options {
  dir?: string;
  json?: boolean;
  replace?: boolean;
  check?: boolean;
  refreshChecksums?: boolean;
}

export function registerRelease(program: Command): void {
  program
    .command('release')
    .description('Record the checkout’s content as a release (releases/), with the checksum of every download file, and regenerate CHANGELOG.md')
    .option('--replace', 're-record the latest release with the current content (only for a release that was never published)')
    .option('--check', 'rebuild every recorded release and compare its files with the recorded checksums, and CHANGELOG.md with the releases; record nothing')
    .option('--refresh-checksums', 'record the checksums of every release’s files as the current code builds them (only for releases never published, after a deliberate change to the download formats)')
    .option('--dir <checkout>', 'atlas checkout to record (default: $HOBA_DIR, then the nearest ancestor holding content/atlas.yaml)')
    .option('--json', 'print what was recorded as JSON')
    .addHelpText(
      'after',
      `
A release is the content's registry_version (content/atlas.yaml) with its released date, its content hash,
its registry data as canonical JSON (releases/<version>.json, from which a fresh clone rebuilds every file
of it byte for byte) and the SHA-256 of each download file (releases/index.json). The site serves each
release's files under /downloads/<version>/ and describes it at /api/v1/releases/<version>.

Recording a version already recorded with the same content changes nothing. With different content it is
refused: bump registry_version by what the changes need (hoba diff <latest> current says which), then run
hoba release again. --replace re-records the latest release instead: use it only if that release was never
deployed or tagged, since anyone holding its files would then hold different ones.

The version must go up from the latest release by at least the bump the changes need: major when an ID is
removed (while the version is 0.x, a minor bump), minor for new, deprecated or restored entities, patch
for edits alone.

Exit status: 0 recorded (or already recorded), 1 refused or a check failed, 2 usage error.

Examples:
  $ hoba release                    record content/atlas.yaml's registry_version
  $ hoba release --replace          re-record the latest release (never published) with the current content
  $ hoba release --check            every recorded release still rebuilds byte for byte
  $ hoba diff 0.2.0 current         what the next release will hold`,
    )
    .action((opts: Options) => {
      const dir = resolveCheckout(opts.dir);
      if ([opts.replace, opts.check, opts.refreshChecksums].filter(Boolean).length > 1) {
        throw new CliError('--replace, --check and --refresh-checksums are separate operations; pass one of them. Run hoba release --help for usage.', 2, 'usage');
      }
      process.exitCode = opts.check ? checkReleases(dir, opts) : opts.refreshChecksums ? refreshChecksums(dir, opts) : record(dir, opts);
    });
}

/** The recorded releases of a checkout, read and checked; a damaged releases/ is a failure for people. */
export function recordedReleases(dir: string): RecordedRelease[] {
  try {
    return loadReleases(dir);
  } catch (err) {
    if (err instanceof ReleaseError) throw new CliError(err.message, 1, 'failed');
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
  return releaseDownloadFiles(release).map((f) => ({ file: f.file, media_type: f.media_type, bytes: f.bytes.length, sha256: sha256(f.bytes) }));
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

function summaryOf(diff: RegistryDiff): string {
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

type Status = 'recorded' | 'replaced' | 'unchanged';

function record(dir: string, opts: Options): number {
  const load = loadAtlas(dir);
  const bibliography = loadBibliography(bibliographyPath(dir));
  const errors = validateAtlas(load, { bibliography }).filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}: ` : '';
    throw new CliError(
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
    const changed = [...new Set([...stored.keys(), ...current.keys()])].filter((n) => !stored.get(n)?.equals(current.get(n) ?? Buffer.alloc(0)));
    if (changed.length > 0) {
      throw new CliError(
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
  let status: Status = 'recorded';
  let previous: ReleaseRecord | undefined = latest;
  if (existing) {
    if (sameRecord(existing, rec)) return report(opts, 'unchanged', rec, undefined, `release ${version} is already recorded with this content; nothing to do${writeChangelog(dir) ? ` (${CHANGELOG_FILE} regenerated)` : ''}.`);
    const sameData = existing.data.sha256 === rec.data.sha256;
    if (!opts.replace) {
      if (sameData && differingFiles(existing.files, rec.files).length === 0) {
        // Only the form of the content files changed (comments, layout): the release's data and files are the same.
        writeChangelog(dir);
        return report(opts, 'unchanged', existing, undefined, `release ${version} is already recorded with this data; the content files differ only in form, so nothing was recorded (its content hash stays ${existing.content_hash.slice(0, 12)}…).`);
      }
      if (sameData) {
        const files = differingFiles(existing.files, rec.files);
        throw new CliError(
          `release ${version} is recorded with this content, but its files no longer rebuild to the recorded checksums (${files.join(', ')}): a code change altered a release's downloads. Restore the download formats; or, if ${version} was never published, record the new checksums with hoba release --replace.`,
          1,
          'failed',
        );
      }
      const diff = diffRegistries(wrap(() => readReleaseData(dir, existing)), data);
      const needed = nextVersion(version, diff.required_bump === 'none' ? 'patch' : diff.required_bump);
      throw new CliError(
        `release ${version} is already recorded, with different content (${summaryOf(diff)}; hoba diff ${version} current lists it). A recorded release never changes: set registry_version to ${needed} in content/atlas.yaml (the changes need a ${effectiveBump(version, diff.required_bump === 'none' ? 'patch' : diff.required_bump)} bump) and run hoba release again. If ${version} was never published (deployed or tagged), re-record it with hoba release --replace.`,
        1,
        'failed',
      );
    }
    if (existing !== latest) {
      throw new CliError(
        `release ${version} is not the latest recorded release (${latest!.version} is), so it cannot be replaced: later releases were compared with it. Record the content as a new version instead.`,
        1,
        'failed',
      );
    }
    status = 'replaced';
    previous = index.releases.at(-2);
  } else if (opts.replace) {
    throw new CliError(`--replace re-records a recorded release, but ${version} is not recorded yet. Run hoba release without --replace to record it.`, 2, 'invalid-argument');
  } else if (latest && compareVersions(version, latest.version) < 0) {
    throw new CliError(
      `registry_version ${version} is below the latest recorded release ${latest.version}: versions only go up. Set registry_version in content/atlas.yaml above ${latest.version}.`,
      1,
      'failed',
    );
  }

  let diff: RegistryDiff | undefined;
  if (previous) {
    diff = diffRegistries(wrap(() => readReleaseData(dir, previous)), data);
    if (diff.required_bump === 'none') {
      throw new CliError(`the content is the same as release ${previous.version}, so there is nothing new to record as ${version}.`, 1, 'failed');
    }
    if (!bumpSatisfies(previous.version, version, diff.required_bump)) {
      const needs = effectiveBump(previous.version, diff.required_bump);
      throw new CliError(
        `${version} is too small a step from the release before it, ${previous.version}: ${diff.reasons.join('; ')}. That needs a ${needs} bump: set registry_version to ${nextVersion(previous.version, diff.required_bump)} in content/atlas.yaml and run hoba release again.`,
        1,
        'failed',
      );
    }
    if (released < previous.released) {
      throw new CliError(`released ${released} is before the date of the release before it (${previous.version}, ${previous.released}). Set released in content/atlas.yaml to the date of this release.`, 1, 'failed');
    }
  }

  wrap(() => writeRelease(dir, rec, bytes, schemas));
  writeChangelog(dir);
  return report(opts, status, rec, diff);
}

/** Runs a releases/ operation, turning a damaged releases/ into a failure for people. */
function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ReleaseError) throw new CliError(err.message, 1, 'failed');
    throw err;
  }
}

/** CHANGELOG.md as the recorded releases make it. */
export function changelogText(dir: string): string {
  return changelogMarkdown(changelogEntries(recordedReleases(dir)), (version) => downloadsUrl(version), (version) => releaseNotes(dir, version));
}

/** Where a release's authored notes are kept (Markdown; headings start at ####, under the release's "Notes"). */
export const NOTES_DIR = 'releases/notes';

/** A release's authored notes, when releases/notes/<version>.md exists. */
export function releaseNotes(dir: string, version: string): string | undefined {
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

function report(opts: Options, status: Status, rec: ReleaseRecord, diff: RegistryDiff | undefined, note?: string): number {
  if (opts.json) {
    writeJson({
      registry_version: rec.version,
      status,
      release: rec,
      previous: diff?.from.version ?? null,
      required_bump: diff?.required_bump ?? null,
      counts: diff?.counts ?? null,
      index: RELEASE_INDEX,
      changelog: CHANGELOG_FILE,
      ...(note ? { note } : {}),
    });
    return EXIT.ok;
  }
  if (note) {
    console.log(colour.green(`✔ ${note}`));
    return EXIT.ok;
  }
  const verb = status === 'replaced' ? 're-recorded' : 'recorded';
  console.log(colour.green(`✔ ${verb} release ${rec.version} (released ${rec.released}, schema ${rec.schema_version}) in ${RELEASE_INDEX}`));
  console.log(`  content sha256 ${rec.content_hash}`);
  console.log(`  data    sha256 ${rec.data.sha256}  releases/${rec.data.file}`);
  console.log(`  ${rec.files.length} download files, served under ${downloadsUrl(rec.version)}`);
  if (diff) console.log(`  since ${diff.from.version}: ${summaryOf(diff)} (a ${diff.required_bump} change)`);
  console.log(`  ${CHANGELOG_FILE} regenerated`);
  return EXIT.ok;
}

/** Every recorded release rebuilt and compared with its record, and CHANGELOG.md with the releases. */
function checkReleases(dir: string, opts: Options): number {
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
    changelog = text === undefined ? (index.releases.length > 0 ? 'missing' : 'current') : text === changelogText(dir) ? 'current' : 'stale';
  }
  const ok = results.every((r) => r.ok) && changelog === 'current';
  if (opts.json) {
    writeJson({ ok, releases: results.map(({ version, ok, differing, error }) => ({ version, ok, differing, ...(error ? { error } : {}) })), changelog });
  } else {
    if (index.releases.length === 0) console.log('no release is recorded (releases/index.json); hoba release records one.');
    for (const r of results) {
      if (r.ok) console.log(colour.green(`✔ ${r.version}: every file rebuilds to its recorded checksum`));
      else if (r.error) console.log(colour.red(`✖ ${r.version}: ${r.error}`));
      else console.log(colour.red(`✖ ${r.version}: ${r.differing.join(', ')} no longer rebuild${r.differing.length === 1 ? 's' : ''} to the recorded checksum: a code change altered a recorded release. Restore the download formats (or, for releases never published, hoba release --refresh-checksums).`));
    }
    if (changelog === 'stale') console.log(colour.red(`✖ ${CHANGELOG_FILE} differs from what the recorded releases make: it is generated, so regenerate it with hoba release (or restore it).`));
    if (changelog === 'missing') console.log(colour.red(`✖ ${CHANGELOG_FILE} is missing: hoba release regenerates it.`));
  }
  return ok ? EXIT.ok : EXIT.failure;
}

/** Records the checksums of every release's files as the current code builds them. */
function refreshChecksums(dir: string, opts: Options): number {
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
  if (opts.json) writeJson({ refreshed: changed, index: RELEASE_INDEX });
  else if (changed.length === 0) console.log(colour.green('✔ every recorded release already rebuilds to its recorded checksums; nothing changed.'));
  else console.log(colour.yellow(`✔ recorded new checksums for ${changed.join(', ')} in ${RELEASE_INDEX}. Do this only for releases never published: anyone holding their old files now holds files with other checksums.`));
  return EXIT.ok;
}
