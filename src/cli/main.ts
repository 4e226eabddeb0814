#!/usr/bin/env node
// hoba: the command-line door to the atlas. This entry only decides which of two paths a command line
// takes: the reading commands in their usual forms (reading.ts, parsed here, no commander) or everything
// else (program.ts, commander). It imports nothing else at load, so that each path loads only what it needs:
// start-up time is part of the interface (bench/cli-start.mjs).
import type { ReadingCommand } from './reading.ts';

/**
 * The reading commands in their usual forms: `show <id>`, `explain <observation...>` and
 * `search <text...>`, with --json, --dir <checkout> and, for explain, --full. Returns undefined for
 * anything else (another command, any other option, --help, --, a missing or extra argument, a --dir
 * value that starts with a dash), which commander then parses as before: every error message, help text
 * and exit code stays commander's own, and the two parsers can only differ on the forms accepted here
 * (test/e2e/cli.test.ts runs those both ways).
 */
export function readingCommand(argv: readonly string[]): ReadingCommand | undefined {
  const [name, ...rest] = argv;
  if (name !== 'show' && name !== 'explain' && name !== 'search') return undefined;
  const words: string[] = [];
  const opts: ReadingCommand['opts'] = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--json') opts.json = true;
    else if (arg === '--full' && name === 'explain') opts.full = true;
    else if (arg === '--dir' && opts.dir === undefined && i + 1 < rest.length && !rest[i + 1]!.startsWith('-')) opts.dir = rest[++i]!;
    else if (arg.startsWith('-')) return undefined;
    else words.push(arg);
  }
  if (words.length === 0 || (name === 'show' && words.length > 1)) return undefined;
  return { name, words, opts };
}

export async function main(argv: string[]): Promise<number | undefined> {
  const reading = readingCommand(argv);
  // Inlined in the bundle (scripts/build.mjs): no module to find, read and compile on this path.
  if (reading) return (await import('./reading.ts')).runReading(reading);
  // The program (commander, help, the server) writes through the stream: a closed pipe is not an error there either.
  (await import('./out.ts')).stdoutStream();
  return (await import('./program.ts')).runProgram(argv);
}

// No top-level await: the bundle is CommonJS (dist/cli.cjs), which Node loads without its ESM loader.
void main(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
