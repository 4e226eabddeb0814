// The static build: the whole site root as an in-memory list of files (pure: Registry in, bytes out), and
// writing it to disk. Everything is byte-deterministic: files sorted by path, JSON with stable key order
// and two-space indent, LF line ends, a trailing newline, and no timestamp but the manifest's date.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { KINDS } from '../model/index.ts';
import { Registry } from '../registry/registry.ts';
import type { RecordedRelease } from '../registry/releases.ts';
import type { BuildInfo } from './documents.ts';
import { compressedVariants, isCompressible } from './compress.ts';
import { jsonBytes } from './json-text.ts';
import { FINISHED, IN_FLIGHT, ROLE, type WriteJob, type WriterData, type WrittenFile } from './site-writer.ts';
import { headersFile, nginxSnippet, redirectsFile } from './host.ts';
import {
  lockSite,
  looksBuilt,
  markerOf,
  outDirRefusal,
  OutDirRefused,
  placeSite,
  removePartials,
  SITE_MARKER,
  stagingDir,
  writeMarker,
} from './site-dir.ts';
import { FAVICON_SVG, faviconIco } from './favicon.ts';
import { openApiDocument } from './openapi.ts';
import { recordJsonSchema } from './responses.ts';
import { downloadFiles, downloadFilesOneByOne, downloadsUrl, LATEST, type DownloadFile, type DownloadManifest } from './downloads.ts';
import type { Site, SiteFile, SitePages, WrittenSite } from './site-file.ts';
import { API_ROUTES, fileOfPage, fileOfUrl, OPENAPI_PATH, problemDocuments, urlOf, VARIANT_SUFFIX, type ApiDocument } from './routes.ts';

export type { BuildInfo } from './documents.ts';

/** Where a checkout's site is built by default (dist/ is for compiled code). */
export const DEFAULT_OUT = '_site';

const text = (value: string) => Buffer.from(value, 'utf8');

/**
 * Every file of the site root, one at a time, in the order they are made (not sorted): an API document is
 * serialised as soon as it is made, so a consumer that writes each file and lets it go never holds the
 * whole site (at 100,000 entities that is a gigabyte of JSON). The precompressed variants are not here.
 * Every file's bytes are new, the consumer's own: streamSite moves them to its writer thread.
 */
function* siteFiles(reg: Registry, info: BuildInfo, site: SitePages): Generator<SiteFile> {
  for (const f of madeFiles(reg, info, site)) {
    // Servers answer such URLs with 404 (they are the names of precompressed variants, routes.ts).
    if (f.url !== undefined && VARIANT_SUFFIX.test(f.url))
      throw new Error(`the site file ${f.path} has a URL ending like a precompressed variant (${f.url}), which no server would serve`);
    yield f;
  }
}

function* madeFiles(reg: Registry, info: BuildInfo, site: SitePages): Generator<SiteFile> {
  // What _redirects needs of the API documents: their URLs and files, not their bodies.
  const docs: ApiDocument[] = [];
  for (const doc of apiDocumentsOneByOne(reg, info)) {
    docs.push({ ...doc, body: undefined });
    yield { path: doc.file, url: doc.url, bytes: jsonBytes(doc.body) };
  }
  for (const p of problemDocuments(reg)) yield { path: p.file, url: `/${p.file}`, bytes: jsonBytes(p.body) };
  yield { path: OPENAPI_PATH.slice(1), url: OPENAPI_PATH, bytes: jsonBytes(openApiDocument(reg)) };
  for (const k of KINDS)
    yield { path: `schemas/${k}.schema.json`, url: `/schemas/${k}.schema.json`, bytes: jsonBytes(recordJsonSchema(k)) };
  // The bulk downloads of the latest content, with their manifest.json and SHA256SUMS (downloads.ts).
  // Each set's manifest.json also makes its index page (src/site/pages/downloads.ts), and all of them /downloads/.
  const latest = downloadsUrl();
  const sets: Array<{ version: string; manifest: DownloadManifest }> = [];
  const setPage = (version: string, manifest: DownloadManifest): SiteFile => {
    sets.push({ version, manifest });
    const p = site.downloadSetPage(reg, version, manifest);
    return { path: fileOfPage(p.url), url: p.url, bytes: text(p.html) };
  };
  const manifestOf = (f: DownloadFile) => JSON.parse(f.bytes.toString('utf8')) as DownloadManifest;
  let latestManifest: DownloadManifest | undefined;
  for (const f of downloadFilesOneByOne(reg)) {
    if (f.file === 'manifest.json') latestManifest = manifestOf(f);
    yield { path: `${latest.slice(1)}${f.file}`, url: `${latest}${f.file}`, bytes: f.bytes };
  }
  yield setPage(LATEST, latestManifest!);
  // Every recorded release's downloads, rebuilt from its stored data (releases/): /downloads/<version>/.
  for (const release of [...(info.releases ?? [])].reverse()) {
    const dir = downloadsUrl(release.record.version);
    let manifest: DownloadManifest | undefined;
    for (const f of releaseDownloadFiles(release)) {
      if (f.file === 'manifest.json') manifest = manifestOf(f);
      yield { path: `${dir.slice(1)}${f.file}`, url: `${dir}${f.file}`, bytes: f.bytes };
    }
    yield setPage(release.record.version, manifest!);
  }
  const hub = site.downloadsHubPage(reg, sets);
  yield { path: fileOfPage(hub.url), url: hub.url, bytes: text(hub.html) };
  for (const p of site.pages(reg, info)) yield { path: fileOfPage(p.url), url: p.url, bytes: p.bytes };
  yield { path: 'favicon.svg', url: '/favicon.svg', bytes: text(FAVICON_SVG) };
  yield { path: 'favicon.ico', url: '/favicon.ico', bytes: faviconIco() };
  yield { path: '_headers', bytes: text(headersFile()) };
  yield { path: '_redirects', bytes: text(redirectsFile(docs)) };
  yield { path: '_nginx.conf', bytes: text(nginxSnippet()) };
}

