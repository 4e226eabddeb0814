// hoba graph <id>: the neighbourhood of an entity as text, Mermaid or Graphviz DOT.
import type { Command } from 'commander';
import { formatGraph, GRAPH_FORMATS, type GraphFormat } from '../analysis/graph-format.ts';
import { DIRECTIONS, MAX_DEPTH, type Direction } from '../analysis/terms.ts';
import { traverse } from '../analysis/traverse.ts';
import { RELATIONS } from '../model/vocab.ts';
import { openAtlas } from './atlas.ts';
import { writeJson } from './io.ts';
import { withAnalysisErrors, choiceOption, intOption, InvalidArgumentError } from './text.ts';
import { writeOut } from './out.ts';

interface Options {
  depth: number;
  format: GraphFormat;
  direction: Direction;
  relation?: string[];
  limit: number;
  json?: boolean;
  dir?: string;
}

function collectRelations(value: string, previous: string[] = []): string[] {
  const relations = value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  for (const r of relations) {
    if (!(RELATIONS as readonly string[]).includes(r)) throw new InvalidArgumentError(`Allowed relations are ${RELATIONS.join(', ')}.`);
  }
  return [...previous, ...relations];
}

export function registerGraph(program: Command): void {
  const command = program.command('graph');
  command
    .description('Show the neighbourhood of an entity (text, Mermaid, DOT)')
    .argument('<id>', 'the entity at the centre, e.g. M-008')
    .option('--depth <n>', `steps from the entity, 1 to ${MAX_DEPTH}`, intOption(1, MAX_DEPTH), 1)
    .addOption(choiceOption(command, '--format <format>', 'output format', GRAPH_FORMATS).default('text'))
    .addOption(
      choiceOption(command, '--direction <direction>', 'follow edges out of, into, or both ways from each entity', DIRECTIONS).default(
        'both',
      ),
    )
    .option(
      '--relation <relation>',
      `follow only these relations (repeatable or comma-separated; default all but cites): ${RELATIONS.join(', ')}`,
      collectRelations,
    )
    .option('--limit <n>', 'at most this many entities', intOption(1), 200)
    .option('--json', 'print the nodes and edges as JSON')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
Examples:
  $ hoba graph M-008                                 what the headcount-freeze mechanism touches
  $ hoba graph P-005 --depth 2 --format mermaid      paste into Markdown between \`\`\`mermaid fences
  $ hoba graph L-002 --format dot | dot -Tsvg > loop.svg
  $ hoba graph B-005 --direction in --relation operates_at`,
    )
    .action(async (id: string, opts: Options) => {
      const { registry } = await openAtlas(opts.dir);
      const n = withAnalysisErrors(() =>
        traverse(registry, id, { depth: opts.depth, direction: opts.direction, relations: opts.relation ?? [], limit: opts.limit }),
      );
      if (opts.json) writeJson(n);
      else writeOut(formatGraph(n, opts.format));
    });
}
