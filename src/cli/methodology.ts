// hoba methodology: how to read the atlas (the HOBA protocol, evidence levels, fidelities, facets and
// the rules of inference), as Markdown or JSON.
import type { Command } from 'commander';
import { methodology, methodologyMarkdown } from '../analysis/methodology.ts';
import { openAtlas } from './atlas.ts';
import { writeJson } from './io.ts';
import { writeOut } from './out.ts';

export function registerMethodology(program: Command): void {
  program
    .command('methodology')
    .description('How to read the atlas: HOBA, evidence, fidelity, facets')
    .option('--json', 'print the sections and every vocabulary with its meaning as JSON')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
Examples:
  $ hoba methodology                 the whole text, as Markdown
  $ hoba methodology --json | jq '.vocabularies.fidelities'`,
    )
    .action(async (opts: { json?: boolean; dir?: string }) => {
      const { registry } = await openAtlas(opts.dir);
      const m = methodology(registry);
      if (opts.json) writeJson(m);
      else writeOut(methodologyMarkdown(m));
    });
}