/**
 * The download files of a recorded release, rebuilt from its stored registry data and the JSON Schemas of
 * its content model: byte for byte the files its record holds the checksums of (test/unit/releases.test.ts).
 */
export function releaseDownloadFiles(release: Pick<RecordedRelease, 'data' | 'schemas'>): DownloadFile[] {
  return downloadFiles(new Registry(release.data), { schemas: release.schemas });
}

/** Every API document of the route table (routes.ts), one at a time: each body is made when reached and let go once serialised. */
function* apiDocumentsOneByOne(reg: Registry, info: BuildInfo): Generator<ApiDocument> {
  for (const route of API_ROUTES) {
    for (const { id, body } of route.documents(reg, info)) {
      const url = urlOf(route, id);
      yield { route, url, file: fileOfUrl(url), body };
    }
  }
}

/** Every file of the site root for this registry, in memory (streamSite writes one without holding it). */
export function buildSite(reg: Registry, info: BuildInfo, pages: SitePages): Site {
  const files = [...siteFiles(reg, info, pages)];
  // Precompressed .gz/.br beside the text files (src/publish/compress.ts), for gzip_static and hoba serve.
  files.push(...compressedVariants(files));
  files.sort(byPath);
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new Error(`two site files share the path ${f.path}`);
    seen.add(f.path);
  }
  return { files, digest: siteDigest(files), bytes: files.reduce((n, f) => n + f.bytes.length, 0) };
}

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * Builds the site straight into `out`, file by file, without holding it in memory: the same files and
 * bytes as writeSite(buildSite(…)), and the same digest, computed from the files as written. Like
 * writeSite, it writes beside `out` first and swaps the result in. The main thread makes the files; a
 * writer thread compresses, writes and hashes them meanwhile (SiteWriter).
 */
export function streamSite(reg: Registry, info: BuildInfo, pages: SitePages, out: string): WrittenSite {
  const urls = new Map<string, string | undefined>();
  let site: WrittenSite | undefined;
  replaceDir(out, (writer) => {
    for (const f of siteFiles(reg, info, pages)) {
      if (urls.has(f.path)) throw new Error(`two site files share the path ${f.path}`);
      urls.set(f.path, f.url);
      // The file is let go once handed over, so its memory is given to the writer rather than copied.
      writer.write(f.path, f.bytes, isCompressible(f), true);
    }
    const written = writer.finish();
    const files: WrittenSite['files'] = [];
    const seen = new Set<string>();
    for (const w of written) {
      // A variant's path could only meet another file's if the site had a file named like x.json.gz.
      if (seen.has(w.path)) throw new Error(`two site files share the path ${w.path}`);
      seen.add(w.path);
      const url = urls.get(w.path);
      files.push({ path: w.path, ...(url !== undefined ? { url } : {}), size: w.size });
    }
    files.sort(byPath);
    site = {
      files,
      digest: digestOf(written.map((w) => ({ ...w, sha256: Buffer.from(w.sha256, 'hex') }))),
      bytes: files.reduce((n, f) => n + f.size, 0),
    };
    return { digest: site.digest, paths: files.map((f) => f.path) };
  });
  return site!;
}

