// Prebuilt atlas snapshots: the loaded registry, plus indexes precomputed by the layers above (the
// search index), as one file of JSON lines. Reading a snapshot skips YAML parsing and schema validation,
// which is most of a command's start-up time; and a command reads only the entities it uses (the file's
// layout, under writeSnapshot).
//
//   bundled   dist/atlas.snapshot.json, written by the build; what an installed `hoba` reads
//   cached    <cache dir>/atlas-<hash>.json, written the first time a checkout's content differs from
//             the bundled snapshot; keyed by the content hash, so an edit is picked up at once
//
// A snapshot is used only when the content hash (hash.ts) of the checkout and the code that built it
// match. Hashing every file costs more than the rest of a command's start-up, so the hash of a checkout
// is remembered in the cache with a stamp of its files' sizes and times, and recomputed only when the
// stamp changes. A snapshot itself depends on the content and the code only (no times, no paths).
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import type { Entity } from '../model/schemas.ts';
import type { Kind } from '../model/vocab.ts';
import { cacheDir } from './cache-dir.ts';
import { EncodedEdges, edgesByTarget, encodeEdges } from './edge-codec.ts';
import { Registry, compareEdges, compareIds as compareIdsOf, titleOf, type LazyRegistryData, type RegistryData } from './registry.ts';
import type { Problem } from './rules.ts';

/** Bump when the snapshot layout or a precomputed index's options change. */
const SNAPSHOT_FORMAT = 12;
/** The code a snapshot must have been built by to be trusted. */
const BUILT_BY = `hoba@${pkg.version}+snapshot.${SNAPSHOT_FORMAT}`;
export const SNAPSHOT_FILE = 'atlas.snapshot.json';
/**
 * The snapshot bundled with the code: it sits in dist/ beside the bundled entry points (esbuild keeps
 * every chunk in dist/ too). Run from source, no file is there and callers fall back to the content.
 */
export const BUNDLED_SNAPSHOT = fileURLToPath(new URL(`./${SNAPSHOT_FILE}`, import.meta.url));

/**
 * An index of the snapshots that may already hold what a build of `checkout` computes: the bundled
 * snapshot's and the checkout's own last build's (`dist/`, the one to reuse when hoba runs from source, as the
 * tests and benchmarks do). The situation reader's model is reused so when it was trained from the same
 * inputs (analysis/indexes.ts readerModelText; training takes minutes).
 */
export function reusableIndexes(checkout: string, name: string): string[] {
  const files = [...new Set([BUNDLED_SNAPSHOT, join(checkout, 'dist', SNAPSHOT_FILE)])];
  return files.flatMap((file) => {
    const text = readSnapshot(file)?.index(name);
    return text === undefined ? [] : [text];
  });
}
const CACHE_KEEP = 8;

export interface Snapshot {
  built_by: string;
  /** Content hash (hash.ts) of the content/ it was built from. */
  content_hash: string;
  data: RegistryData;
  /** Indexes precomputed by their owners, serialised as JSON texts (one line each: no raw line break), by name (e.g. "search"). */
  indexes: Record<string, string>;
  /** Registry.holders() of every ID. */
  holders: Record<string, string[]>;
}

/** Serialisers of the indexes a snapshot carries, by name. */
export type IndexBuilders = Record<string, (registry: Registry) => string>;

export function makeSnapshot(registry: Registry, hash: string, builders: IndexBuilders): Snapshot {
  const indexes: Record<string, string> = {};
  for (const name of Object.keys(builders).sort()) indexes[name] = builders[name]!(registry);
  return {
    built_by: BUILT_BY,
    content_hash: hash,
    data: { ...registry.toData(), edges: [...registry.edges] },
    indexes,
    holders: registry.allHolders(),
  };
}

/**
 * A cheap fingerprint of content/: every file's path, size and modification time. While it is unchanged
 * the remembered content hash stands; when it changes the hash is recomputed, so touching a file without
 * changing it costs time, never correctness.
 */
function contentStamp(checkout: string): string {
  const parts: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = `${prefix}${entry.name}`;
      // Plain concatenation: path.join's normalisation is measurable at start-up, and these paths are clean.
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, `${rel}/`);
      else if (entry.isFile()) {
        const st = statSync(`${dir}/${entry.name}`);
        parts.push(`${rel}:${st.size}:${st.mtimeMs}`);
      }
    }
  };
  walk(join(checkout, 'content'), 'content/');
  return parts.join('\n');
}

