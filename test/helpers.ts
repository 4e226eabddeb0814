// Shared test helpers: copies of the real atlas that a test may break, seeds, ports. The built CLI is in
// dist.ts (importing it checks that dist/ is current), the shared built site in site-fixture.ts.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { ID_SOURCE, KIND_INFO, KINDS, kindOfId } from '../src/model/index.ts';
import { bibliographyPath, loadBibliography } from '../src/registry/bibliography.ts';
import { loadAtlas } from '../src/registry/load.ts';
import type { Problem } from '../src/registry/rules.ts';
import { validateAtlas } from '../src/registry/validate.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIBLIOGRAPHY = loadBibliography(bibliographyPath(ROOT));

/**
 * A throw-away copy of the real atlas (content/ only; or of another checkout's) that a test may break. In the
 * temporary folder, which is in memory when the test runner found a place for it (scripts/test.mjs sets
 * TMPDIR): hundreds are made.
 */
export class AtlasCopy {
  readonly dir = mkdtempSync(join(tmpdir(), 'hoba-test-'));

  constructor(from = ROOT) {
    cpSync(join(from, 'content'), join(this.dir, 'content'), { recursive: true });
  }

  /** Path of the file holding an entity. */
  fileOf(id: string): string {
    const kind = kindOfId(id);
    if (!kind) throw new Error(`not an ID: ${id}`);
    const dir = join(this.dir, 'content', KIND_INFO[kind].dir);
    const name = readdirSync(dir).find((f) => f.startsWith(`${id}-`));
    if (!name) throw new Error(`no file for ${id}`);
    return join(dir, name);
  }

  /** Edits an entity through its parsed YAML document (setIn/deleteIn keep everything else intact). */
  edit(id: string, change: (doc: ReturnType<typeof parseDocument>) => void): this {
    const file = this.fileOf(id);
    const doc = parseDocument(readFileSync(file, 'utf8'));
    change(doc);
    writeFileSync(file, doc.toString());
    return this;
  }

  set(id: string, path: (string | number)[], value: unknown): this {
    return this.edit(id, (doc) => doc.setIn(path, doc.createNode(value)));
  }

  get(id: string, path: (string | number)[]): unknown {
    const doc = parseDocument(readFileSync(this.fileOf(id), 'utf8'));
    const node = doc.getIn(path);
    return node && typeof node === 'object' && 'toJSON' in node ? (node as { toJSON(): unknown }).toJSON() : node;
  }

  remove(id: string, path: (string | number)[]): this {
    return this.edit(id, (doc) => doc.deleteIn(path));
  }

  write(relativePath: string, text: string): this {
    writeFileSync(join(this.dir, relativePath), text);
    return this;
  }

  problems(): Problem[] {
    return validateAtlas(loadAtlas(this.dir), { bibliography: BIBLIOGRAPHY });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * An atlas for tests that plant a break and look for what it is reported as: the real atlas's manifest and
 * the entities a test file names (a fraction of the atlas, loaded and validated in a fraction of the
 * time). What it leaves out is reported too (references to left-out entities, sources nothing cites any
 * more): those problems are its baseline, and the problems of a copy made by `copy()` are only those the
 * baseline lacks, so each problem a test finds is one its break made. A break that repeats a baseline
 * problem word for word is not seen: a test that needs an atlas with no problem at all, or entities its
 * file does not name, uses a whole AtlasCopy.
 */
export class SmallAtlas {
  private readonly base = new AtlasCopy();
  private readonly copies: AtlasCopy[] = [this.base];
  readonly baseline: ReadonlySet<string>;

  /** `testFile`: the test file's import.meta.url; the IDs written in it are the entities kept. */
  constructor(testFile: string) {
    const named = new Set(readFileSync(fileURLToPath(testFile), 'utf8').match(new RegExp(`\\b${ID_SOURCE}\\b`, 'g')));
    for (const kind of KINDS) {
      const dir = join(this.base.dir, 'content', KIND_INFO[kind].dir);
      for (const name of readdirSync(dir)) if (!named.has(name.replace(/-[a-z].*$|\.yaml$/, ''))) rmSync(join(dir, name));
    }
    this.baseline = new Set(this.base.problems().map(problemKey));
  }

  /** A copy of the small atlas that a test may break; its problems() are those the baseline lacks. */
  copy(): AtlasCopy {
    const baseline = this.baseline;
    const c = new (class extends AtlasCopy {
      override problems(): Problem[] {
        return super.problems().filter((p) => !baseline.has(problemKey(p)));
      }
    })(this.base.dir);
    this.copies.push(c);
    return c;
  }

  /** Removes the small atlas and every copy of it. */
  dispose(): void {
    for (const c of this.copies.splice(0)) c.dispose();
  }
}

const problemKey = (p: Problem) => `${p.rule} ${p.entity ?? ''} ${p.file ?? ''} ${p.message}`;

/** Problems of the given rule. */
export function ofRule(problems: Problem[], rule: string): Problem[] {
  return problems.filter((p) => p.rule === rule);
}

/** The seed of a randomised suite: fixed so that runs are reproducible, or HOBA_SEED=<integer> to replay
 * or vary a run. Suites print it on every failure. */
export function seedFromEnv(fixed: number): number {
  const given = process.env['HOBA_SEED'];
  if (given === undefined || given === '') return fixed;
  if (!/^\d{1,10}$/.test(given)) throw new Error(`HOBA_SEED must be a non-negative integer, not ${JSON.stringify(given)}`);
  return Number(given) >>> 0;
}

/** The seeded PRNG of the synthetic-atlas generator, reused so tests pick their targets reproducibly. */
export { Random as Rng } from '../bench/synth/random.ts';
/** Valid arguments for every MCP tool (shared with bench/mcp.ts): the MCP suites check each call against its tool's output schema. */
export { TOOL_CALLS } from '../bench/tool-calls.ts';

/** A TCP port free on the loopback address at the time of asking. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Waits until a server the test started (nginx, workerd) accepts connections, or says why it did not. */
export async function waitForPort(port: number, child: ChildProcess, log: () => string, name: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${log()}`);
    const ok = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        done(true);
      }).on('error', () => done(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} did not start listening on 127.0.0.1:${port} within ${seconds} s:\n${log()}`);
}
