// Prebuilt atlas snapshots: the loaded registry, plus indexes precomputed by the layers above (the
// search index), as one JSON file. Reading a snapshot skips YAML parsing and schema validation, which is
// most of a command's start-up time.
//
//   bundled   dist/atlas.snapshot.json, written by the build; what an installed `hoba` reads
//   cached    <cache dir>/atlas-<hash>.json, written the first time a checkout's content differs from
//             the bundled snapshot; keyed by the content hash, so an edit is picked up at once
//
// A checkout's snapshot is used only when its content hash (hash.ts) and the code that built it match.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { contentHash } from './hash.ts';
import { Registry, type RegistryData } from './registry.ts';
import type { Problem } from './rules.ts';

/** Bump when the snapshot layout or a precomputed index's options change. */
export const SNAPSHOT_FORMAT = 1;
/** The code a snapshot must have been built by to be trusted. */
export const BUILT_BY = `hoba@${pkg.version}+snapshot.${SNAPSHOT_FORMAT}`;
export const SNAPSHOT_FILE = 'atlas.snapshot.json';
const CACHE_KEEP = 8;

export interface Snapshot {
  built_by: string;
  /** Content hash (hash.ts) of the content/ it was built from. */
  content_hash: string;
  data: RegistryData;
  /** Indexes precomputed by their owners, serialised as strings, by name (e.g. "search"). */
  indexes: Record<string, string>;
}

/** Serialisers of the indexes a snapshot carries, by name. */
export type IndexBuilders = Record<string, (registry: Registry) => string>;

export function makeSnapshot(registry: Registry, hash: string, builders: IndexBuilders): Snapshot {
  const indexes: Record<string, string> = {};
  for (const name of Object.keys(builders).sort()) indexes[name] = builders[name]!(registry);
  return { built_by: BUILT_BY, content_hash: hash, data: registry.toData(), indexes };
}

/** The snapshot at `path`, or undefined when it is missing, unreadable or built by other code. */
export function readSnapshot(path: string): Snapshot | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const s = JSON.parse(text) as Snapshot;
    return s.built_by === BUILT_BY && typeof s.content_hash === 'string' && s.data?.entities ? s : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a snapshot atomically (a reader never sees half a file). Deterministic bytes for the same input. */
export function writeSnapshot(path: string, snapshot: Snapshot): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot) + '\n');
  renameSync(tmp, path);
}

/** Where checkout snapshots are cached: $HOBA_CACHE_DIR, else $XDG_CACHE_HOME/hoba, else ~/.cache/hoba. */
export function cacheDir(): string {
  return process.env['HOBA_CACHE_DIR'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'hoba');
}

export interface OpenedAtlas {
  registry: Registry;
  indexes: Record<string, string>;
  /** bundled: the snapshot shipped with the code; cache: a cached snapshot of the checkout; content: parsed now. */
  from: 'bundled' | 'cache' | 'content';
  /** Errors met while loading content (only when parsed now); entities that failed are left out. */
  problems: Problem[];
}

function opened(s: Snapshot, from: OpenedAtlas['from']): OpenedAtlas {
  return { registry: new Registry(s.data), indexes: s.indexes, from, problems: [] };
}

/** The bundled snapshot alone (the hosted variant), or undefined when it is missing. */
export function openBundled(bundledPath: string): OpenedAtlas | undefined {
  const s = readSnapshot(bundledPath);
  return s ? opened(s, 'bundled') : undefined;
}

/**
 * A checkout's atlas: the bundled snapshot when it was built from the same content, else a cached
 * snapshot of that content, else the content itself, parsed now and cached for next time (only when it
 * loaded without errors, so they keep being reported until fixed).
 */
export async function openCheckout(
  dir: string,
  options: { bundled?: string; builders: () => Promise<IndexBuilders> },
): Promise<OpenedAtlas> {
  const hash = contentHash(dir);
  const bundled = options.bundled !== undefined ? readSnapshot(options.bundled) : undefined;
  if (bundled?.content_hash === hash) return opened(bundled, 'bundled');
  const cachePath = join(cacheDir(), `atlas-${hash.slice(0, 32)}.json`);
  const cached = readSnapshot(cachePath);
  if (cached?.content_hash === hash) return opened(cached, 'cache');

  // The loader brings the YAML parser and the schemas: load them only when a snapshot will not do.
  const { loadAtlas } = await import('./load.ts');
  const load = loadAtlas(dir);
  const snapshot = makeSnapshot(load.registry, hash, await options.builders());
  const errors = load.problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) saveToCache(cachePath, snapshot);
  return { registry: load.registry, indexes: snapshot.indexes, from: 'content', problems: errors };
}

/** Best effort: a read-only or missing cache directory only costs speed next time. */
function saveToCache(path: string, snapshot: Snapshot): void {
  try {
    const dir = join(path, '..');
    mkdirSync(dir, { recursive: true });
    writeSnapshot(path, snapshot);
    const old = readdirSync(dir)
      .filter((f) => f.startsWith('atlas-') && f.endsWith('.json'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t)
      .slice(CACHE_KEEP);
    for (const { f } of old) rmSync(join(dir, f), { force: true });
  } catch {
    // Caching is an optimisation; never fail a command over it.
  }
}
