// Mirror parity: does a published mirror (a site directory, or a deployed site fetched over HTTP) hold
// exactly what a fresh build of the content would write? Reported under the rule `mirror-parity`.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { problem, type Problem } from '../registry/rules.ts';
import { DEFAULT_OUT, isBuiltSite, readSiteDir } from './build.ts';
import type { Site } from './site-file.ts';

/** At most this many files are named per kind of difference; the rest are counted in one more problem. */
const MAX_NAMED = 20;
const FETCH_CONCURRENCY = 8;
const FETCH_TIMEOUT_MS = 20_000;

export interface MirrorResult {
  problems: Problem[];
  /** Files compared. */
  compared: number;
  /** What could not be checked, for the report's notes. */
  notes: string[];
}

export function isUrl(mirror: string): boolean {
  return /^https?:\/\//i.test(mirror);
}

/**
 * Compares `site` with the mirror at `mirror` (a directory, or the base URL of a deployed site).
 * `shown` is how the mirror is named in messages (e.g. `_site` relative to the checkout).
 */
export async function compareMirror(site: Site, mirror: string, shown = mirror): Promise<MirrorResult> {
  return isUrl(mirror) ? compareDeployed(site, mirror.replace(/\/+$/, '')) : compareDirectory(site, mirror, shown);
}

function compareDirectory(site: Site, dir: string, shown: string): MirrorResult {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return {
      problems: [
        problem(
          'mirror-parity',
          `The mirror ${shown} does not exist or is not a directory. Build it with \`hoba build --out ${shown}\`, or pass --mirror <dir|url>.`,
          { file: shown },
        ),
      ],
      compared: 0,
      notes: [],
    };
  }
  if (!isBuiltSite(dir)) {
    // Not read at all: comparing, say, a whole checkout with the site would read every file under it.
    return {
      problems: [
        problem(
          'mirror-parity',
          `${shown} is not a site built by hoba (it has no generated _nginx.conf), so it was not compared. Pass --mirror with the directory \`hoba build --out <dir>\` wrote, or build one there.`,
          { file: shown },
        ),
      ],
      compared: 0,
      notes: [],
    };
  }
  const actual = readSiteDir(dir);
  const expected = new Map(site.files.map((f) => [f.path, f.bytes]));
  const missing: string[] = [];
  const drifted: Array<[string, string]> = [];
  for (const [path, bytes] of expected) {
    const found = actual.get(path);
    if (!found) missing.push(path);
    else if (!found.equals(bytes)) drifted.push([path, firstDifference(bytes, found)]);
  }
  const extra = [...actual.keys()].filter((path) => !expected.has(path));
  const at = (path: string) => `${shown.replace(/\/+$/, '')}/${path}`;
  return {
    problems: report(
      missing.map(at),
      drifted.map(([p, d]) => [at(p), d]),
      extra.map(at),
      `hoba build --out ${shown}`,
    ),
    compared: expected.size,
    notes: [],
  };
}

async function compareDeployed(site: Site, base: string): Promise<MirrorResult> {
  const served = site.files.filter((f) => f.url !== undefined);
  const missing: string[] = [];
  const drifted: Array<[string, string]> = [];
  const unexpected: string[] = [];
  let unreachable: string | undefined;
  let compared = 0;
  let next = 0;
  const worker = async () => {
    // A network failure (refused, unknown host, timeout) means the site cannot be reached: stop there
    // rather than wait for every file to fail the same way.
    while (next < served.length && unreachable === undefined) {
      const f = served[next++]!;
      const url = `${base}${f.url}`;
      let res: Response;
      let body: Buffer;
      try {
        res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
        body = Buffer.from(await res.arrayBuffer());
      } catch (err) {
        unreachable ??= `${url}: ${describeFetchError(err)}`;
        return;
      }
      if (res.status === 404 || res.status === 410) missing.push(url);
      else if (res.status !== 200) unexpected.push(`${url} answered ${res.status}`);
      else if (!body.equals(f.bytes)) drifted.push([url, firstDifference(f.bytes, body)]);
      compared++;
    }
  };
  await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, worker));
  if (unreachable !== undefined) {
    return {
      problems: [
        problem(
          'mirror-parity',
          `The deployed site could not be reached, so it was not compared (${unreachable}). Check the URL and the network, then run again.`,
          { file: base },
        ),
      ],
      compared: 0,
      notes: [],
    };
  }
  missing.sort();
  drifted.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  unexpected.sort();
  const problems = report(missing, drifted, [], 'hoba build, then deploy the site');
  if (unexpected.length > 0) {
    problems.push(
      problem(
        'mirror-parity',
        `${unexpected.length} files answered neither 200 nor 404, so they were not compared (first: ${unexpected[0]}). Check the host's configuration.`,
        { file: base },
      ),
    );
  }
  return {
    problems,
    compared: compared - unexpected.length,
    notes: [
      `Over HTTP only served files are compared: extra files and the host configuration (_headers, _redirects, _nginx.conf) cannot be seen from ${base}.`,
    ],
  };
}

function report(missing: string[], drifted: Array<[string, string]>, extra: string[], fix: string): Problem[] {
  const problems: Problem[] = [];
  const add = (names: string[], message: (name: string) => string, summary: (n: number) => string) => {
    for (const name of names.slice(0, MAX_NAMED)) problems.push(problem('mirror-parity', message(name), { file: name }));
    if (names.length > MAX_NAMED) problems.push(problem('mirror-parity', summary(names.length - MAX_NAMED)));
  };
  add(
    missing,
    () => `Missing from the mirror: a fresh build of the content writes this file. Refresh the mirror: ${fix}.`,
    (n) => `…and ${n} more files missing from the mirror. Refresh it: ${fix}.`,
  );
  const driftOf = new Map(drifted);
  add(
    drifted.map(([name]) => name),
    (name) => `Drifted: differs from a fresh build of the content (${driftOf.get(name)}). Refresh the mirror: ${fix}.`,
    (n) => `…and ${n} more drifted files. Refresh the mirror: ${fix}.`,
  );
  add(
    extra,
    () => `Extra: not written by a fresh build of the content (a removed entity, or a stray file). Refresh the mirror: ${fix}.`,
    (n) => `…and ${n} more extra files. Refresh the mirror: ${fix}.`,
  );
  return problems;
}

/** Where two versions of a file first differ, for the message. */
function firstDifference(expected: Buffer, actual: Buffer): string {
  const n = Math.min(expected.length, actual.length);
  let i = 0;
  while (i < n && expected[i] === actual[i]) i++;
  const line = expected.subarray(0, i).toString('utf8').split('\n').length;
  if (i === n) return `${actual.length < expected.length ? 'truncated' : 'longer'} after line ${line}`;
  return `first difference at line ${line}`;
}

function describeFetchError(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

/** The default mirror of a checkout: its site directory (_site/), when there is one. */
export function defaultMirror(checkout: string): string | undefined {
  const dir = join(checkout, DEFAULT_OUT);
  return existsSync(dir) ? dir : undefined;
}
