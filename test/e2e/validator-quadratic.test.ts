// Repeated keys in one large mapping (issue #27, item 7): the yaml package's own check compares every key
// with every other, so 40,000 keys took 31 s and 80,000 over three minutes; the loader finds them in one
// pass. The load runs in a process of its own, stopped after a minute: a synchronous check cannot be
// interrupted in the test's process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import type { Problem } from '../../src/registry/rules.ts';
import { AtlasCopy, ofRule } from '../helpers.ts';

const copies: AtlasCopy[] = [];
after(() =>
  copies.forEach((c) => {
    c.dispose();
  }),
);

test('a mapping of 80,000 keys is checked for repeats in one pass (the yaml package compares every pair: minutes)', () => {
  const c = new AtlasCopy();
  copies.push(c);
  const keys = Array.from({ length: 80_000 }, (_, i) => `  k${i}: 1`).join('\n');
  const file = c.fileOf('M-006').slice(c.dir.length + 1);
  c.write(file, readFileSync(c.fileOf('M-006'), 'utf8').replace(/\n*$/, '\n') + `x_many:\n${keys}\n  k17: 2\n`);
  // In a process of its own, stopped after a minute: a synchronous check cannot be interrupted in this one.
  // (Quadratic, this file takes over three minutes here; in one pass, a few seconds.)
  const script = `import { loadAtlas } from ${JSON.stringify(new URL('../../src/registry/load.ts', import.meta.url).href)};
    console.log(JSON.stringify(loadAtlas(${JSON.stringify(c.dir)}).problems));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.signal, null, 'the load finished within a minute');
  assert.equal(run.status, 0, run.stderr);
  const [p] = ofRule(JSON.parse(run.stdout) as Problem[], 'yaml-duplicate-key').filter((x) => x.file === file);
  assert.ok(p, run.stdout.slice(0, 2000));
  assert.equal(p.line, readFileSync(c.fileOf('M-006'), 'utf8').split('\n').length - 1, 'at the repeated key');
});
