// Finding an atlas checkout on disk. Kept apart from load.ts so that commands reading a snapshot can
// locate a checkout without loading the YAML parser and the schemas.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST_FILE = 'content/atlas.yaml';

/** True when `dir` holds an atlas checkout (content/atlas.yaml). */
export function isCheckout(dir: string): boolean {
  return existsSync(join(dir, MANIFEST_FILE));
}

/** The nearest directory at or above `start` that holds content/atlas.yaml. */
export function findCheckout(start: string): string | undefined {
  let dir = start;
  for (;;) {
    if (isCheckout(dir)) return dir;
    const parent = join(dir, '..');
    if (parent === dir) return undefined;
    dir = parent;
  }
}
