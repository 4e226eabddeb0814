// Finding the atlas checkout a reading command reads (src/registry/checkout.ts): the nearest folder at
// or above the start that holds content/atlas.yaml, whatever form the start path takes.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, parse, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findCheckout, isCheckout } from '../../src/registry/checkout.ts';

let top: string;
let checkout: string;
let deep: string;

before(() => {
  top = mkdtempSync(join(tmpdir(), 'hoba-checkout-'));
  checkout = join(top, 'atlas');
  deep = join(checkout, 'a', 'b', 'c');
  mkdirSync(join(checkout, 'content'), { recursive: true });
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(checkout, 'content', 'atlas.yaml'), 'name: test\n');
});
after(() => rmSync(top, { recursive: true, force: true }));

describe('findCheckout', () => {
  test('finds the checkout from itself and from any folder below it', () => {
    assert.ok(isCheckout(checkout));
    assert.equal(findCheckout(checkout), checkout);
    assert.equal(findCheckout(deep), checkout);
    assert.equal(findCheckout(join(checkout, 'content')), checkout);
  });

  test('reads a start with a trailing separator, dot segments or relative to the working directory alike', () => {
    assert.equal(findCheckout(`${deep}/`), checkout);
    assert.equal(findCheckout(join(deep, '..', '.', 'b')), checkout);
    assert.equal(findCheckout(`${deep}/../../b/./c/..`), checkout);
    assert.equal(findCheckout(relative(process.cwd(), deep)), checkout);
  });

  test('gives undefined above any checkout, up to the root, without looping', () => {
    assert.equal(findCheckout(top), undefined);
    assert.equal(findCheckout(parse(top).root), undefined);
  });
});
