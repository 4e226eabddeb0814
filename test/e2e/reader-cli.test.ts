// The situation reader through the built CLI on the real atlas (issue 24): --message from a file or
// standard input with its tell-tale lines, --pick answering a distinction, "not covered" with where to
// turn; and hoba search reading an account. Its behaviour on constructed cases is test/unit/reader.test.ts
// (search's with a reading, test/unit/search.test.ts); its figures, npm run quality:reader.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ExplainResult, SearchResult } from '../../src/analysis/schemas.ts';
import { CLI } from '../dist.ts';

describe('hoba explain on words (the built CLI, the real atlas)', () => {
  const json = (args: string[], input?: string) => {
    const r = spawnSync(process.execPath, [CLI, 'explain', ...args, '--json'], {
      encoding: 'utf8',
      ...(input !== undefined ? { input } : {}),
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as ExplainResult;
  };
  const email =
    'Dear candidate,\nThank you for your interest. After careful consideration, we have decided to move forward with candidates whose experience more closely aligns with our needs.\nKind regards';

  test('--message reads a file, or standard input with -, and quotes its tell-tale lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoba-message-'));
    try {
      const file = join(dir, 'email.txt');
      writeFileSync(file, email);
      const fromFile = json(['--message', file]);
      const fromStdin = json(['--message', '-'], email);
      assert.deepEqual(fromStdin, fromFile);
      const tells = fromFile.input.from_text!.message_tells.find((t) => t.artifact.id === 'A-003');
      assert.ok(tells, JSON.stringify(fromFile.input.from_text));
      assert.match(tells.tells[0]!.line, /more closely aligns/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--pick answers a distinction: the observation chosen replaces the others of its pair', () => {
    const words = 'the offer was withdrawn after I asked a question';
    const read = json([words]).input.artifacts;
    assert.ok(read.includes('A-061') || read.includes('A-024'), `read as ${read.join(', ')}`);
    for (const pick of ['A-024', 'A-061']) {
      const r = json([words, '--pick', pick]);
      assert.ok(r.input.artifacts.includes(pick), pick);
      assert.ok(!r.input.artifacts.includes(pick === 'A-024' ? 'A-061' : 'A-024'), pick);
      assert.deepEqual(r.input.from_text!.answered, [pick]);
    }
  });

  test('not covered: says so, where to turn and what the atlas covers, with exit status 0', () => {
    const r = spawnSync(process.execPath, [CLI, 'explain', 'I got fired yesterday after four years, no warning, can they do that?'], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /This is not something the atlas covers/);
    assert.match(r.stdout, /Where to turn:/);
    assert.match(r.stdout, /What the atlas covers:/);
  });
});

describe('hoba search on an account (the built CLI, the real atlas)', () => {
  const search = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, 'search', ...args], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const results = (args: string[]) => (JSON.parse(search([...args, '--json'])) as SearchResult).results;
  const account = 'The background check company says I have a DUI from a state I have never lived in and now my offer is on hold';

  test('what the account states comes first, with the words that state it', () => {
    const hits = results([account, '--kind', 'artifact', '--limit', '3']);
    const first = hits[0]!;
    assert.equal(first.id, 'A-046', hits.map((h) => h.id).join(' '));
    assert.ok(first.read && account.includes(first.read.quote) && first.read.quote.length > 0, JSON.stringify(first.read));
    const text = search([account, '--limit', '3']);
    assert.match(text, /Your words state it: “[^”]+”/);
    assert.match(text.replace(/\s+/g, ' '), /read as an account of what happened: hoba explain with them says what could explain it/);
    assert.doesNotMatch(search(['ghosted after final interview']), /read as an account/);
  });

  test('keywords, and a search of other kinds, are searched only', () => {
    assert.ok(results(['ghosted after final interview']).every((h) => h.read === undefined));
    assert.ok(results([account, '--kind', 'mechanism']).every((h) => h.read === undefined && h.kind === 'mechanism'));
  });
});
