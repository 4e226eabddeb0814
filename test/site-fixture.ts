// The built site of the checkout, built once and shared by every test that only reads a built site (the
// contract suites, the servers, the browser, the pages, the downloads). It is kept under
// node_modules/.cache/hoba-test/, keyed by a hash of what a site is built from (src/, content/, releases/,
// package.json) and by the Node version: the first test file that asks for it builds it (about five seconds), every later one in
// this run or the next reads it, and any change to the code or the content gives a new key. Building it
// needs a current dist/ (the site's browser scripts are dist/site/).
//
// The shared site must not be changed: a test that edits, adds or removes files in a built site takes
// its own copy (writableSite()), and a test of the build itself (determinism, hoba build, a mutated atlas)
// builds into its own directory as before.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distProblem, treeHash } from '../scripts/source-hash.mjs';
import { buildInMemory } from '../src/workflows/build.ts';
import { writeSite } from '../src/publish/build.ts';
import type { Site } from '../src/publish/site-file.ts';
import { ORIGIN_ENV } from '../src/publish/origin.ts';
import { ROOT } from './helpers.ts';

/** What a built site depends on. */
const SITE_INPUTS = ['src', 'content', 'releases', 'package.json'];
const CACHE = join(ROOT, 'node_modules', '.cache', 'hoba-test');
const SECRET = 'TOP-SECRET-OUTSIDE-THE-SITE-ROOT';

/** A built site on disk: `root` is the site root; beside it, in `parent`, a secret file that must never be served. */
export interface BuiltSite {
  readonly parent: string;
  readonly root: string;
  readonly secret: string;
  /** The site's files in memory, as buildSite returns them (read from disk on first use). */
  readonly site: Site;
  /** One file's bytes, by its path in the site root. */
  file(path: string): Buffer;
}

interface Manifest {
  digest: string;
  bytes: number;
  files: Array<{ path: string; url?: string }>;
}

class SiteOnDisk implements BuiltSite {
  readonly root: string;
  readonly secret = SECRET;
  private loaded?: Site;
  private byPath?: Map<string, Buffer>;

  constructor(readonly parent: string) {
    this.root = join(parent, 'site');
  }

  get site(): Site {
    if (!this.loaded) {
      const manifest = JSON.parse(readFileSync(join(this.parent, 'manifest.json'), 'utf8')) as Manifest;
      const files = manifest.files.map((f) => ({ ...f, bytes: readFileSync(join(this.root, f.path)) }));
      this.loaded = { files, digest: manifest.digest, bytes: manifest.bytes };
    }
    return this.loaded;
  }

  file(path: string): Buffer {
    this.byPath ??= new Map(this.site.files.map((f) => [f.path, f.bytes]));
    const bytes = this.byPath.get(path);
    if (!bytes) throw new Error(`no site file ${path}`);
    return bytes;
  }
}

/** Writes a built site, its manifest and the secrets beside it into `parent`. */
function writeBuilt(site: Site, parent: string): void {
  writeSite(site, join(parent, 'site'));
  const manifest: Manifest = {
    digest: site.digest,
    bytes: site.bytes,
    files: site.files.map((f) => (f.url === undefined ? { path: f.path } : { path: f.path, url: f.url })),
  };
  writeFileSync(join(parent, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  writeFileSync(join(parent, 'secret.txt'), SECRET);
  mkdirSync(join(parent, 'site-private'));
  writeFileSync(join(parent, 'site-private', 'secret.txt'), SECRET);
}

/** The site as `hoba build` makes it with no site origin set (whatever this process's environment says). */
function buildWithoutOrigin(): Site {
  const saved = process.env[ORIGIN_ENV];
  delete process.env[ORIGIN_ENV];
  try {
    return buildInMemory(ROOT).site;
  } finally {
    if (saved !== undefined) process.env[ORIGIN_ENV] = saved;
  }
}

let shared: BuiltSite | undefined;

/** The checkout's built site, shared: read it, never change it (see writableSite). */
export function sharedSite(): BuiltSite {
  if (shared) return shared;
  // The runtime is part of the key: another Node's zlib may compress the .gz and .br variants otherwise.
  const key = treeHash(ROOT, SITE_INPUTS).slice(0, 24);
  const dir = join(CACHE, `site-${key}-node${process.versions.node}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    // The site carries the browser scripts that npm run build bundles into dist/site/.
    const problem = distProblem(ROOT);
    if (problem) throw new Error(`${problem} (the site is built with its browser scripts, dist/site/)`);
    mkdirSync(CACHE, { recursive: true });
    // Built beside it and renamed into place: a reader never sees half a site, and two test files
    // building at once both succeed (the second rename finds the directory there and keeps it).
    const staging = mkdtempSync(join(CACHE, `building-${key}-`));
    try {
      writeBuilt(buildWithoutOrigin(), staging);
      try {
        renameSync(staging, dir);
      } catch (err) {
        if (!existsSync(join(dir, 'manifest.json'))) throw err;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    prune(dir);
  }
  shared = new SiteOnDisk(dir);
  return shared;
}

/** Removes the sites of other keys (older code or content) that no run has used for an hour. */
function prune(keep: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path !== keep && statSync(path).mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true });
  }
}

/** A copy of the shared site in a temporary directory, for a test that changes files in it. */
export function writableSite(): BuiltSite & { dispose(): void } {
  const from = sharedSite();
  const parent = mkdtempSync(join(tmpdir(), 'hoba-site-'));
  // The site root is a link to its versioned directory beside it (src/publish/site-dir.ts): copied as it
  // is, it points at the copy's directory, not back into the shared site.
  cpSync(from.parent, parent, { recursive: true, verbatimSymlinks: true });
  const site = new SiteOnDisk(parent);
  return Object.assign(site, { dispose: () => rmSync(parent, { recursive: true, force: true }) });
}

// Run as a script (scripts/test.mjs does, before the lanes): build the shared site now, once, rather than
// in whichever test files first ask for it at the same time.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`the shared built site: ${sharedSite().root}`);
}
