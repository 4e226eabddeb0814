// The built dist/, for the tests that run it (the CLI as a user runs it, the MCP server, the worker).
// Importing this module fails the test file at once when dist/ is missing or was built from other
// sources than the checkout's (its stamp, written by scripts/build.mjs): a test of a stale dist/ passes
// or fails for the wrong code. `npm test` builds first; after changing src/, run `npm run build`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { distProblem } from '../scripts/source-hash.mjs';
import { ROOT } from './helpers.ts';

const problem = distProblem(ROOT);
if (problem) throw new Error(problem);

export const DIST = join(ROOT, 'dist');
/** The `hoba` bin. */
export const CLI = join(DIST, 'cli.cjs');
/** The `hoba-mcp` bin. */
export const MCP = join(DIST, 'mcp.js');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would (no colours; HOBA_DIR unset unless given). */
export function hoba(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...options.env };
  if (!options.env?.['HOBA_DIR']) delete env['HOBA_DIR'];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
