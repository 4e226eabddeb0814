// The golden file of search results (test/golden/search-top5.json, written by scripts/search-golden.ts):
// today's top five for each of a few hundred queries, searched over a recorded release, must be the ones
// the file holds. A change to the search code that moves any of them fails here, naming the queries;
// when the move is intended, regenerate the file (npm run test:golden) and commit its diff with the change.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GOLDEN_FILE, releaseRegistry, topIds, type Golden } from '../../scripts/search-golden.ts';

test('the top five of every golden query are as recorded (regenerate on purpose: npm run test:golden)', () => {
  const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Golden;
  assert.ok(golden.results.length >= 300, `${golden.results.length} queries`);
  const now = topIds(
    releaseRegistry(golden.release),
    golden.results.map((r) => r.query),
    golden.top,
  );
  const moved = golden.results.flatMap((r, i) =>
    JSON.stringify(r.ids) === JSON.stringify(now[i]!.ids) ? [] : [`  "${r.query}": ${r.ids.join(' ')} → ${now[i]!.ids.join(' ')}`],
  );
  assert.equal(
    moved.length,
    0,
    `${moved.length} of ${golden.results.length} queries changed their top ${golden.top} on release ${golden.release}:\n${moved.slice(0, 25).join('\n')}${moved.length > 25 ? `\n  … and ${moved.length - 25} more` : ''}\nIf the change is intended, run npm run test:golden and commit test/golden/search-top5.json with it.`,
  );
});
