// The test lanes (scripts/test.mjs) and the dist/ stamp (scripts/source-hash.mjs): every test file is in a
// lane by where it is or what it is called, no unit test needs dist/, every test that runs dist/ goes
// through test/dist.ts (which refuses a dist/ older than src/), and the stamp tells a current dist/ from
// a stale one.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { BUILD_INPUTS, distProblem, sourceHash, STAMP_FILE } from '../../scripts/source-hash.mjs';
import { LANE_RULE, laneOf, memoryTmp, runsOnce, testFiles } from '../../scripts/test.mjs';
import { ROOT } from '../helpers.ts';

describe('test lanes', () => {
  const files = testFiles();

  test('every test file is in a lane: test/unit/, test/e2e/ or test/attacks-*.test.ts', () => {
    assert.ok(files.length > 30, `${files.length} test files found`);
    assert.deepEqual(
      files.filter((f) => laneOf(f) === undefined),
      [],
      LANE_RULE,
    );
  });

  test('the lane of a file follows from its path alone', () => {
    assert.equal(laneOf('test/unit/model.test.ts'), 'unit');
    assert.equal(laneOf('test/e2e/serve.test.ts'), 'e2e');
    assert.equal(laneOf('test/attacks-mcp.test.ts'), 'attacks');
    assert.equal(laneOf('test/e2e/attacks-serve.test.ts'), 'attacks', 'the name wins over the directory');
    assert.equal(laneOf('test/model.test.ts'), undefined);
  });

  test('"ci: once" marks e2e files only, each with its reason, and never the servers, CLI or MCP tests', () => {
    const once = files.filter((f) => runsOnce(f));
    assert.ok(once.length > 0 && once.every((f) => laneOf(f) === 'e2e'), once.join(', '));
    for (const f of ['test/e2e/serve.test.ts', 'test/e2e/cli.test.ts', 'test/e2e/mcp.test.ts', 'test/e2e/conformance.test.ts'])
      assert.equal(runsOnce(f), false, f);
    const dir = mkdtempSync(join(tmpdir(), 'hoba-once-'));
    try {
      mkdirSync(join(dir, 'test', 'e2e'), { recursive: true });
      const write = (name: string, text: string) => writeFileSync(join(dir, 'test', 'e2e', name), text);
      write('a.test.ts', '// What it tests.\n// ci: once (Chromium runs the pages).\nimport x from "y";\n');
      write('b.test.ts', '// What it tests.\n// ci: once\n');
      write('c.test.ts', `${'// line\n'.repeat(25)}// ci: once (too far down).\n`);
      assert.deepEqual(
        ['a', 'b', 'c'].map((n) => runsOnce(`test/e2e/${n}.test.ts`, dir)),
        [true, false, false],
        'a reason is required, in the first lines',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the temporary folder in memory falls back to the system one when it cannot be made, and leaves nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoba-shm-'));
    try {
      assert.equal(memoryTmp(join(dir, 'missing')), undefined, 'no such folder');
      writeFileSync(join(dir, 'file'), '');
      assert.equal(memoryTmp(join(dir, 'file')), undefined, 'a file, not a folder');
      assert.deepEqual(readdirSync(dir), ['file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('no unit test runs dist/: none imports test/dist.ts', () => {
    const offenders = files.filter(
      (f) => laneOf(f) === 'unit' && /from '\.\.\/dist\.ts'|import '\.\.\/dist\.ts'/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    assert.deepEqual(offenders, [], 'a test that runs the built CLI, MCP server or worker belongs in test/e2e/');
  });

  test('a test that runs dist/ names it through test/dist.ts, which checks it is current', () => {
    const pattern = new RegExp(`join\\(ROOT, '${'dist'}'`);
    const direct = files.filter((f) => f !== 'test/unit/lanes.test.ts' && pattern.test(readFileSync(join(ROOT, f), 'utf8')));
    assert.deepEqual(direct, [], "use DIST, CLI or MCP from test/dist.ts instead of join(ROOT, 'dist', …)");
  });
});

describe('the dist/ stamp', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hoba-stamp-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  for (const input of BUILD_INPUTS) {
    const from = join(ROOT, input);
    cpSync(from, join(dir, input), { recursive: true });
  }

  test('no dist/, a dist/ without a stamp or with another source hash, and a current one', () => {
    assert.equal(distProblem(dir), 'dist/ is missing: run npm run build');
    mkdirSync(join(dir, 'dist'));
    assert.equal(distProblem(dir), 'dist/ is older than src/: run npm run build');
    writeFileSync(join(dir, STAMP_FILE), `${JSON.stringify({ source: sourceHash(dir) })}\n`);
    assert.equal(distProblem(dir), undefined);
  });

  test('any change to a source file, a build script or the package makes dist/ older than src/', () => {
    writeFileSync(join(dir, STAMP_FILE), `${JSON.stringify({ source: sourceHash(dir) })}\n`);
    for (const file of ['src/model/vocab.ts', 'scripts/build.mjs', 'package-lock.json']) {
      const path = join(dir, file);
      const before = readFileSync(path);
      writeFileSync(path, Buffer.concat([before, Buffer.from('\n')]));
      assert.equal(distProblem(dir), 'dist/ is older than src/: run npm run build', file);
      writeFileSync(path, before);
      assert.equal(distProblem(dir), undefined, `${file} restored`);
    }
    writeFileSync(join(dir, 'src', 'new-module.ts'), 'export {};\n');
    assert.equal(distProblem(dir), 'dist/ is older than src/: run npm run build', 'a new source file');
    rmSync(join(dir, 'src', 'new-module.ts'));
  });
});
