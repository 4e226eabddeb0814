// hoba release: record the checkout's content as a release (releases/), check the recorded releases, or
// refresh their checksums. The workflow is src/workflows/release.ts; this is its command line and printing.
import type { Command } from 'commander';
import { downloadsUrl } from '../publish/downloads.ts';
import { RELEASE_INDEX } from '../registry/releases.ts';
import {
  CHANGELOG_FILE,
  checkReleases,
  recordRelease,
  refreshChecksums,
  summaryOf,
  type RecordOutcome,
  type ReleaseCheck,
} from '../workflows/release.ts';
import { CliError, colour, EXIT, resolveCheckout, writeJson } from './io.ts';

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
    .description(
      'Record the checkout’s content as a release (releases/), with the checksum of every download file, and regenerate CHANGELOG.md',
    )
    .option('--replace', 're-record the latest release with the current content (only for a release that was never published)')
    .option(
      '--check',
      'rebuild every recorded release and compare its files with the recorded checksums, and CHANGELOG.md with the releases; record nothing',
    )
    .option(
      '--refresh-checksums',
      'record the checksums of every release’s files as the current code builds them (only for releases never published, after a deliberate change to the download formats)',
    )
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
        throw new CliError(
          '--replace, --check and --refresh-checksums are separate operations; pass one of them. Run hoba release --help for usage.',
          2,
          'usage',
        );
      }
      process.exitCode = opts.check
        ? printCheck(checkReleases(dir), opts)
        : opts.refreshChecksums
          ? printRefresh(refreshChecksums(dir), opts)
          : report(opts, recordRelease(dir, opts.replace === true));
    });
}

function report(opts: Options, { status, release: rec, diff, note }: RecordOutcome): number {
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
  console.log(
    colour.green(`✔ ${verb} release ${rec.version} (released ${rec.released}, schema ${rec.schema_version}) in ${RELEASE_INDEX}`),
  );
  console.log(`  content sha256 ${rec.content_hash}`);
  console.log(`  data    sha256 ${rec.data.sha256}  releases/${rec.data.file}`);
  console.log(`  ${rec.files.length} download files, served under ${downloadsUrl(rec.version)}`);
  if (diff) console.log(`  since ${diff.from.version}: ${summaryOf(diff)} (a ${diff.required_bump} change)`);
  console.log(`  ${CHANGELOG_FILE} regenerated`);
  return EXIT.ok;
}

/** Prints a check of the recorded releases; its exit status. */
function printCheck({ ok, recorded, results, changelog }: ReleaseCheck, opts: Options): number {
  if (opts.json) {
    writeJson({
      ok,
      releases: results.map(({ version, ok, differing, error }) => ({ version, ok, differing, ...(error ? { error } : {}) })),
      changelog,
    });
  } else {
    if (recorded === 0) console.log('no release is recorded (releases/index.json); hoba release records one.');
    for (const r of results) {
      if (r.ok) console.log(colour.green(`✔ ${r.version}: every file rebuilds to its recorded checksum`));
      else if (r.error) console.log(colour.red(`✖ ${r.version}: ${r.error}`));
      else
        console.log(
          colour.red(
            `✖ ${r.version}: ${r.differing.join(', ')} no longer rebuild${r.differing.length === 1 ? 's' : ''} to the recorded checksum: a code change altered a recorded release. Restore the download formats (or, for releases never published, hoba release --refresh-checksums).`,
          ),
        );
    }
    if (changelog === 'stale')
      console.log(
        colour.red(
          `✖ ${CHANGELOG_FILE} differs from what the recorded releases make: it is generated, so regenerate it with hoba release (or restore it).`,
        ),
      );
    if (changelog === 'missing') console.log(colour.red(`✖ ${CHANGELOG_FILE} is missing: hoba release regenerates it.`));
  }
  return ok ? EXIT.ok : EXIT.failure;
}

/** Prints which releases had their checksums refreshed. */
function printRefresh(changed: string[], opts: Options): number {
  if (opts.json) writeJson({ refreshed: changed, index: RELEASE_INDEX });
  else if (changed.length === 0)
    console.log(colour.green('✔ every recorded release already rebuilds to its recorded checksums; nothing changed.'));
  else
    console.log(
      colour.yellow(
        `✔ recorded new checksums for ${changed.join(', ')} in ${RELEASE_INDEX}. Do this only for releases never published: anyone holding their old files now holds files with other checksums.`,
      ),
    );
  return EXIT.ok;
}