/**
 * A snapshot as read: its index line at once, each entity when first asked for, the precomputed indexes
 * when asked for. `show` reads one entity and its neighbours; `search` the search index and its hits.
 */
export interface ReadSnapshot {
  built_by: string;
  content_hash: string;
  data: LazyRegistryData;
  index(name: string): string | undefined;
}

/** The first line of a snapshot: what it is, and where each entity's and each index's line is. */
interface SnapshotHead {
  built_by: string;
  content_hash: string;
  manifest: LazyRegistryData['manifest'];
  /** Every entity's ID, sorted (compareIds), its kind, its status, and the length of its line, in the same order. */
  ids: string[];
  kinds: Kind[];
  statuses: LazyRegistryData['statuses'];
  /** What a reference to each entity shows (Registry.titleOf), in the same order. */
  titles: string[];
  lengths: number[];
  /** The edges, three numbers each (encodeEdges): a third of the text of the objects, parsed faster. */
  edges: number[];
  /** Their order by target (edgesByTarget). */
  edges_by_target: number[];
  holders: LazyRegistryData['holders'];
  /** The length of each index's line, by name, in the order of the lines (after the entities'). */
  indexes: Record<string, number>;
}

/** Closes a snapshot's file once nothing can read from it any more. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/** Reads `length` bytes at `position` of an open file (or fewer at its end). */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buffer, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buffer : buffer.subarray(0, got);
}

/**
 * The first line of a file of `size` bytes, read in growing pieces from `guess` bytes until its end: the
 * bytes read and the place of the line break in them, or undefined when the file has none.
 */
export function firstLine(fd: number, size: number, guess: number): { bytes: Buffer; split: number } | undefined {
  let bytes = readAt(fd, 0, Math.min(size, guess));
  let split = bytes.indexOf(10);
  while (split < 0 && bytes.length < size) {
    const more = readAt(fd, bytes.length, Math.min(size - bytes.length, bytes.length));
    if (more.length === 0) break;
    split = more.indexOf(10);
    if (split >= 0) split += bytes.length;
    bytes = Buffer.concat([bytes, more]);
  }
  return split < 0 ? undefined : { bytes, split };
}

/**
 * The snapshot at `path`, or undefined when it is missing, unreadable or built by other code. Only its
 * index line is read now; an entity's or an index's line is read when first asked for, from the file
 * kept open (a snapshot is replaced by renaming a new file over it, so the open file stays whole), and
 * closed when the snapshot's registry and indexes are no longer used.
 */
export function readSnapshot(path: string): ReadSnapshot | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  // What the readers below hold: when they are gone, the file is closed.
  const file = { fd };
  let kept = false;
  try {
    const size = fstatSync(fd).size;
    const first = firstLine(fd, size, 256 * 1024);
    if (first === undefined) return undefined;
    const { bytes, split } = first;
    // The file is ASCII (writeSnapshot): latin1 decoding is a plain copy, and JSON.parse of a one-byte
    // string is faster than of the two-byte string UTF-8 text with any non-ASCII character decodes to.
    // (A file of another format decodes to something whose built_by does not match, and is refused.)
    const head = JSON.parse(bytes.toString('latin1', 0, split)) as SnapshotHead;
    if (
      head.built_by !== BUILT_BY ||
      typeof head.content_hash !== 'string' ||
      !Array.isArray(head.ids) ||
      head.lengths?.length !== head.ids.length ||
      head.statuses?.length !== head.ids.length ||
      head.titles?.length !== head.ids.length
    )
      return undefined;
    const starts = new Array<number>(head.lengths.length);
    let at = split + 1;
    head.lengths.forEach((length, i) => {
      starts[i] = at;
      at += length + 1;
    });
    const indexes = new Map<string, [start: number, end: number]>();
    for (const [name, length] of Object.entries(head.indexes ?? {})) {
      indexes.set(name, [at, at + length]);
      at += length + 1;
    }
    if (at > size || !Array.isArray(head.edges) || head.edges.length % 3 !== 0) return undefined;
    const line = (start: number, end: number) => readAt(file.fd, start, end - start).toString('latin1');
    const snapshot: ReadSnapshot = {
      built_by: head.built_by,
      content_hash: head.content_hash,
      data: {
        manifest: head.manifest,
        ids: head.ids,
        kinds: head.kinds,
        statuses: head.statuses,
        titles: head.titles,
        edges: new EncodedEdges(
          head.edges,
          head.edges_by_target,
          head.ids,
          () => new Error(`The atlas snapshot ${path} is damaged (its edges do not decode): rebuild it (npm run build).`),
        ),
        holders: head.holders,
        load: (i) => JSON.parse(line(starts[i]!, starts[i]! + head.lengths[i]!)) as Entity,
      },
      // The index's JSON text as written (non-ASCII characters escaped): the same value once parsed.
      index: (name) => {
        const at = indexes.get(name);
        return at && line(at[0], at[1]);
      },
    };
    openFiles.register(file, fd);
    kept = true;
    return snapshot;
  } catch {
    return undefined;
  } finally {
    if (!kept) closeSync(fd);
  }
}

