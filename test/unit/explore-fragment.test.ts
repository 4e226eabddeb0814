// The graph explorer's address fragment (issue #27, item 12): a malformed one (#%E0%A4%A) threw an uncaught
// URIError and the graph never drew. It now names no node, as the analyze page treats its own; the browser
// suite (site-browser.test.ts) opens the explorer with one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { focusOfFragment } from '../../src/site/browser/lib/fragment.ts';

test('a fragment is decoded, with or without its #; a malformed one names nothing instead of throwing', () => {
  assert.equal(focusOfFragment('#M-004'), 'M-004');
  assert.equal(focusOfFragment('A-001'), 'A-001');
  assert.equal(focusOfFragment('#caf%C3%A9'), 'café');
  assert.equal(focusOfFragment(''), '');
  for (const bad of ['#%E0%A4%A', '#%', '#%zz', '#%C0%AE', '#%ED%A0%80']) assert.equal(focusOfFragment(bad), '', bad);
});
