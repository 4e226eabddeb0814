// A fingerprint of a checkout's content/: what the snapshot and the static build key their caches on.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** sha256 (hex) over every file under content/, by sorted relative path and bytes. */
export function contentHash(checkout: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}/`);
      else if (entry.isFile()) {
        const bytes = readFileSync(join(dir, entry.name));
        hash.update(`${rel}\0${bytes.length}\0`);
        hash.update(bytes);
      }
    }
  };
  walk(join(checkout, 'content'), 'content/');
  return hash.digest('hex');
}
