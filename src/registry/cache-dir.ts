// Where hoba caches what it derives: $HOBA_CACHE_DIR, else $XDG_CACHE_HOME/hoba, else ~/.cache/hoba (none
// without a home). Checkout snapshots live there (snapshot.ts), and the code caches of the `hoba` entry in
// its code/ folder (src/cli/bin.ts). A module of its own, importing nothing but node:path, because the
// entry reads it before any of the rest is compiled.
import { join } from 'node:path';

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env['HOBA_CACHE_DIR']) return env['HOBA_CACHE_DIR'];
  // HOME rather than os.homedir(): node:os is not worth loading at start-up for this.
  const home = env['HOME'] ?? env['USERPROFILE'];
  const base = env['XDG_CACHE_HOME'] ?? (home ? join(home, '.cache') : undefined);
  return base ? join(base, 'hoba') : undefined;
}
