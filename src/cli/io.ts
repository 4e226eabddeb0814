// Terminal output shared by every command: colours (only on a TTY, never with NO_COLOR), errors for
// people, and the checkout lookup.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { findCheckout } from '../registry/checkout.ts';
import { WorkflowError } from '../workflows/errors.ts';
import { stdoutIsTerminal, writeOut } from './out.ts';

/**
 * Stable codes of the failures a command reports: the `code` of the JSON object printed with --json.
 * unknown-id (exit 1): no entity has that ID. not-found (1): a description in plain words matches no
 * observation. invalid-argument (2): a value that does not fit. usage (2):
 * the command line does not parse. no-checkout (2): the command needs a checkout and none was found.
 * not-a-checkout (2): --dir or HOBA_DIR names no atlas checkout. no-atlas (1): nothing to read at all.
 * invalid-content (1): the content has validation errors. out-dir-refused (2): --out must not be replaced.
 * build-locked (1): another build is writing the same site. write-failed (1), address-in-use (1), listen-failed (1), failed (1): the operation failed. internal
 * (1): a bug.
 */
export type ErrorCode =
  | 'unknown-id'
  | 'not-found'
  | 'invalid-argument'
  | 'usage'
  | 'no-checkout'
  | 'not-a-checkout'
  | 'no-atlas'
  | 'invalid-content'
  | 'out-dir-refused'
  | 'build-locked'
  | 'write-failed'
  | 'address-in-use'
  | 'listen-failed'
  | 'failed'
  | 'internal';

/** An expected failure: printed as "hoba: <message>" with no stack (JSON with --json), exiting with `exit`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exit: 1 | 2 = 1,
    readonly code: ErrorCode = exit === 2 ? 'invalid-argument' : 'failed',
    /** Close matches (an unknown ID) and the values allowed (an argument that does not fit). */
    readonly details: { suggestions?: unknown[]; allowed?: string[] } = {},
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

const useColour = () => process.env['NO_COLOR'] === undefined && process.env['TERM'] !== 'dumb' && stdoutIsTerminal();

function paint(code: number) {
  return (text: string) => (useColour() ? `\x1b[${code}m${text}\x1b[0m` : text);
}

export const colour = {
  bold: paint(1),
  dim: paint(2),
  red: paint(31),
  green: paint(32),
  yellow: paint(33),
  cyan: paint(36),
};

export function writeJson(value: unknown): void {
  writeOut(JSON.stringify(value, null, 2) + '\n');
}

/**
 * Reports a failure and returns its exit status: "hoba: <message>" on stderr, or with --json an object
 * {code, message, suggestions?, allowed?} on stdout, so that a script reading stdout always gets JSON.
 */
export function reportError(err: CliError, json: boolean): 1 | 2 {
  if (json) {
    const { suggestions, allowed } = err.details;
    writeJson({
      code: err.code,
      message: err.message,
      ...(suggestions?.length ? { suggestions } : {}),
      ...(allowed?.length ? { allowed } : {}),
    });
  } else {
    process.stderr.write(`hoba: ${err.message}\n`);
  }
  return err.exit;
}

/**
 * Reports whatever a command threw and returns its exit status: an expected failure (CliError, WorkflowError) as
 * itself, anything else as the bug it is (its stack only with HOBA_DEBUG).
 */
export function reportFailure(err: unknown, json: boolean): 1 | 2 {
  if (err instanceof CliError) return reportError(err, json);
  // A workflow's expected failure (src/workflows/) is the command's own.
  if (err instanceof WorkflowError) return reportError(new CliError(err.message, err.exit, err.code), json);
  const message = `unexpected error: ${(err as Error).message ?? String(err)}`;
  if (process.env['HOBA_DEBUG']) process.stderr.write(`${(err as Error).stack}\n`);
  return reportError(
    new CliError(
      `${message}\nThis is a bug; please report it with the command you ran (set HOBA_DEBUG=1 for details).`,
      EXIT.failure,
      'internal',
    ),
    json,
  );
}

/**
 * The directory named by --dir, else by $HOBA_DIR (an empty value counts as unset), resolved; undefined
 * when neither names one. A name that is not a directory is a usage error.
 */
export function givenDir(dirOption: string | undefined): string | undefined {
  const given = dirOption ?? (process.env['HOBA_DIR'] || undefined);
  if (given === undefined) return undefined;
  const dir = resolve(given);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CliError(
      `${given} is not a directory. Pass --dir <checkout> with the path of an atlas checkout (the folder that holds content/).`,
      2,
      'not-a-checkout',
    );
  }
  return dir;
}

/**
 * The checkout a command that works on content needs: --dir, else $HOBA_DIR, else the nearest ancestor of
 * the working directory that holds content/atlas.yaml.
 */
export function resolveCheckout(dirOption: string | undefined): string {
  const found = givenDir(dirOption) ?? findCheckout(process.cwd());
  if (found === undefined) {
    throw new CliError(
      'no atlas checkout found here or in any parent directory (looked for content/atlas.yaml), and this command works on the content of a checkout. Run inside a checkout, pass --dir <checkout>, or set HOBA_DIR. (search, show, explain and graph also work without one, on the atlas bundled with hoba.)',
      2,
      'no-checkout',
    );
  }
  return found;
}
