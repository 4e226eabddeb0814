// The fingerprint of what dist/ is built from: scripts/build.mjs stamps it into dist/build-stamp.json, and
// the tests that run dist/ (test/dist.ts) refuse a dist/ whose stamp differs ("dist/ is older than src/").
// Plain JavaScript, so that the build script (run without tsx) and the tests share it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads besides node_modules: the sources, the build scripts, the package and its lock. */
export const BUILD_INPUTS = [
  'src',
  'scripts/build.mjs',
  'scripts/build-snapshot.ts',
  'scripts/build-worker.mjs',
  'scripts/zod-english-only.mjs',
  'package.json',
  'package-lock.json',
];

/** The stamp file the build writes last (and removes first, so that a failed build leaves none). */
export const STAMP_FILE = join('dist', 'build-stamp.json');

/** sha256 (hex) over the given files and directories of `root` (directories walked), by sorted relative path and bytes. */
export function treeHash(root, inputs) {
  const hash = createHash('sha256');
  const add = (rel) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) {
      hash.update(`${rel}\0absent\0`);
      return;
    }
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) add(`${rel}/${name}`);
      return;
    }
    const bytes = readFileSync(abs);
    hash.update(`${rel}\0${bytes.length}\0`);
    hash.update(bytes);
  };
  for (const rel of [...inputs].sort()) add(rel);
  return hash.digest('hex');
}

/** The source hash of a checkout: what dist/ must be stamped with to be current. */
export function sourceHash(root) {
  return treeHash(root, BUILD_INPUTS);
}

/** The source hash dist/ was built from, or undefined when dist/ carries no stamp. */
export function stampedSourceHash(root) {
  try {
    return JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8')).source;
  } catch {
    return undefined;
  }
}

/** Why dist/ cannot be used as it is (missing, or built from other sources), or undefined when it is current. */
export function distProblem(root) {
  if (!existsSync(join(root, 'dist'))) return 'dist/ is missing: run npm run build';
  if (stampedSourceHash(root) !== sourceHash(root)) return 'dist/ is older than src/: run npm run build';
  return undefined;
}