/**
 * The content hash of the snapshot at `path`, read from the start of its index line alone, or undefined
 * when it is missing or was built by other code: for a caller that needs to know which atlas a snapshot
 * holds without reading it (the CLI's stored texts, cli/stored-text.ts). writeSnapshot writes `built_by`
 * and `content_hash` first.
 */
export function snapshotHash(path: string): string | undefined {
  return readOpen(path, (fd) => {
    const m = /^\{"built_by":"([^"\\]*)","content_hash":"([^"\\]*)"/.exec(readAt(fd, 0, 256).toString('latin1'));
    return m !== null && m[1] === BUILT_BY ? m[2] : undefined;
  });
}

/**
 * What `read` finds in the file at `path`, opened for it alone and closed after; undefined when the file
 * cannot be opened or read (a missing, unreadable or damaged file is not an error here).
 */
export function readOpen<T>(path: string, read: (fd: number) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return read(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * JSON text with every character beyond ASCII escaped (\u00e9): the same value, read faster
 * (readSnapshot). Such characters appear only inside JSON strings, where the escape means the same.
 */
const asciiText = (json: string) => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const asciiJson = (value: unknown) => asciiText(JSON.stringify(value));

/**
 * Writes a snapshot atomically (a reader never sees half a file). Deterministic bytes for the same input.
 * The layout, one JSON value a line, all ASCII:
 *
 *   line 1          {built_by, content_hash, manifest, ids, kinds, statuses, titles, lengths, edges (as
 *                   numbers: encodeEdges) and edges_by_target, holders, indexes}: the index
 *   lines 2…N+1     one entity a line, in the order of ids (lengths gives each line's length)
 *   then            each precomputed index's JSON text, a line each, in the order (and of the lengths)
 *                   the index line's `indexes` gives
 *
 * so that a reader parses the index line and then only the lines it needs (readSnapshot): `search`
 * parses the search index, not the reader's model beside it.
 */
export function writeSnapshot(path: string, snapshot: Snapshot): void {
  const { indexes, data, built_by, content_hash } = snapshot;
  const entities = [...data.entities].sort((a, b) => compareIdsOf(a.id, b.id));
  const lines = entities.map(asciiJson);
  const names = Object.keys(indexes).sort();
  const indexLines = names.map((name) => {
    const text = asciiText(indexes[name]!);
    if (text.includes('\n')) throw new Error(`The snapshot index "${name}" holds a line break: an index is one line of JSON.`);
    return text;
  });
  // Sorted by source as the registry sorts them (EncodedEdges finds a source's edges by binary search).
  const edges = encodeEdges(
    [...(data.edges ?? [])].sort(compareEdges),
    entities.map((e) => e.id),
  );
  // built_by and content_hash first: snapshotHash reads them from the start of the line.
  const head: SnapshotHead = {
    built_by,
    content_hash,
    manifest: data.manifest,
    ids: entities.map((e) => e.id),
    kinds: entities.map((e) => e.kind),
    statuses: entities.map((e) => e.status),
    titles: entities.map(titleOf),
    lengths: lines.map((l) => l.length),
    edges,
    edges_by_target: edgesByTarget(edges),
    holders: snapshot.holders,
    indexes: Object.fromEntries(names.map((name, i) => [name, indexLines[i]!.length])),
  };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${asciiJson(head)}\n${[...lines, ...indexLines].map((l) => `${l}\n`).join('')}`, 'latin1');
  renameSync(tmp, path);
}

export interface OpenedAtlas {
  registry: Registry;
  /** A precomputed index by name (e.g. "search"), or undefined when the snapshot has none. */
  index(name: string): string | undefined;
  /** bundled: the snapshot shipped with the code; cache: a cached snapshot of the checkout; content: parsed now. */
  from: 'bundled' | 'cache' | 'content';
  /** Errors met while loading content (only when parsed now); entities that failed are left out. */
  problems: Problem[];
  /** Content hash (hash.ts) of the content the atlas was read from. */
  content_hash: string;
}

function opened(s: ReadSnapshot, from: OpenedAtlas['from']): OpenedAtlas {
  return { registry: new Registry(s.data), index: s.index, from, problems: [], content_hash: s.content_hash };
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
  options: { bundled?: string; builders: () => Promise<IndexBuilders> /** checkoutHash(dir), when already known. */; hash?: string },
): Promise<OpenedAtlas> {
  const cache = cacheDir();
  const hash = options.hash ?? (await checkoutHash(dir));
  const bundled = options.bundled !== undefined ? readSnapshot(options.bundled) : undefined;
  if (bundled?.content_hash === hash) return opened(bundled, 'bundled');
  const cachePath = cache !== undefined ? join(cache, `atlas-${hash.slice(0, 32)}.json`) : undefined;
  const cached = cachePath !== undefined ? readSnapshot(cachePath) : undefined;
  if (cached?.content_hash === hash) return opened(cached, 'cache');

  // The loader brings the YAML parser and the schemas: load them only when a snapshot will not do.
  const { loadAtlas } = await import('./load.ts');
  const load = loadAtlas(dir);
  const snapshot = makeSnapshot(load.registry, hash, await options.builders());
  const errors = load.problems.filter((p) => p.severity === 'error');
  if (errors.length === 0 && cachePath !== undefined) saveToCache(cachePath, (path) => writeSnapshot(path, snapshot));
  return { registry: load.registry, index: (name) => snapshot.indexes[name], from: 'content', problems: errors, content_hash: hash };
}

/** The content hash of a checkout: remembered while its stamp is unchanged, else computed (and remembered). */
export async function checkoutHash(dir: string, cache = cacheDir()): Promise<string> {
  const stamp = contentStamp(dir);
  const stampPath = cache !== undefined ? join(cache, `stamp-${fnv1a(dir)}.json`) : undefined;
  if (stampPath !== undefined) {
    try {
      const known = JSON.parse(readFileSync(stampPath, 'utf8')) as { checkout: string; stamp: string; content_hash: string };
      if (known.checkout === dir && known.stamp === stamp && typeof known.content_hash === 'string') return known.content_hash;
    } catch {
      // No stamp yet, or an unreadable one: compute the hash.
    }
  }
  // Loaded here, not at the top: hashing needs node:crypto, which the fast path does not.
  const { contentHash } = await import('./hash.ts');
  const hash = contentHash(dir);
  if (stampPath !== undefined) {
    saveToCache(stampPath, (path) => {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ checkout: dir, stamp, content_hash: hash }) + '\n');
      renameSync(tmp, path);
    });
  }
  return hash;
}

/** FNV-1a (32-bit, hex): a short file name for a checkout path, without loading node:crypto. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Best effort: a read-only or missing cache directory only costs speed next time. Keeps the newest few. */
function saveToCache(path: string, write: (path: string) => void): void {
  try {
    const dir = join(path, '..');
    mkdirSync(dir, { recursive: true });
    write(path);
    for (const prefix of ['atlas-', 'stamp-']) {
      const old = readdirSync(dir)
        .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
        .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
        .sort((a, b) => b.t - a.t)
        .slice(CACHE_KEEP);
      for (const { f } of old) rmSync(join(dir, f), { force: true });
    }
  } catch {
    // Caching is an optimisation; never fail a command over it.
  }
}
