// The long run of the validator mutation suite (test/e2e/validator-mutations.test.ts) for `npm run test:attacks`:
// every class's full count (the e2e lane runs a sample of up to 3 of each), and 75 of each class of issue 27 (a law note presenting
// withdrawn guidance as current, a denied withdrawal, Unicode spaces, deep nesting, size and alias bounds,
// invisible characters, YAML tags: 525 in all) with 56 benign edits, drawn from a new seed each run unless
// HOBA_SEED is given. The seed is printed in the suite's name and with every failure: HOBA_SEED=<seed>
// replays a run.
import { randomInt } from 'node:crypto';

process.env['HOBA_MUTATION_LONG'] ??= '1';
process.env['HOBA_SEED'] ??= String(randomInt(1, 2 ** 31));
await import('./e2e/validator-mutations.test.ts');
