// The reading commands in their usual forms (main.ts decides which forms): the command module's own
// run function, the one its commander action calls, with failures reported as the commander path reports
// them. The build bundles this module and what it loads into the entry, dist/cli.cjs (scripts/build.mjs):
// loading one module instead of a dozen small chunks is most of what these commands' start-up can save.
import { EXIT, reportFailure } from './io.ts';

export interface ReadingCommand {
  name: 'show' | 'explain' | 'search';
  /** The arguments: one ID for show; observations or words for explain; words for search. */
  words: string[];
  opts: { json?: boolean; dir?: string; full?: boolean };
}

/** Runs the command; returns its exit status. */
export async function runReading({ name, words, opts }: ReadingCommand): Promise<number> {
  try {
    // Each command's module only when it runs: their top-level work (and, from source, their loading) is
    // not paid by the others.
    if (name === 'show') await (await import('./show.ts')).runShow(words[0]!, opts);
    else if (name === 'explain') await (await import('./explain.ts')).runExplain(words, opts);
    else await (await import('./search.ts')).runSearch(words, opts);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    return reportFailure(err, opts.json === true);
  }
}
