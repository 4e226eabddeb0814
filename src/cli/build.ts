// hoba build: write the site root (static REST mirror, OpenAPI, JSON Schemas, pages, host configuration).
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { buildSite, DEFAULT_OUT, outDirProblem, streamSite, type BuildInfo, type Site, type WrittenSite } from '../publish/build.ts';
import { BuildLocked, lockSite, OutDirRefused } from '../publish/site-dir.ts';
import { contentHash } from '../registry/hash.ts';
import { loadAtlas } from '../registry/load.ts';
import { trainingCorpus } from '../registry/reader-corpus.ts';
import { BUNDLED_SNAPSHOT, readSnapshot } from '../registry/snapshot.ts';
import { recordedReleases } from './release.ts';
import type { Registry } from '../registry/registry.ts';
import { validateAtlas } from '../registry/validate.ts';
import { CliError, colour, EXIT, resolveCheckout, writeJson } from './io.ts';

interface Options {
  out?: string;
  dir?: string;
  json?: boolean;
}

export function registerBuild(program: Command): void {
  program
    .command('build')
    .description('Write the site: static REST mirror under api/v1/, openapi.json, JSON Schemas, developer page, host configuration')
    .option('--out <dir>', `site root to write: a link to a versioned directory beside it, swapped in whole (default: ${DEFAULT_OUT}/ in the checkout)`)
    .option('--dir <checkout>', 'atlas checkout to build (default: $HOBA_DIR, then the nearest ancestor holding content/atlas.yaml)')
    .option('--json', 'print the build summary as JSON')
    .addHelpText(
      'after',
      `
The build refuses content with validation errors (run hoba validate to see them). Two builds of the same
content are byte-identical; the summary prints the content hash and a digest of the site.

A relative --out is taken from the working directory, as with any other tool. The site is written beside
--out and swapped in whole (readers see the old site or the new one); one build at a time writes a site
(another exits 1, build-locked); a directory that holds anything but a site a build wrote, or a file, is
never replaced (out-dir-refused).

Examples:
  $ hoba build                      writes _site/ in the checkout
  $ hoba build --out /tmp/site --json`,
    )
    .action((opts: Options) => {
      const dir = resolveCheckout(opts.dir);
      const out = outDir(dir, opts.out);
      const built = buildCheckout(dir, out);
      if (opts.json) writeJson(summary(built, out));
      else printSummary(built, out, dir);
      process.exitCode = EXIT.ok;
    });
}

/**
 * The site root a command writes or serves: --out as given, relative to the working directory like any
 * path on a command line; by default _site/ in the checkout.
 */
export function outDir(checkout: string, outOption: string | undefined): string {
  return outOption === undefined ? join(checkout, DEFAULT_OUT) : resolve(outOption);
}

export interface Built {
  registry: Registry;
  info: BuildInfo;
  site: Site;
  warnings: number;
}

/** Loads and checks a checkout. Content with errors is refused. */
function loadChecked(dir: string): Omit<Built, 'site'> {
  const load = loadAtlas(dir);
  const problems = validateAtlas(load);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}: ` : '';
    throw new CliError(
      `the content has ${errors.length} validation error${errors.length === 1 ? '' : 's'}, so no site was built. First: ${where}${first.rule}: ${first.message}\nRun \`hoba validate\` for the full report.`,
      1,
      'invalid-content',
    );
  }
  const info = buildInfo(dir);
  return { registry: load.registry, info, warnings: problems.length };
}

/** Loads and checks a checkout and builds its site in memory. Content with errors is refused. */
export function buildInMemory(dir: string): Built {
  const checked = loadChecked(dir);
  return { ...checked, site: buildSite(checked.registry, checked.info) };
}

/** A build written to disk: the site's files are not kept in memory (streamSite). */
export type Written = Omit<Built, 'site'> & { site: WrittenSite };

/** What a build records besides the registry: the content hash (serve's staleness check), the generator
 * and the checkout's recorded releases (releases/), which the site publishes with their downloads. */
export function buildInfo(dir: string): BuildInfo {
  const reuse = readSnapshot(BUNDLED_SNAPSHOT)?.index('reader');
  return { contentHash: contentHash(dir), generator: GENERATOR, releases: recordedReleases(dir), readerCorpus: trainingCorpus(dir), ...(reuse !== undefined ? { readerReuse: reuse } : {}) };
}

export const GENERATOR = `hoba ${pkg.version}`;

/**
 * Builds a checkout and writes its site to `out`, swapped in whole (src/publish/site-dir.ts). The lock on
 * `out` is taken before the content is read, so that of builds started together one goes on and the
 * others stop at once.
 */
export function buildCheckout(dir: string, out: string): Written {
  const refusal = outDirProblem(out, dir);
  if (refusal) throw new CliError(refusal, 2, 'out-dir-refused');
  let release: () => void;
  try {
    release = lockSite(resolve(out));
  } catch (err) {
    throw siteError(err, out);
  }
  try {
    const checked = loadChecked(dir);
    // Written file by file as it is made: a large atlas's site never sits in memory whole.
    return { ...checked, site: streamSite(checked.registry, checked.info, out) };
  } catch (err) {
    throw siteError(err, out);
  } finally {
    release();
  }
}

/** A failure to write the site, as the CLI reports it. */
function siteError(err: unknown, out: string): unknown {
  if (err instanceof CliError) return err;
  if (err instanceof OutDirRefused) return new CliError(err.message, 2, 'out-dir-refused');
  if (err instanceof BuildLocked) return new CliError(err.message, 1, 'build-locked');
  return new CliError(`could not write ${out}: ${(err as Error).message}`, 1, 'write-failed');
}

export function summary(built: Built | Written, out: string) {
  return {
    out,
    registry_version: built.registry.version,
    files: built.site.files.length,
    bytes: built.site.bytes,
    content_hash: built.info.contentHash,
    site_digest: built.site.digest,
    warnings: built.warnings,
  };
}

export function printSummary(built: Built | Written, out: string, dir: string): void {
  const where = relative(process.cwd(), out) || '.';
  const kb = (built.site.bytes / 1024).toFixed(0);
  console.log(colour.green(`✔ built ${where}/: ${built.site.files.length} files, ${kb} KiB (registry ${built.registry.version})`));
  console.log(`  content sha256 ${built.info.contentHash}`);
  console.log(`  site    sha256 ${built.site.digest}`);
  if (built.warnings > 0) {
    console.log(colour.yellow(`  note: the content has ${built.warnings} validation warning${built.warnings === 1 ? '' : 's'}; hoba validate --strict --dir ${dir} lists them`));
  }
}
