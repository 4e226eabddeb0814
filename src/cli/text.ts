// Plain-text layout for the reading commands: wrapped paragraphs, headings, hanging-indent lists.
import type { Command, Option } from 'commander';
import { CliError, colour } from './io.ts';
import { stdoutColumns } from './out.ts';
import { AnalysisError } from '../analysis/resolve.ts';

/** Text width: the terminal's, capped so prose stays readable; 100 when not a terminal. */
export const WIDTH = Math.max(60, Math.min(stdoutColumns() ?? 100, 100));

/**
 * Width for reports that must fit a small screen (explain): the terminal's own width (a phone's may be
 * 40 columns; capped at 100 so that prose stays readable on a wide one), 80 when piped or redirected.
 */
export function terminalWidth(): number {
  const columns = stdoutColumns();
  return columns !== undefined && columns > 0 ? Math.min(100, Math.max(30, columns)) : 80;
}

/** A word longer than the room on a line (a URL, a long ID) cut into pieces that fit. */
function pieces(word: string, room: number): string[] {
  // A web address stays whole, even past the width: one broken across lines cannot be copied or opened.
  if (word.length <= room || /^\(?https?:\/\//.test(word)) return [word];
  const out: string[] = [];
  for (let i = 0; i < word.length; i += room) out.push(word.slice(i, i + room));
  return out;
}

/** Wraps one paragraph; `first` indents the first line, `rest` the others. No line exceeds `width`, except one holding a web address longer than the line. */
export function wrap(text: string, rest = '', first = rest, width = WIDTH): string {
  const room = Math.max(10, width - Math.max(first.length, rest.length));
  const words = text
    .trim()
    .split(/\s+/)
    .flatMap((w) => pieces(w, room));
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const w of words) {
    if (!empty && line.length + 1 + w.length > width) {
      lines.push(line);
      line = rest + w;
    } else {
      line += (empty ? '' : ' ') + w;
    }
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

/** Wraps text that may hold several paragraphs (separated by blank lines). */
export function paragraphs(text: string, indent = '  '): string {
  return text
    .split(/\n\s*\n/)
    .filter((p) => p.trim().length > 0)
    .map((p) => wrap(p, indent))
    .join('\n\n');
}

/** A list item with a hanging indent: "  - text…" */
export function item(text: string, indent = '  ', marker = '- '): string {
  return wrap(text, indent + ' '.repeat(marker.length), indent + marker);
}

export function heading(text: string): string {
  return colour.bold(text);
}

/** Turns an analysis error into a CLI error: unknown IDs and unmatched descriptions exit 1, arguments that do not fit exit 2. */
function cliErrorOf(err: unknown): unknown {
  if (err instanceof AnalysisError) {
    return new CliError(err.message, err.code === 'unknown-id' || err.code === 'not-found' ? 1 : 2, err.code, {
      suggestions: err.suggestions,
      allowed: err.allowed,
    });
  }
  return err;
}

/** Runs an analysis call, reporting its expected failures as CLI errors. */
export function withAnalysisErrors<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw cliErrorOf(err);
  }
}

/**
 * A value that does not fit an option or argument, thrown by the parsers below. Commander reports an
 * error of this code as it does its own InvalidArgumentError ("option '--limit <n>' argument '0' is
 * invalid. Use a whole number from 1 up."): it looks at the code, not the class. The class is defined here
 * so that the commands whose options use these parsers (search, explain) load without commander: the
 * reading commands' usual forms are parsed without it (main.ts). test/e2e/cli.test.ts pins the message.
 */
export class InvalidArgumentError extends Error {
  readonly code = 'commander.invalidArgument';
  readonly exitCode = 1;
}

/** A commander parser for a whole-number option within bounds (a usage error otherwise). */
export function intOption(min: number, max?: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || (max !== undefined && n > max)) {
      throw new InvalidArgumentError(`Use a whole number from ${min}${max === undefined ? ' up' : ` to ${max}`}.`);
    }
    return n;
  };
}

/**
 * An option of `command` taking one of `values`, read in any case like IDs ("TECHNICAL" is technical);
 * listed in help. Made by the command (createOption), so that this module does not load commander.
 */
export function choiceOption<T extends string>(command: Command, flags: string, description: string, values: readonly T[]): Option {
  return command
    .createOption(flags, description)
    .choices(values)
    .argParser((value: string): T => {
      const choice = values.find((v) => v === value.trim().toLowerCase());
      if (choice === undefined) throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')}.`);
      return choice;
    });
}
