// hoba diff: what changed between two releases (or a release and the checkout's current content), in the
// categories a user can act on, and the semver bump the changes need.
import type { Command } from 'commander';
import { diffRegistries, type ChangedEntity, type DiffEntity, type FieldChange, type RegistryDiff } from '../analysis/diff.ts';
import { KINDS } from '../model/vocab.ts';
import { loadAtlas } from '../registry/load.ts';
import type { RegistryData } from '../registry/registry.ts';
import { bumpSatisfies, effectiveBump, nextVersion, versionBump } from '../registry/release-model.ts';
import { findRelease, readReleaseData, readReleaseIndex, ReleaseError, type ReleaseIndex } from '../registry/releases.ts';
import { CliError, colour, EXIT, resolveCheckout, writeJson } from './io.ts';
import { WIDTH, wrap } from './text.ts';
import { writeOut } from './out.ts';

/** The version name that stands for the checkout's content as it is now. */
export const CURRENT = 'current';

interface Options {
  dir?: string;
  json?: boolean;
  full?: boolean;
}

export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description('What changed between two releases, or a release and the current content, and the version bump it needs')
    .argument('<from>', `a recorded release version (see releases/index.json), or ${CURRENT} for the checkout's content`)
    .argument('<to>', `a recorded release version, or ${CURRENT}`)
    .option('--full', 'print changed values whole (by default long values are shortened)')
    .option('--json', 'print the whole diff as JSON (every value whole)')
    .option(
      '--dir <checkout>',
      'atlas checkout whose releases/ and content to read (default: $HOBA_DIR, then the nearest ancestor holding content/atlas.yaml)',
    )
    .addHelpText(
      'after',
      `
Categories: added (new IDs), changed (per entity: which fields, with the values before and after, or the
items added to and removed from a list), deprecated or superseded, restored (deprecated → active), and
removed (IDs that no longer resolve). The bump: major when an ID is removed or renamed (while the version
is 0.x, a minor bump), minor for new, deprecated or restored entities, patch for edits alone.

Examples:
  $ hoba diff 0.2.0 0.3.0
  $ hoba diff 0.3.0 current         what the next release will hold, and the version it needs
  $ hoba diff 0.2.0 0.3.0 --json | jq '.changed[] | select(.id == "B-007")'`,
    )
    .action((from: string, to: string, opts: Options) => {
      const dir = resolveCheckout(opts.dir);
      const index = readIndex(dir);
      const diff = diffRegistries(dataOf(dir, index, from), dataOf(dir, index, to));
      if (opts.json) writeJson({ registry_version: diff.to.version, ...diff });
      else writeOut(diffText(diff, opts.full === true));
      process.exitCode = EXIT.ok;
    });
}

function readIndex(dir: string): ReleaseIndex {
  try {
    return readReleaseIndex(dir);
  } catch (err) {
    if (err instanceof ReleaseError) throw new CliError(err.message, 1, 'failed');
    throw err;
  }
}

/** The registry data a version names: a recorded release's, or the checkout's current content. */
function dataOf(dir: string, index: ReleaseIndex, version: string): RegistryData {
  if (version === CURRENT) {
    const load = loadAtlas(dir);
    const errors = load.problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) {
      throw new CliError(
        `the checkout's content has ${errors.length} error${errors.length === 1 ? '' : 's'} (first: ${errors[0]!.file ?? ''}${errors[0]!.line ? `:${errors[0]!.line}` : ''} ${errors[0]!.message}), so it cannot be compared. Run hoba validate for the full report.`,
        1,
        'invalid-content',
      );
    }
    return { ...load.registry.toData(), edges: [...load.registry.edges] };
  }
  const record = findRelease(index, version);
  if (!record) {
    const known = index.releases.map((r) => r.version);
    throw new CliError(
      `${version} is not a recorded release. ${known.length > 0 ? `Recorded: ${known.join(', ')}; or ${CURRENT} for the checkout's content.` : `No release is recorded yet (releases/index.json); hoba release records one. ${CURRENT} names the checkout's content.`}`,
      2,
      'invalid-argument',
      { allowed: [...known, CURRENT] },
    );
  }
  try {
    return readReleaseData(dir, record);
  } catch (err) {
    if (err instanceof ReleaseError) throw new CliError(err.message, 1, 'failed');
    throw err;
  }
}

const LIMIT = 70;

