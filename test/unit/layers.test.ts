// The layers of src/ (.dependency-cruiser.cjs, drawn in ARCHITECTURE.md): no import goes against the flow
// model → registry → analysis → surfaces, and no file cycle. Uses dependency-cruiser's JS API, in process,
// so that a bad arrow fails the unit lane and not only `npm run lint`.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { ROOT } from '../helpers.ts';

const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** The violations dependency-cruiser reports for src/ under `baseDir`, as "rule: from → to" lines. */
async function violations(baseDir: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(CONFIG);
  const out = await cruise(['src'], { ...options, baseDir, outputType: 'json' });
  const result = JSON.parse(out.output as string) as ICruiseResult;
  return result.summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : ''}`,
  );
}

describe('layers', () => {
  test('src/ has no arrow against the flow and no file cycle', async () => {
    assert.deepEqual(await violations(ROOT), []);
  });

  describe('the rules catch what they are for', () => {
    const work = mkdtempSync(join(tmpdir(), 'hoba-layers-'));
    after(() => rmSync(work, { recursive: true, force: true }));
    const file = (path: string, text: string) => {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), text);
    };
    cpSync(join(ROOT, 'tsconfig.json'), join(work, 'tsconfig.json'));
    // registry → analysis (upward), publish → site (the folder cycle there was), worker → serve, and a file cycle.
    file('src/model/vocab.ts', 'export const A = 1;\n');
    file('src/analysis/explain.ts', "import { A } from '../model/vocab.ts';\nexport const B = A;\n");
    file('src/registry/load.ts', "import { B } from '../analysis/explain.ts';\nexport const C = B;\n");
    file('src/site/index.ts', 'export const D = 1;\n');
    file('src/publish/build.ts', "import { D } from '../site/index.ts';\nexport const E = D;\n");
    file('src/serve/server.ts', 'export const F = 1;\n');
    file('src/worker/index.ts', "import { F } from '../serve/server.ts';\nexport const G = F;\n");
    file('src/analysis/x.ts', "import { Y } from './y.ts';\nexport const X = 1 + Y;\n");
    file('src/analysis/y.ts', "import type { X } from './x.ts';\nexport const Y = 2;\nexport type Z = typeof X;\n");

    test('an upward import, a crossing between surfaces and a file cycle are each reported', async () => {
      const found = await violations(work);
      for (const expected of [
        'layer-registry: src/registry/load.ts → src/analysis/explain.ts',
        'layer-publish: src/publish/build.ts → src/site/index.ts',
        'layer-worker: src/worker/index.ts → src/serve/server.ts',
      ]) {
        assert.ok(found.includes(expected), `${expected} in ${found.join('; ')}`);
      }
      assert.ok(
        found.some((v) => v.startsWith('no-circular: src/analysis/')),
        found.join('; '),
      );
    });
  });
});