export function siteDigest(files: ReadonlyArray<{ path: string; bytes: Buffer }>): string {
  return digestOf(files.map((f) => ({ path: f.path, size: f.bytes.length, sha256: fileHash(f.bytes) })));
}

/** sha256 of one file's bytes: what the site digest is made of, so that it can be computed file by file. */
const fileHash = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

/** The site digest over each file's path, size and sha256, in path order. */
function digestOf(files: ReadonlyArray<{ path: string; size: number; sha256: Buffer }>): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort(byPath)) {
    hash.update(`${f.path}\0${f.size}\0`);
    hash.update(f.sha256);
  }
  return hash.digest('hex');
}

/**
 * Why `out` must not be (over)written, or undefined when it may: the build replaces the whole site, so it
 * refuses anything holding the content, anything that is not a directory, and any directory that is not
 * empty and does not hold exactly a site a build wrote (site-dir.ts).
 */
export function outDirProblem(out: string, checkout: string): string | undefined {
  const abs = resolve(out);
  const content = join(resolve(checkout), 'content');
  const inside = (child: string, parent: string) => {
    const rel = relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
  };
  if (inside(content, abs) || inside(abs, content)) {
    return `${out} would overwrite the atlas content (content/). Choose a separate directory such as _site.`;
  }
  return outDirRefusal(abs)?.replace(abs, out);
}

/** Whether a directory presents itself as a site that `hoba build` wrote (enough to compare it with a
 * fresh build; replacing it needs more, see outDirProblem). */
export function isBuiltSite(dir: string): boolean {
  return looksBuilt(dir);
}

/**
 * Modes of what the build writes, whatever the umask: a site is published, so a web server running as
 * another user must be able to read it (umask 077 would otherwise make it 0600/0700).
 */
const FILE_MODE = 0o644;
const DIR_MODE = 0o755;

/** Replaces `out` with the site: written beside it first, then swapped in, so no half-written site is seen. */
export function writeSite(site: Site, out: string): void {
  replaceDir(out, (writer) => {
    // Its variants are in the list already.
    for (const f of site.files) writer.write(f.path, f.bytes, false);
    writer.finish();
    return { digest: site.digest, paths: site.files.map((f) => f.path) };
  });
}

/** What the marker names as the site's writer. */
const WRITTEN_BY = 'hoba build';

/**
 * Replaces the site at `out` with what `fill` writes through a SiteWriter into a staging directory beside
 * it, with published modes and the marker, then swaps it in atomically (site-dir.ts: `out` is a link to a
 * versioned directory); the staging directory never outlives a failure, and one build at a time holds
 * `<out>.lock`. `fill` returns the site's digest and the paths of every file written.
 */
function replaceDir(out: string, fill: (writer: SiteWriter) => { digest: string; paths: string[] }): void {
  const abs = resolve(out);
  const refusal = outDirRefusal(abs);
  if (refusal) throw new OutDirRefused(refusal);
  mkdirSync(dirname(abs), { recursive: true });
  const release = lockSite(abs);
  try {
    removePartials(abs);
    const staging = stagingDir(abs);
    rmSync(staging, { recursive: true, force: true });
    let writer: SiteWriter | undefined;
    try {
      writer = new SiteWriter(staging);
      const { digest, paths } = fill(writer);
      for (const dir of writer.dirs) chmodSync(dir, DIR_MODE);
      writeMarker(staging, markerOf(WRITTEN_BY, digest, paths), FILE_MODE);
      placeSite(abs, staging, digest, new Set(paths));
    } finally {
      writer?.close();
      rmSync(staging, { recursive: true, force: true });
    }
  } finally {
    release();
  }
}

/**
 * The writer thread's module (site-writer.ts): beside the bundled chunk in dist/ (scripts/build.mjs makes
 * it an entry of its own), or beside this file when run from source through tsx, whose hooks a Node 20
 * worker does not inherit: the thread registers them itself before loading the module.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WRITER_MODULE = new URL(FROM_SOURCE ? './site-writer.ts' : './site-writer.js', import.meta.url).href;

/**
 * Hands site files to the writer thread (site-writer.ts), which compresses, writes and hashes them while
 * the main thread goes on making pages. Its API is synchronous (write, then finish): the main thread
 * blocks only when the writer is more than MAX_IN_FLIGHT bytes behind (so memory stays bounded), and in
 * finish() until the last file is written.
 */
