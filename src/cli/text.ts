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

/** A web address, which stays whole even past the width: one broken across lines cannot be copied or opened. */
const WEB_ADDRESS = /^\(?https?:\/\//;

/**
 * Wraps one paragraph; `first` indents the first line, `rest` the others. Words are separated by any
 * white space; a word longer than the room on a line (a long ID) is cut into pieces that fit, except a
 * web address. No line exceeds `width`, except one holding a web address longer than the line.
 *
 * Written to allocate little (the reading commands' text is much of what they allocate, and a young
 * generation that fills costs a collection): a line is one slice of the text while its words are
 * separated by single spaces in it, as they nearly always are.
 */
export function wrap(text: string, rest = '', first = rest, width = WIDTH): string {
  const room = Math.max(10, width - Math.max(first.length, rest.length));
  const t = text.trim();
  const lines: string[] = [];
  let prefix = first;
  // The current line's text: t[from, to) (none yet while from is -1), or `joined` once it is not one slice.
  let from = -1;
  let to = 0;
  let joined: string | undefined;
  let length = prefix.length;
  const lineText = () => joined ?? (from < 0 ? '' : t.slice(from, to));
  // Adds t[start, end) (a word, or a piece of one) to the line, or ends the line and starts the next with it.
  const add = (start: number, end: number) => {
    if (from >= 0 && length + 1 + (end - start) > width) {
      lines.push(prefix + lineText());
      prefix = rest;
      length = prefix.length;
      from = -1;
      joined = undefined;
    }
    if (from < 0) {
      from = start;
      to = end;
      length += end - start;
    } else {
      if (joined === undefined && start === to + 1 && t.charCodeAt(to) === 32) to = end;
      else joined = `${lineText()} ${t.slice(start, end)}`;
      length += 1 + end - start;
    }
  };
  for (let at = 0; at < t.length; ) {
    let end = at;
    while (end < t.length && !isSpace(t.charCodeAt(end))) end++;
    if (end - at <= room || WEB_ADDRESS.test(t.slice(at, Math.min(end, at + 9)))) add(at, end);
    else for (let i = at; i < end; i += room) add(i, Math.min(i + room, end));
    at = end;
    while (at < t.length && isSpace(t.charCodeAt(at))) at++;
  }
  lines.push(prefix + lineText());
  return lines.join('\n');
}

/** White space as /\s/ reads it. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
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
