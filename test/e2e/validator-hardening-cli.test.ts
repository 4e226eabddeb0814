// Content the loader and the validator used to let through (issue #10), through the built CLI and MCP
// server: an alias bomb is reported as JSON by hoba validate, and hoba-mcp --dir starts without a stack
// trace; an undated source is shown as undated. The rules themselves: test/unit/validator-hardening.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Problem } from '../../src/registry/rules.ts';
import { AtlasCopy, BIBLIOGRAPHY } from '../helpers.ts';
import { hoba, MCP } from '../dist.ts';

const copies: AtlasCopy[] = [];
after(() =>
  copies.forEach((c) => {
    c.dispose();
  }),
);
function copy(): AtlasCopy {
  const c = new AtlasCopy();
  copies.push(c);
  return c;
}

/** The file of an entity, relative to the copy (as problems name it). */
const relFile = (c: AtlasCopy, id: string) => c.fileOf(id).slice(c.dir.length + 1);

const show = (ps: Problem[]) =>
  ps.map((p) => `  ${p.rule} ${p.entity ?? ''} ${p.file ?? ''}:${p.line ?? ''} ${p.message}`).join('\n') || '  none';
const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+|TypeError|ReferenceError/, 'no stack trace');

/** Four levels of nine aliases each: 9^4 values from a few lines (a small "billion laughs"). */
const ALIAS_BOMB = [
  'x1: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'x2: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'x3: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'x4: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
].join('\n');

describe('YAML aliases (item 4)', () => {
  test('hoba validate --json reports an alias bomb as JSON; hoba-mcp --dir starts without a stack trace', () => {
    const c = copy();
    c.write(relFile(c, 'M-006'), readFileSync(c.fileOf('M-006'), 'utf8') + ALIAS_BOMB + '\n');
    const r = hoba(['validate', '--json', '--no-mirror', '--dir', c.dir]);
    assert.equal(r.status, 1, r.stderr);
    noStack(r.stderr);
    const report = JSON.parse(r.stdout) as { ok: boolean; problems: Problem[] };
    assert.equal(report.ok, false);
    assert.ok(
      report.problems.some((p) => p.rule === 'yaml-syntax' && p.file === relFile(c, 'M-006') && (p.line ?? 0) > 1),
      show(report.problems),
    );

    const cache = mkdtempSync(join(tmpdir(), 'hoba-cache-'));
    try {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      };
      const mcp = spawnSync(process.execPath, [MCP, '--dir', c.dir], {
        input: JSON.stringify(initialize) + '\n',
        env: { ...process.env, HOBA_CACHE_DIR: cache },
        encoding: 'utf8',
        timeout: 30_000,
      });
      noStack(mcp.stderr);
      assert.match(mcp.stderr, /has 1 error/, 'one clear line says the content has an error');
      assert.equal((JSON.parse(mcp.stdout.split('\n')[0]!) as { id: number; result?: unknown }).id, 1, 'the server started and answered');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});

test('an undated bibliography entry (year: null) is copied verbatim, cited, and shown as undated', () => {
  const entry = BIBLIOGRAPHY!.get('E-127')!;
  assert.equal(entry['year'], null, 'the fixture: E-127 is an undated guidance page');
  // The atlas cites E-127 (A-024's next steps): its copy in content/sources is the bibliography entry, null year included.
  const c = copy();
  const problems = c.problems().filter((p) => p.entity === 'E-127' || p.file?.includes('E-127'));
  assert.deepEqual(problems, []);
  assert.equal(c.get('E-127', ['year']), null);
  const shown = hoba(['show', 'E-127', '--dir', c.dir]);
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /undated/);
  assert.doesNotMatch(shown.stdout, /null/);
});
