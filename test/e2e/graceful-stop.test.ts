// SIGTERM while requests are in flight (issue #27, item 15): `hoba serve` and `hoba-mcp --http` under load
// on 32 keep-alive connections stop accepting, answer every request already sent, close each connection
// after its answer, and exit 0. Before, every connection lost its request. attacks-graceful.test.ts runs
// more rounds.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { CLI, hoba, MCP } from '../dist.ts';
import { ROOT } from '../helpers.ts';
import { loadThenSignal, type LoadRequest } from '../graceful-stop.ts';

const ROUNDS = Number(process.env['HOBA_STOP_ROUNDS'] ?? '1');

/** Starts a server process and waits for the URL it prints. */
async function start(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = pattern.exec(line);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
  });
  return { child, origin };
}

describe(`SIGTERM under load on 32 keep-alive connections (${ROUNDS} round${ROUNDS === 1 ? '' : 's'} each)`, () => {
  let out: string;
  before(() => {
    out = join(mkdtempSync(join(tmpdir(), 'hoba-stop-')), 'site');
    const built = hoba(['build', '--out', out]);
    assert.equal(built.status, 0, built.stderr);
  });
  after(() => rmSync(join(out, '..'), { recursive: true, force: true }));

  const serveRequests = (i: number): LoadRequest => ({
    method: 'GET',
    path: ['/api/v1/graph', '/api/v1/mechanisms', '/developers/', '/assets/atlas.json'][i % 4]!,
  });
  for (let round = 1; round <= ROUNDS; round++) {
    test(`hoba serve: no request lost, new connections refused, exit 0 (round ${round})`, async (t) => {
      const { child, origin } = await start(
        [CLI, 'serve', '--port', '0', '--json', '--out', out, '--dir', ROOT],
        /"url":\s*"(http:\/\/[^"]+?)\/?"/,
      );
      const r = await loadThenSignal(child, origin, serveRequests);
      t.diagnostic(
        `${r.answered} answered (${r.answeredAfterSignal} after SIGTERM), ${r.refused} new connections refused, ${r.lost.length} lost`,
      );
      assert.deepEqual(r.lost, []);
      assert.ok(r.answeredAfterSignal >= 1, 'requests sent around the signal were answered');
      assert.deepEqual(r.exit, { code: 0, signal: null });
    });
  }

  const mcpRequests = (i: number): LoadRequest => ({
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'explain_observation', arguments: { artifacts: [`A-${String(1 + (i % 40)).padStart(3, '0')}`] } },
    }),
  });
  for (let round = 1; round <= ROUNDS; round++) {
    test(`hoba-mcp --http: no request lost, new connections refused, exit 0 (round ${round})`, async (t) => {
      const { child, origin } = await start([MCP, '--http', '--port', '0'], /(http:\/\/127\.0\.0\.1:\d+)\/mcp/);
      const r = await loadThenSignal(child, origin, mcpRequests);
      t.diagnostic(
        `${r.answered} answered (${r.answeredAfterSignal} after SIGTERM), ${r.refused} new connections refused, ${r.lost.length} lost`,
      );
      assert.deepEqual(r.lost, []);
      assert.deepEqual(r.exit, { code: 0, signal: null });
    });
  }
});
