// hoba's entry (dist/cli.cjs, built by scripts/build.mjs): runs the bundle dist/cli-main.cjs (src/cli/main.ts)
// through a V8 code cache made after a command ran. Such a cache holds every function the command called,
// where Node's module compile cache (22.1 and later) holds only what V8 compiles before running anything,
// so that each run still compiled most of a reading command's code (bench/cli-start.mjs: BENCHMARKS.md,
// CLI start-up).
//
// One cache per form of command (show, explain, search, with or without --json, anything else), per bundle
// (its hash, size and time) and per runtime (Node's version and the architecture), in code/ of hoba's cache
// folder (cache-dir.ts). Written when missing or refused by V8 (another runtime's flags, a damaged file),
// when the command ends, atomically; the newest few are kept. Without a cache (none yet, none writable, or
// NODE_DISABLE_COMPILE_CACHE=1) the bundle compiles as it would from require(). The program's ESM chunks
// (any other command) use Node's compile cache, turned on before the first is imported.
//
// The bundle is compiled by node:vm as a function, not loaded by require(): the build writes it as one
// function expression of the parameters below, in ASCII (so that it reads as a one-byte string, with no
// wrapper to add), and routes its dynamic imports through `__hobaImport`, because code compiled by node:vm
// cannot call import() without an experimental flag. This file is bundled on its own: it imports only
// cache-dir.ts, and runs before anything else of hoba is compiled.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { cacheDir } from '../registry/cache-dir.ts';

/** The bundle's hash (scripts/build.mjs defines it): a cache made for another bundle is never offered to V8. */
declare const HOBA_MAIN_HASH: string;
/** How many code caches are kept (each form of command, on a few runtimes and builds). */
const KEEP = 24;

const file = join(__dirname, 'cli-main.cjs');
const source = readFileSync(file, 'latin1');
const base = process.env['NODE_DISABLE_COMPILE_CACHE'] === '1' ? undefined : cacheDir();
const dir = base === undefined ? undefined : join(base, 'code');

let cachePath: string | undefined;
let cached: Buffer | undefined;
if (dir !== undefined) {
  try {
    const [name = ''] = process.argv.slice(2);
    const form = ['show', 'explain', 'search'].includes(name) ? name + (process.argv.includes('--json') ? '-json' : '') : 'other';
    const stat = statSync(file);
    cachePath = join(
      dir,
      `cli-main-${HOBA_MAIN_HASH}-${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}-${form}.bin`,
    );
    cached = readFileSync(cachePath);
  } catch {
    // No cache yet: this run makes one.
  }
}
const script = new Script(source, { filename: file, ...(cached ? { cachedData: cached } : {}) });
if (dir !== undefined && cachePath !== undefined && (cached === undefined || script.cachedDataRejected)) {
  const path = cachePath;
  process.once('exit', () => {
    try {
      const data = script.createCachedData();
      mkdirSync(dir, { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, data);
      renameSync(tmp, path);
      const old = readdirSync(dir)
        .filter((f) => f.startsWith('cli-main-') && f.endsWith('.bin'))
        .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
        .sort((a, b) => b.t - a.t)
        .slice(KEEP);
      for (const { f } of old) rmSync(join(dir, f), { force: true });
    } catch {
      // A cache that cannot be written only costs speed.
    }
  });
}

let importing = false;
/** import() for the bundle: a chunk beside it (./name.js) or a built-in, with Node's compile cache on. */
function hobaImport(specifier: string): Promise<unknown> {
  if (!importing) {
    importing = true;
    const m = require('node:module') as { enableCompileCache?: () => unknown };
    try {
      if (typeof m.enableCompileCache === 'function') m.enableCompileCache();
    } catch {
      // Likewise.
    }
  }
  return import(specifier.startsWith('./') ? pathToFileURL(join(__dirname, specifier)).href : specifier);
}

type Wrapped = (
  exports: unknown,
  req: NodeJS.Require,
  mod: NodeJS.Module,
  filename: string,
  dirname: string,
  importer: typeof hobaImport,
) => void;
(script.runInThisContext() as Wrapped)(module.exports, require, module, file, __dirname, hobaImport);
