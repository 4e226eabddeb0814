// The long run of the validator mutation suite (test/e2e/validator-mutations.test.ts) for `npm run test:attacks`:
// the same classes, about 2.2 times as many cases of each (at least 500 corruptions, every class of issue 27
// included, and at least 50 benign edits), drawn from a new seed each run unless HOBA_SEED is given. The seed
// is printed in the suite's name and with every failure: HOBA_SEED=<seed> replays a run.
import { randomInt } from 'node:crypto';

process.env['HOBA_MUTATION_SCALE'] ??= '2.2';
process.env['HOBA_SEED'] ??= String(randomInt(1, 2 ** 31));
await import('./e2e/validator-mutations.test.ts');
