// Faults of a build into a site that is being served (issue #27, items 1 and 2): builds killed with
// SIGKILL at moments spread over a build, and three builds started together, while clients read the site
// through `hoba serve`'s server without a pause. Every answer must be the old site's file or the new site's,
// whole: no 404, no mixture, no error. site-swap.test.ts runs a few; attacks-build.test.ts runs the issue's
// twenty of each. Not a test file.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import { buildInMemory } from '../src/workflows/build.ts';
import { createSiteServer } from '../src/serve/server.ts';
import { CLI } from './dist.ts';
import { AtlasCopy, ROOT } from './helpers.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface FaultReport {
  /** Requests answered during the faults, and those that were not the old or the new file, whole. */
  requests: number;
  failed: string[];
  /** What each fault did: "kill at 1.2 s: killed" / "concurrent: exits 0,1,1". */
  events: string[];
  /** Directories beside the site after the last build (its versions, its link). */
  leftovers: string[];
}

/** Two versions of the atlas whose sites differ (a title and the content hash), and the expected bytes of
 * each URL in either. */
export class TwoVersions {
  readonly copy = new AtlasCopy();
  readonly urls: string[];
  private readonly expected = new Map<string, Set<string>>();

  constructor() {
    this.copy.set('M-001', ['title'], `${String(this.copy.get('M-001', ['title']))} (edited)`);
    const sites = [buildInMemory(ROOT).site, buildInMemory(this.copy.dir).site];
    for (const site of sites) {
      for (const f of site.files) {
        if (f.url === undefined) continue;
        let set = this.expected.get(f.url);
        if (!set) {
          set = new Set();
          this.expected.set(f.url, set);
        }
        set.add(sha(f.bytes));
      }
    }
    // URLs both versions serve (the copy has no releases/, so not the release documents), the pages and
    // documents that differ between them first, then a spread of the rest.
    const inBoth = (url: string) => sites.every((site) => site.files.some((f) => f.url === url));
    const all = [...this.expected.keys()].filter(inBoth).sort();
    const differing = all.filter((u) => this.expected.get(u)!.size > 1);
    this.urls = [...new Set([...differing.slice(0, 40), ...all.filter((_, i) => i % Math.ceil(all.length / 60) === 0)])];
  }

  /** Whether a body is the whole file of that URL in one version or the other. */
  matches(url: string, body: Buffer): boolean {
    return this.expected.get(url)?.has(sha(body)) ?? false;
  }

  dispose(): void {
    this.copy.dispose();
  }
}

/** Builds a checkout into `out` with the CLI; resolves with the exit code and stderr. */
export function build(
  dir: string,
  out: string,
  killAfterMs?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'build', '--dir', dir, '--out', out, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null, stderr }));
}

/**
 * Serves `out` and reads it with `readers` clients without a pause while `faults` runs; reports every answer
 * that was not a whole file of either version.
 */
export async function whileServed(versions: TwoVersions, out: string, faults: () => Promise<string[]>, readers = 4): Promise<FaultReport> {
  const server = createSiteServer({ root: out });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let running = true;
  let requests = 0;
  const failed: string[] = [];
  const reader = async (r: number) => {
    for (let i = r; running; i += readers) {
      const url = versions.urls[i % versions.urls.length]!;
      try {
        const res = await fetch(origin + url);
        const body = Buffer.from(await res.arrayBuffer());
        requests++;
        if (res.status !== 200) failed.push(`${url}: HTTP ${res.status}`);
        else if (!versions.matches(url, body)) failed.push(`${url}: ${body.length} bytes that are neither version's file`);
      } catch (err) {
        failed.push(`${url}: ${(err as Error).message}`);
      }
    }
  };
  const loops = Array.from({ length: readers }, (_, r) => reader(r));
  let events: string[] = [];
  try {
    events = await faults();
  } finally {
    running = false;
    await Promise.all(loops);
    await new Promise((done) => {
      server.close(done);
      server.closeAllConnections();
    });
  }
  const prefix = `${basename(out)}.`;
  return {
    requests,
    failed,
    events,
    leftovers: readdirSync(dirname(out))
      .filter((n) => n.startsWith(prefix))
      .sort(),
  };
}

/**
 * SIGKILL of builds at `count` moments spread over a build's duration, alternating the versions: the
 * duration is measured first, as the longer of a whole build of each version (while the site is served,
 * as the killed ones run), so that the moments cover every phase, the swap at the end included.
 */
export async function killedBuilds(versions: TwoVersions, out: string, count: number): Promise<string[]> {
  const events: string[] = [];
  let buildMs = 0;
  for (const dir of [versions.copy.dir, ROOT]) {
    const started = Date.now();
    const r = await build(dir, out);
    if (r.code !== 0) throw new Error(`a build failed (exit ${r.code}):\n${r.stderr}`);
    buildMs = Math.max(buildMs, Date.now() - started);
  }
  events.push(`a whole build takes ${(buildMs / 1000).toFixed(1)} s`);
  for (let i = 0; i < count; i++) {
    const at = Math.round(((i + 0.5) / count) * buildMs);
    const dir = i % 2 === 0 ? versions.copy.dir : ROOT;
    const r = await build(dir, out, at);
    events.push(`kill at ${(at / 1000).toFixed(2)} s: ${r.signal === 'SIGKILL' ? 'killed' : `finished first (exit ${r.code})`}`);
    if (r.signal !== 'SIGKILL' && r.code !== 0) throw new Error(`a build to be killed failed on its own (exit ${r.code}):\n${r.stderr}`);
  }
  // A build after the faults completes: the lock and the directories of the killed builds are no obstacle.
  const last = await build(count % 2 === 0 ? versions.copy.dir : ROOT, out);
  if (last.code !== 0) throw new Error(`the build after the killed ones failed (exit ${last.code}):\n${last.stderr}`);
  events.push('a build after them: exit 0');
  return events;
}

/** Three builds of the two versions started together, `rounds` times: exit codes and what the losers said. */
export async function concurrentBuilds(versions: TwoVersions, out: string, rounds: number): Promise<string[]> {
  const events: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const dirs = round % 2 === 0 ? [versions.copy.dir, ROOT, versions.copy.dir] : [ROOT, versions.copy.dir, ROOT];
    const results = await Promise.all(dirs.map((d) => build(d, out)));
    const codes = results.map((r) => r.code);
    events.push(`round ${round + 1}: exits ${codes.join(', ')}`);
    if (!codes.includes(0)) throw new Error(`no build of round ${round + 1} succeeded:\n${results.map((r) => r.stderr).join('\n')}`);
    for (const r of results) {
      if (r.code === 0) continue;
      if (r.code !== 1 || !/"code": "build-locked"/.test(r.stderr) || !/another hoba build is writing/.test(r.stderr)) {
        throw new Error(`a build that lost the lock should exit 1 with build-locked; got exit ${r.code}:\n${r.stderr}`);
      }
    }
  }
  return events;
}
