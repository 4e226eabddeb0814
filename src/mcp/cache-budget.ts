// The budget of kept answers of the MCP endpoint over HTTP (exchange.ts): one variable names it, whoever
// reads it (hoba-mcp --http and hoba serve from the environment, the worker from its binding). A module
// with no imports, so that the command line's help names it without loading the endpoint.

/** The environment variable (and Worker binding) that sets the budget, in MiB; 0 keeps nothing. */
export const CACHE_MB_VARIABLE = 'HOBA_MCP_CACHE_MB';

/** The budget in bytes that a value of HOBA_MCP_CACHE_MB gives; unset, empty or not a number ≥ 0 gives `defaultMb`. */
export function cacheBudgetFrom(value: string | undefined, defaultMb: number): number {
  const mb = value === undefined || value === '' ? defaultMb : Number(value);
  return (Number.isFinite(mb) && mb >= 0 ? mb : defaultMb) * 1024 * 1024;
}
