// Constants of the analysis layer that code needs at run time. Kept apart from schemas.ts so that
// importing them does not load zod (the CLI's start-up path stays light).

export const UNCALIBRATED_NOTICE =
  'Topological and uncalibrated: this lists what the atlas links to the facts, not how likely each explanation is. A compatible mechanism is not a proven one, and the order of a list says nothing about probability.';

// The verdict codes live in the model's vocabulary, since a scenario's expectation names one.
export { VERDICT_CODES, type VerdictCode } from '../model/vocab.ts';

export const LOW_SIGNAL_TEXT = 'Low signal: no further candidate action is justified.';

/**
 * The low-signal verdict when the observations carry next steps: nothing tells the explanations apart,
 * yet some actions hold whatever the cause, so "no further action" would be false.
 */
export const LOW_SIGNAL_WITH_STEPS_TEXT =
  'Low signal: nothing you can run tells these explanations apart, so no action aimed at one of them is justified. Only steps that help whatever the cause are.';

/**
 * Tiers of a compatible mechanism: `produces` (it emits a given observation) ranks before `same-stage`
 * (it only acts at an identified barrier, the stage where it happened).
 */
export const TIERS = ['produces', 'same-stage'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * How many items a result lists of a list that grows with the atlas (the second tier of mechanisms, the
 * barriers at a stage, the loops): at 100k entities a stage holds thousands of mechanisms, an answer
 * nobody can read on a phone or fit in an assistant's context. The first tier is never cut. A cut list
 * is said in the result's `truncated_lists`, with the whole list's length and how to get the rest. The
 * real atlas stays well under it (a few dozen same-stage mechanisms at most).
 */
export const LISTED_MAX = 100;

export const DIRECTIONS = ['out', 'in', 'both'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Traversal depth bounds shared by every surface. */
export const MAX_DEPTH = 4;

/** Shown wherever an entity carries law notes (site, CLI, API documents, MCP). One text, one place. */
export const LEGAL_NOTICE =
  'Not legal advice. The law notes say what the cited texts provide, for the jurisdiction named, as of this atlas version; law changes, and time limits are short and strict. For your own case, ask a lawyer, a union, the public equality or employment agency of your jurisdiction, or an advice service.';
