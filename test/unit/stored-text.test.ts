// The texts the build lays out for `hoba show <id>` and `hoba explain <artifact>` (src/cli/stored-text.ts):
// on a generated atlas, each stored text is byte for byte the layout the command makes itself, and any
// doubt (another atlas, other code, a damaged or missing file, an ID written another way) gives no text,
// so that the command lays it out. test/e2e/reading-cli.test.ts checks the built file and the CLI's use of it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateAtlas, writeAtlas } from '../../bench/synth/atlas.ts';
import { storedText, type TextsHead } from '../../src/cli/stored-text.ts';
import { layOut, writeTexts } from '../../src/cli/stored-text-build.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { Registry } from '../../src/registry/registry.ts';

const work = mkdtempSync(join(tmpdir(), 'hoba-texts-'));
after(() => rmSync(work, { recursive: true, force: true }));
const path = join(work, 'atlas.texts');
let registry: Registry;
const atlas = () => ({ registry, content_hash: 'hash-of-the-generated-atlas' });

before(() => {
  writeAtlas(generateAtlas({ entities: 120, seed: 11 }), join(work, 'atlas'));
  registry = loadAtlas(join(work, 'atlas')).registry;
  writeTexts(path, atlas());
});

/** The file's head and where its texts start. */
function head(file = path): { head: TextsHead; body: number } {
  const bytes = readFileSync(file);
  const split = bytes.indexOf(10);
  return { head: JSON.parse(bytes.toString('utf8', 0, split)) as TextsHead, body: split + 1 };
}

describe('stored texts', () => {
  test('one for every entity’s show and every observation’s explain, each the layout the command makes', () => {
    const { head: h } = head();
    const entities = registry.entities;
    const artifacts = entities.filter((e) => e.kind === 'artifact');
    assert.ok(artifacts.length > 0 && entities.length > artifacts.length);
    assert.deepEqual(h.names, [...entities.map((e) => `show ${e.id}`), ...artifacts.map((e) => `explain ${e.id}`)].sort());
    for (const name of h.names) {
      const [command, id] = name.split(' ') as ['show' | 'explain', string];
      const stored = storedText(atlas(), command, id, path);
      assert.ok(stored, name);
      assert.equal(stored.toString('utf8'), layOut(atlas(), command, id), name);
    }
  });

  test('the same atlas gives the same bytes', () => {
    const again = join(work, 'again.texts');
    writeTexts(again, atlas());
    assert.ok(readFileSync(again).equals(readFileSync(path)));
  });

  test('none for an ID written otherwise, an unknown ID, or explain of what is not an observation', () => {
    const artifact = registry.entities.find((e) => e.kind === 'artifact')!.id;
    const other = registry.entities.find((e) => e.kind === 'mechanism')!.id;
    assert.ok(storedText(atlas(), 'explain', artifact, path));
    assert.equal(storedText(atlas(), 'explain', artifact.toLowerCase(), path), undefined);
    assert.equal(storedText(atlas(), 'show', 'M-999', path), undefined);
    assert.equal(storedText(atlas(), 'explain', other, path), undefined);
  });

  test('none for another atlas, other code, a damaged or missing file', () => {
    const id = registry.entities[0]!.id;
    assert.equal(storedText({ content_hash: 'another' }, 'show', id, path), undefined);
    assert.equal(storedText(atlas(), 'show', id, join(work, 'missing.texts')), undefined);
    const { head: h, body } = head();
    const bytes = readFileSync(path);
    const rewrite = (file: string, changed: TextsHead) =>
      writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(changed)}\n`), bytes.subarray(body)]));
    const older = join(work, 'older.texts');
    rewrite(older, { ...h, built_by: 'hoba@0.0.1+texts.0' });
    assert.equal(storedText(atlas(), 'show', id, older), undefined);
    const uneven = join(work, 'uneven.texts');
    rewrite(uneven, { ...h, lengths: h.lengths.slice(1) });
    assert.equal(storedText(atlas(), 'show', id, uneven), undefined);
    // Cut short: the last text is missing its end, and is not printed half.
    const cut = join(work, 'cut.texts');
    writeFileSync(cut, bytes);
    truncateSync(cut, bytes.length - 10);
    const [command, last] = h.names.at(-1)!.split(' ') as ['show' | 'explain', string];
    assert.equal(storedText(atlas(), command, last, cut), undefined);
    assert.ok(storedText(atlas(), 'show', id, cut));
    const notText = join(work, 'garbage.texts');
    writeFileSync(notText, '{"built_by": tru');
    assert.equal(storedText(atlas(), 'show', id, notText), undefined);
  });
});
