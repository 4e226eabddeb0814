// Finding an atlas checkout on disk. Kept apart from load.ts so that commands reading a snapshot can
// locate a checkout without loading the YAML parser and the schemas.
import { existsSync } from 'node:fs';
import { parse, resolve, sep } from 'node:path';

export const MANIFEST_FILE = 'content/atlas.yaml';

/** True when `dir` holds an atlas checkout (content/atlas.yaml). */
export function isCheckout(dir: string): boolean {
  return existsSync(`${dir}${dir.endsWith(sep) ? '' : sep}${MANIFEST_FILE}`);
}

/**
 * The nearest directory at or above `start` that holds content/atlas.yaml. The path is resolved once,
 * and each step up cuts it at its last separator (path.join and path.dirname read the whole path a
 * character at a time, and this runs before every reading command).
 */
export function findCheckout(start: string): string | undefined {
  let dir = resolve(start);
  const { root } = parse(dir);
  for (;;) {
    if (isCheckout(dir)) return dir;
    if (dir.length <= root.length) return undefined;
    const cut = dir.lastIndexOf(sep);
    dir = cut < root.length ? root : dir.slice(0, cut);
  }
}
