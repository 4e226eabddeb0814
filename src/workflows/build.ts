// The build workflow: load and check a checkout, then make its site (in memory, or written to disk and
// swapped in whole). This is where publishing (src/publish/) is handed the site's pages (src/site/);
// hoba build, hoba serve and hoba validate's mirror check (src/cli/) wire it to the command line.
import { resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { READER_INDEX } from '../analysis/reader.ts';
import { buildSite, outDirProblem, streamSite } from '../publish/build.ts';
import type { BuildInfo } from '../publish/documents.ts';
import { BuildLocked, lockSite, OutDirRefused } from '../publish/site-dir.ts';
import type { Site, WrittenSite } from '../publish/site-file.ts';
import { contentHash } from '../registry/hash.ts';
import { loadAtlas } from '../registry/load.ts';
import { trainingCorpus } from '../registry/reader-corpus.ts';
import { reusableIndexes } from '../registry/snapshot.ts';
import type { Registry } from '../registry/registry.ts';
import { validateAtlas } from '../registry/validate.ts';
import { SITE_PAGES } from '../site/index.ts';
import { WorkflowError } from './errors.ts';
import { recordedReleases } from './release.ts';

export interface Built {
  registry: Registry;
  info: BuildInfo;
  site: Site;
  warnings: number;
}

/** A build written to disk: the site's files are not kept in memory (streamSite). */
export type Written = Omit<Built, 'site'> & { site: WrittenSite };

export const GENERATOR = `hoba ${pkg.version}`;

/** Every file of the site of a registry (the REST mirror and the pages), in memory. */
export function buildAtlasSite(reg: Registry, info: BuildInfo): Site {
  return buildSite(reg, info, SITE_PAGES);
}

/** Loads and checks a checkout. Content with errors is refused. */
function loadChecked(dir: string): Omit<Built, 'site'> {
  const load = loadAtlas(dir);
  const problems = validateAtlas(load);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = first.file ? `${first.file}${first.line ? `:${first.line}` : ''}: ` : '';
    throw new WorkflowError(
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
  return { ...checked, site: buildAtlasSite(checked.registry, checked.info) };
}

/** What a build records besides the registry: the content hash (serve's staleness check), the generator
 * and the checkout's recorded releases (releases/), which the site publishes with their downloads. */
export function buildInfo(dir: string): BuildInfo {
  return {
    contentHash: contentHash(dir),
    generator: GENERATOR,
    releases: recordedReleases(dir),
    readerCorpus: trainingCorpus(dir),
    readerReuse: reusableIndexes(dir, READER_INDEX),
  };
}

/**
 * Builds a checkout and writes its site to `out`, swapped in whole (src/publish/site-dir.ts). The lock on
 * `out` is taken before the content is read, so that of builds started together one goes on and the
 * others stop at once.
 */
export function buildCheckout(dir: string, out: string): Written {
  const refusal = outDirProblem(out, dir);
  if (refusal) throw new WorkflowError(refusal, 2, 'out-dir-refused');
  let release: () => void;
  try {
    release = lockSite(resolve(out));
  } catch (err) {
    throw siteError(err, out);
  }
  try {
    const checked = loadChecked(dir);
    // Written file by file as it is made: a large atlas's site never sits in memory whole.
    return { ...checked, site: streamSite(checked.registry, checked.info, SITE_PAGES, out) };
  } catch (err) {
    throw siteError(err, out);
  } finally {
    release();
  }
}

/** A failure to write the site, as a failure for people. */
function siteError(err: unknown, out: string): unknown {
  if (err instanceof WorkflowError) return err;
  if (err instanceof OutDirRefused) return new WorkflowError(err.message, 2, 'out-dir-refused');
  if (err instanceof BuildLocked) return new WorkflowError(err.message, 1, 'build-locked');
  return new WorkflowError(`could not write ${out}: ${(err as Error).message}`, 1, 'write-failed');
}
