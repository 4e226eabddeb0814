// Plain-text layout for the reading commands: wrapped paragraphs, headings, hanging-indent lists.
import { InvalidArgumentError, Option } from 'commander';
import { CliError, colour } from './io.ts';
import { AnalysisError } from '../analysis/resolve.ts';

/** Text width: the terminal's, capped so prose stays readable; 100 when not a terminal. */
export const WIDTH = Math.max(60, Math.min(process.stdout.columns ?? 100, 100));

/** Wraps one paragraph; `first` indents the first line, `rest` the others. */
export function wrap(text: string, rest = '', first = rest, width = WIDTH): string {
  const words = text.trim().split(/\s+/);
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

/** Turns an analysis error into a CLI error: unknown IDs exit 1, arguments that do not fit exit 2. */
export function cliErrorOf(err: unknown): unknown {
  if (err instanceof AnalysisError) {
    return new CliError(err.message, err.code === 'unknown-id' ? 1 : 2, err.code, { suggestions: err.suggestions, allowed: err.allowed });
  }
  return err;
}

/** Runs an analysis call, reporting its expected failures as CLI errors. */
export function analyse<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw cliErrorOf(err);
  }
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

/** An option taking one of `values`, read in any case like IDs ("TECHNICAL" is technical); listed in help. */
export function choiceOption<T extends string>(flags: string, description: string, values: readonly T[]): Option {
  return new Option(flags, description).choices(values).argParser((value: string): T => {
    const choice = values.find((v) => v === value.trim().toLowerCase());
    if (choice === undefined) throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')}.`);
    return choice;
  });
}