class SiteWriter {
  /** Every directory created, for the published mode once everything is written. */
  readonly dirs: Set<string>;
  private readonly worker: Worker;
  private readonly results: MessagePort;
  /** Shared with the thread: [bytes handed over and not yet written, 1 once the thread has finished]. */
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly written: WrittenFile[] = [];

  constructor(private readonly root: string) {
    mkdirSync(root);
    this.dirs = new Set([root]);
    const { port1, port2 } = new MessageChannel();
    this.results = port1;
    // The main thread waits on shared memory, not on events, so a module that fails to load could not say
    // so through the worker's 'error' event: this small loader reports it like a failed write.
    const load = FROM_SOURCE
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(WRITER_MODULE)}))`
      : `import(${JSON.stringify(WRITER_MODULE)})`;
    const loader = `${load}.catch((err) => { const { workerData: d } = require('node:worker_threads'); d.results.postMessage({ error: 'the site writer could not start: ' + err.message }); Atomics.store(d.state, ${FINISHED}, 1); Atomics.notify(d.state, ${FINISHED}); })`;
    const data: WriterData = { role: ROLE, state: this.state, results: port2, fileMode: FILE_MODE };
    this.worker = new Worker(loader, { eval: true, workerData: data, transferList: [port2] });
  }

  /**
   * Hands a file to the writer (site-relative path); with `compress`, its variants too (compress.ts). With
   * `transfer`, a file that has its memory to itself (a large one: hundreds of megabytes at 100,000
   * entities) moves to the thread instead of being copied, and `bytes` is left empty.
   */
  write(rel: string, bytes: Buffer, compress: boolean, transfer = false): void {
    const path = join(this.root, ...rel.split('/'));
    // Directories are made here, before the file is handed over, so the thread only writes files.
    for (let dir = dirname(path); !this.dirs.has(dir); dir = dirname(dir)) {
      this.dirs.add(dir);
      mkdirSync(dir, { recursive: true });
    }
    Atomics.add(this.state, IN_FLIGHT, bytes.length);
    const job: WriteJob = { path, rel, bytes, compress };
    const own = transfer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    this.worker.postMessage(job, own ? [bytes.buffer as ArrayBuffer] : []);
    for (let n = Atomics.load(this.state, IN_FLIGHT); n > MAX_IN_FLIGHT && !this.finished(); n = Atomics.load(this.state, IN_FLIGHT)) {
      Atomics.wait(this.state, IN_FLIGHT, n, 100);
      this.collect();
    }
    this.collect();
  }

  /** Waits until every file handed over is written; what was written (files and variants), in no order. */
  finish(): WrittenFile[] {
    this.worker.postMessage(null);
    while (!this.finished()) Atomics.wait(this.state, FINISHED, 0, 100);
    this.collect();
    return this.written;
  }

  /** Whether the thread has stopped: done with everything it was handed, or unable to start. */
  private finished(): boolean {
    return Atomics.load(this.state, FINISHED) !== 0;
  }

  close(): void {
    this.results.close();
    void this.worker.terminate();
  }

  /** Takes what the thread reports, and throws what it failed on. */
  private collect(): void {
    for (let m = receiveMessageOnPort(this.results); m; m = receiveMessageOnPort(this.results)) {
      const report = m.message as { files: WrittenFile[] } | { error: string };
      if ('error' in report) throw new Error(report.error);
      this.written.push(...report.files);
    }
  }
}

/** How far (bytes) the writer may fall behind before the main thread waits for it. */
const MAX_IN_FLIGHT = 64 * 1024 * 1024;

/** Every file under a directory, by site-relative path (for comparing a mirror on disk), but the marker a
 * build leaves (site-dir.ts), which is not part of the site. */
export function readSiteDir(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (abs: string, prefix: string) => {
    for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = `${prefix}${entry.name}`;
      if (rel === SITE_MARKER) continue;
      if (entry.isDirectory()) walk(join(abs, entry.name), `${rel}/`);
      else if (entry.isFile()) files.set(rel, readFileSync(join(abs, entry.name)));
    }
  };
  walk(dir, '');
  return files;
}
