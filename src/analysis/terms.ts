// Constants of the analysis layer that code needs at run time. Kept apart from schemas.ts so that
// importing them does not load zod (the CLI's start-up path stays light).

export const UNCALIBRATED_NOTICE =
  'Topological and uncalibrated: this lists what the atlas links to the facts, not how likely each explanation is. A compatible mechanism is not a proven one, and the order of a list says nothing about probability.';

/** Stable verdict codes of the HOBA protocol (explain). Never rename one; tools match on them. */
export const VERDICT_CODES = ['run-probe', 'act-on-candidate-removable', 'low-signal', 'nothing-left'] as const;
export type VerdictCode = (typeof VERDICT_CODES)[number];

export const LOW_SIGNAL_TEXT = 'Low signal: no further candidate action is justified.';

export const DIRECTIONS = ['out', 'in', 'both'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Traversal depth bounds shared by every surface. */
export const MAX_DEPTH = 4;
