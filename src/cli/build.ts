// hoba build: write the site root (static REST mirror, OpenAPI, JSON Schemas, pages, host configuration).
// The workflow itself (load, check, build, write) is src/workflows/build.ts; this is its command line.
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_OUT } from '../publish/build.ts';
import { buildCheckout, type Built, type Written } from '../workflows/build.ts';
import { colour, EXIT, resolveCheckout, writeJson } from './io.ts';

interface Options {
  out?: string;
  dir?: string;
  json?: boolean;
}

export function registerBuild(program: Command): void {
  program
    .command('build')
    .description('Write the site: static REST mirror under api/v1/, openapi.json, JSON Schemas, developer page, host configuration')
    .option(
      '--out <dir>',
      `site root to write: a link to a versioned directory beside it, swapped in whole (default: ${DEFAULT_OUT}/ in the checkout)`,
    )
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
    console.log(
      colour.yellow(
        `  note: the content has ${built.warnings} validation warning${built.warnings === 1 ? '' : 's'}; hoba validate --strict --dir ${dir} lists them`,
      ),
    );
  }
}