/** A value for one line: quoted text (shortened unless full), or the literal. */
function shown(value: unknown, full: boolean): string {
  if (value === undefined) return '(none)';
  if (typeof value !== 'string') return JSON.stringify(value);
  const flat = value.replace(/\s+/g, ' ').trim();
  return JSON.stringify(full || flat.length <= LIMIT ? flat : `${flat.slice(0, LIMIT - 1)}…`);
}

function fieldLines(change: FieldChange, full: boolean): string[] {
  if (change.change === 'value') {
    if (change.before === undefined) return [`${change.field}: added ${shown(change.after, full)}`];
    if (change.after === undefined) return [`${change.field}: removed (was ${shown(change.before, full)})`];
    return [`${change.field}: ${shown(change.before, full)} → ${shown(change.after, full)}`];
  }
  const items = (sign: string, list: readonly string[]) => list.map((item) => `${sign} ${shown(item, full).replace(/^"(.*)"$/, '$1')}`);
  const parts = [
    ...items('+', change.added),
    ...items('−', change.removed),
    ...items('~', change.changed),
    ...(change.reordered ? ['(reordered)'] : []),
  ];
  // Short items (IDs, stages) on one line; prose items one per line.
  const oneLine = `${change.field}: ${parts.join(' ')}`;
  return oneLine.length <= WIDTH - 6 ? [oneLine] : [`${change.field}:`, ...parts.map((p) => `  ${p}`)];
}

function entityHeading(e: DiffEntity): string {
  return `${colour.bold(e.id)} ${e.title}`;
}

/** The readable summary: the bump, then each category, entities grouped by kind. */
export function diffText(diff: RegistryDiff, full: boolean): string {
  const out: string[] = [];
  const { from, to } = diff;
  const schema =
    from.schema_version === to.schema_version ? `schema ${to.schema_version}` : `schema ${from.schema_version} → ${to.schema_version}`;
  out.push(colour.bold(`Changes from ${from.version} to ${to.version}`) + ` (${schema})`, '');
  if (diff.required_bump === 'none') {
    out.push('No change to the content.');
  } else {
    const needs = effectiveBump(from.version, diff.required_bump);
    const zero = needs !== diff.required_bump ? ` (a ${diff.required_bump} change: while the version is 0.x, a ${needs} bump)` : '';
    out.push(...wrap(`Needs a ${needs} version bump${zero}: ${diff.reasons.join('; ')}.`).split('\n'));
    const moved = versionBump(from.version, to.version);
    if (from.version !== to.version) {
      const ok = bumpSatisfies(from.version, to.version, diff.required_bump);
      out.push(
        ok
          ? colour.green(`${to.version} is a ${moved === 'lower' ? 'lower version' : `${moved} bump`}: enough.`)
          : colour.red(
              `${to.version} is ${moved === 'lower' ? 'a lower version' : `a ${moved} bump`}: not enough; the next version would be ${nextVersion(from.version, diff.required_bump)}.`,
            ),
      );
    } else {
      out.push(
        colour.red(
          `Both sides are ${to.version}: the version was not bumped; the next version would be ${nextVersion(from.version, diff.required_bump)}.`,
        ),
      );
    }
  }
  const byKind = <T extends DiffEntity>(title: string, list: readonly T[], lines: (e: T) => string[]) => {
    if (list.length === 0) return;
    out.push('', colour.bold(`${title} (${list.length})`));
    for (const kind of KINDS) {
      const ofKind = list.filter((e) => e.kind === kind);
      if (ofKind.length === 0) continue;
      out.push(`  ${kind} (${ofKind.length})`);
      for (const e of ofKind) out.push(...lines(e).map((l, i) => `${i === 0 ? '    ' : '        '}${l}`));
    }
  };
  const changedLines = (e: ChangedEntity) => [entityHeading(e), ...e.fields.flatMap((f) => fieldLines(f, full))];
  byKind('Added', diff.added, (e) => [entityHeading(e)]);
  byKind('Changed', diff.changed, changedLines);
  byKind('Deprecated or superseded', diff.deprecated, (e) => [
    `${entityHeading(e)}${e.superseded_by ? ` → superseded by ${e.superseded_by}` : ''}`,
    ...e.fields.filter((f) => f.field !== 'status' && f.field !== 'superseded_by').flatMap((f) => fieldLines(f, full)),
  ]);
  byKind('Restored', diff.restored, changedLines);
  byKind('Removed', diff.removed, (e) => [`${entityHeading(e)} (links to it no longer resolve)`]);
  if (diff.manifest.length > 0) {
    out.push('', colour.bold('Manifest'));
    for (const f of diff.manifest) out.push(...fieldLines(f, full).map((l) => `  ${l}`));
  }
  return out.join('\n') + '\n';
}
