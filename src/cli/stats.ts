// hoba stats: the atlas in numbers, and whether it meets its depth targets (counts, sources, topics,
// jurisdictions, intervention actors, specimens, perspectives, graph shape).
import type { Command } from 'commander';
import { atlasStats, statsText } from '../analysis/stats.ts';
import { openAtlas } from './atlas.ts';
import { EXIT, writeJson } from './io.ts';
import { writeOut } from './out.ts';

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('The atlas in numbers, and whether it meets its depth targets')
    .option('--json', 'print the figures and every target as JSON')
    .option('--check', 'exit 1 when a target is not met (for CI)')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
Examples:
  $ hoba stats                       targets (✔/✖), topics, law by jurisdiction, intervention actors
  $ hoba stats --check               the same, exiting 1 if a target is not met
  $ hoba stats --json | jq '.targets[] | select(.met | not)'`,
    )
    .action(async (opts: { json?: boolean; check?: boolean; dir?: string }) => {
      const { registry } = await openAtlas(opts.dir);
      const stats = atlasStats(registry);
      if (opts.json) writeJson(stats);
      else writeOut(statsText(stats));
      if (opts.check && !stats.met) process.exitCode = EXIT.failure;
    });
}
