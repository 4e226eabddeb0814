// The long run of the fast YAML reader's differential fuzz test (test/yaml-fuzz.ts) for `npm run
// test:attacks`: 20,000 content files edited with Unicode spaces, tabs and odd line ends, each read exactly
// as the yaml package reads it or left to it. A new seed each run unless HOBA_SEED is given (printed).
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { test } from 'node:test';
import { seedFromEnv } from './helpers.ts';
import { fuzzFastYaml } from './yaml-fuzz.ts';

test('20,000 edited content files: the fast reader reads each as the yaml package does, or leaves it to it', (t) => {
  const seed = seedFromEnv(randomInt(1, 2 ** 31));
  t.diagnostic(`HOBA_SEED=${seed}`);
  const { edits, read } = fuzzFastYaml(seed, 20_000);
  t.diagnostic(`${edits} edited files, ${read} read by the fast reader`);
  assert.ok(read >= edits * 0.05, `only ${read} of ${edits} edited files were read`);
});
