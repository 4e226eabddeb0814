// A small HTTP server over a built site root, answering exactly as the host files tell a CDN or nginx to
// (routes and headers come from src/publish/routes.ts). It only ever reads regular files inside the
// root, answers GET and HEAD (and CORS preflights where any origin may read; 405 otherwise), and turns
// bad paths into 400/404 instead of crashing.
// Other handlers (the hosted MCP endpoint at /mcp) join through `mounts`.
//
// Work is done once per file, not per request: a file is read, hashed for its ETag and given its headers
// when first needed (all of them in the background at start-up), with its precompressed .br/.gz variants
// (src/publish/compress.ts) for clients that accept them. A request then costs a stat(), which notices a
// file changed or replaced on disk (it is then read again), and the write.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ENCODINGS, type Encoding } from '../publish/compress.ts';
import {
  ALLOWED_METHODS,
  HOST_FILES,
  METHOD_NOT_ALLOWED_FILE,
  NOT_FOUND_FILE,
  NOT_FOUND_PAGE,
  headersForFile,
  preflightFor,
  resolveUrl,
  type Resolution,
} from '../publish/routes.ts';

/** A handler for one exact path that takes precedence over the site (it answers every method itself). */
export interface Mount {
  /** Exact URL path, e.g. /mcp. */
  path: string;
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

export interface SiteServerOptions {
  /** The site root (what `hoba build` wrote). */
  root: string;
  mounts?: readonly Mount[];
  /** Most bytes of files (with their variants) kept in memory; default 256 MiB. Files beyond it are read per request. */
  cacheBytes?: number;
}

/** Longest request path answered; longer ones are refused with 400 before any file system access. */
export const MAX_PATH_LENGTH = 2048;

const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

export function createSiteServer(options: SiteServerOptions): Server {
  const root = realpathSync(resolve(options.root));
  const mounts = new Map((options.mounts ?? []).map((m) => [m.path, m]));
  const files = new SiteFiles(root, options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const server = createServer((req, res) => {
    const failed = (err: unknown) => {
      // A bug must not take the server down: answer 500 if nothing was sent yet.
      if (!res.headersSent) sendProblem(res, 500, 'Internal Server Error', 'The server failed to answer this request.', req.method === 'HEAD');
      else res.destroy();
      if (process.env['HOBA_DEBUG']) console.error(err);
    };
    try {
      handle(root, files, mounts, req, res)?.catch(failed);
    } catch (err) {
      failed(err);
    }
  });
  // By default Node's HTTP server drops a request whose client half-closes (sends FIN after the request,
  // as `nc -N` and some health checkers do) before the answer is written: every answer that waits for the
  // file system was lost. Half-open, the answer is written and then the connection is closed.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.once('listening', () => files.warm());
  return server;
}

/** A request path, decoded and resolved against the route table (undefined: malformed). */
type Routed = { path: string; resolution: Resolution } | undefined;

/** Resolutions of recent request paths: the same few URLs come again and again. */
const routes = new Map<string, Routed>();
const MAX_ROUTES = 4096;

function route(rawPath: string): Routed {
  let routed = routes.get(rawPath);
  if (routed === undefined && !routes.has(rawPath)) {
    const path = decodePath(rawPath);
    routed = path === undefined ? undefined : { path, resolution: resolveUrl(path) };
    if (routes.size >= MAX_ROUTES) routes.clear();
    if (rawPath.length <= 256) routes.set(rawPath, routed);
  }
  return routed;
}

function handle(root: string, files: SiteFiles, mounts: Map<string, Mount>, req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  const head = req.method === 'HEAD';
  const target = req.url ?? '';
  const end = target.search(/[?#]/);
  const rawPath = end === -1 ? target : target.slice(0, end);
  if (!rawPath.startsWith('/')) return sendProblem(res, 400, 'Bad Request', 'The request target must be a path starting with /.', head);
  if (rawPath.length > MAX_PATH_LENGTH) return sendProblem(res, 400, 'Bad Request', `The path is longer than ${MAX_PATH_LENGTH} characters.`, head, root);

  const mount = mounts.get(rawPath);
  if (mount) return mount.handle(req, res);
  // A request with a body (which the site never reads) is answered a turn later, once the parser has been
  // through what already came: malformed framing (a bad chunk) is then a 400, not a 200 and a broken stream.
  if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') {
    return new Promise((done, fail) => setImmediate(() => Promise.resolve(answer(root, files, rawPath, head, req, res)).then(done, fail)));
  }
  return answer(root, files, rawPath, head, req, res);
}

function answer(root: string, files: SiteFiles, rawPath: string, head: boolean, req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  const routed = route(rawPath);
  if (routed === undefined) return sendProblem(res, 400, 'Bad Request', 'The path is malformed: bad percent-encoding, a NUL or backslash, or a . or .. segment.', head, root);
  const { path, resolution } = routed;

  const preflight = req.method === 'OPTIONS' ? preflightFor(path) : undefined;
  if (preflight) {
    res.writeHead(204, preflight);
    res.end();
    return;
  }
  if (!(ALLOWED_METHODS as readonly string[]).includes(req.method ?? '')) return sendFile(res, files, METHOD_NOT_ALLOWED_FILE, 405, req);

  if (resolution.kind !== 'hidden') {
    // The usual case, answered without waiting: a file seen before and unchanged on disk.
    const known = files.current(resolution.file);
    if (known) return send(res, known, 200, req);
  }
  return resolveSlowly(res, root, files, path, resolution, req);
}

async function resolveSlowly(res: ServerResponse, root: string, files: SiteFiles, path: string, resolution: Resolution, req: IncomingMessage): Promise<void> {
  if (resolution.kind !== 'hidden') {
    const found = await files.load(resolution.file);
    if (found) return send(res, found, 200, req);
    if (resolution.kind === 'directory' && (await statInside(root, resolution.file)) === 'directory') {
      // Built from the canonical path, never the raw one: a raw //host would be a link to another site.
      res.writeHead(301, { Location: `${encodePath(path)}/`, 'Content-Length': '0' });
      res.end();
      return;
    }
  }
  return sendFile(res, files, resolution.api ? NOT_FOUND_FILE : NOT_FOUND_PAGE, 404, req);
}

/** The decoded, canonical path (runs of slashes merged into one, as nginx does by default), or undefined
 * when it is malformed or tries to leave the root. */
export function decodePath(rawPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return path.replace(/\/{2,}/g, '/');
}

/** A decoded path percent-encoded again for a Location header. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Whether a site-relative file is a regular file or a directory inside the root (after symlinks). */
async function statInside(root: string, file: string): Promise<'file' | 'directory' | undefined> {
  const abs = resolve(root, ...file.split('/').filter(Boolean));
  if (!isInside(root, abs)) return undefined;
  try {
    const real = await realpath(abs);
    if (!isInside(root, real)) return undefined;
    const s = await stat(real);
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

const isInside = (root: string, abs: string) => abs === root || abs.startsWith(root + sep);

// ---------------------------------------------------------------------------------------------------
// Files, read once

/** One way of sending a file: its bytes as they are, or a precompressed variant, with every header ready. */
interface Representation {
  body: Buffer;
  etag: string;
  /** Headers of a response with the body (any status). */
  headers: OutgoingHttpHeaders;
  /** Headers of a 304 (no length, no encoding). */
  notModified: OutgoingHttpHeaders;
}

/** A file as read, with what identifies that version on disk. */
interface Entry {
  abs: string;
  identity: Representation;
  variants: Partial<Record<Encoding, Representation>>;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  cost: number;
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
const DECOMPRESS: Record<Encoding, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };
const VARIANT_SUFFIX = new RegExp(`(${ENCODINGS.map((e) => e.suffix.replace('.', '\\.')).join('|')})$`);

function representation(file: string, body: Buffer, vary: boolean, encoding?: Encoding): Representation {
  const etag = etagOf(body);
  const common: Record<string, string> = { ...headersForFile(file), ...(vary ? { Vary: 'Accept-Encoding' } : {}), ETag: etag };
  const headers = { ...common, ...(encoding ? { 'Content-Encoding': encoding } : {}), 'Content-Length': String(body.length) };
  return { body, etag, headers, notModified: common };
}

/** The site's files by site-relative path, each read once and kept while unchanged on disk. */
class SiteFiles {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry | undefined>>();
  private kept = 0;

  constructor(
    private readonly root: string,
    private readonly budget: number,
  ) {}

  /** The entry of a file when it is known and unchanged on disk (one stat, which follows symbolic links:
   * a file replaced, or a link pointed elsewhere, is a different file and is loaded again with every check). */
  current(file: string): Entry | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    let now: Stats | undefined;
    try {
      now = statSync(entry.abs, { throwIfNoEntry: false });
    } catch {
      now = undefined;
    }
    if (now && now.ino === entry.ino && now.dev === entry.dev && now.size === entry.size && now.mtimeMs === entry.mtimeMs && now.ctimeMs === entry.ctimeMs) return entry;
    this.forget(file, entry);
    return undefined;
  }

  /** Reads a regular file inside the root (after symbolic links), with its variants; undefined when there is none. */
  load(file: string): Promise<Entry | undefined> {
    const known = this.current(file);
    if (known) return Promise.resolve(known);
    let pending = this.loading.get(file);
    if (!pending) {
      pending = this.read(file).finally(() => this.loading.delete(file));
      this.loading.set(file, pending);
    }
    return pending;
  }

  /** Loads every file of the site in the background, as far as the budget goes, so that first requests find them ready. */
  warm(): void {
    const walk = async (dir: string, prefix: string): Promise<void> => {
      const list = await readdir(dir, { withFileTypes: true });
      for (const entry of list) {
        if (this.kept >= this.budget) return;
        const rel = `${prefix}${entry.name}`;
        if (entry.isDirectory()) await walk(join(dir, entry.name), `${rel}/`);
        else if (entry.isFile() && !VARIANT_SUFFIX.test(rel) && !(HOST_FILES as readonly string[]).includes(rel)) await this.load(rel);
      }
    };
    // A site replaced or removed meanwhile is simply not warmed.
    walk(this.root, '').catch(() => {});
  }

  private forget(file: string, entry: Entry): void {
    if (this.entries.get(file) === entry) {
      this.entries.delete(file);
      this.kept -= entry.cost;
    }
  }

  private async read(file: string): Promise<Entry | undefined> {
    const identity = await this.readInside(file);
    if (!identity) return undefined;
    const variants: Partial<Record<Encoding, Representation>> = {};
    const present: Array<[Encoding, Buffer]> = [];
    for (const { encoding, suffix } of ENCODINGS) {
      const variant = await this.readInside(`${file}${suffix}`);
      // Sent only when it is exactly this file compressed: a variant left stale by an edit is ignored.
      if (variant && decompressesTo(encoding, variant.bytes, identity.bytes)) present.push([encoding, variant.bytes]);
    }
    const vary = present.length > 0;
    for (const [encoding, bytes] of present) variants[encoding] = representation(file, bytes, true, encoding);
    const s = identity.stat;
    const entry: Entry = {
      abs: resolve(this.root, ...file.split('/')),
      identity: representation(file, identity.bytes, vary),
      variants,
      dev: s.dev,
      ino: s.ino,
      size: s.size,
      mtimeMs: s.mtimeMs,
      ctimeMs: s.ctimeMs,
      cost: identity.bytes.length + present.reduce((n, [, b]) => n + b.length, 0),
    };
    if (this.kept + entry.cost <= this.budget) {
      const old = this.entries.get(file);
      if (old) this.forget(file, old);
      this.entries.set(file, entry);
      this.kept += entry.cost;
    }
    return entry;
  }

  /** A regular file inside the root, read with the stat of what was read. */
  private async readInside(file: string): Promise<{ bytes: Buffer; stat: Stats } | undefined> {
    const abs = resolve(this.root, ...file.split('/').filter(Boolean));
    if (!isInside(this.root, abs)) return undefined;
    try {
      const real = await realpath(abs);
      if (!isInside(this.root, real)) return undefined;
      const handle = await open(real, 'r');
      try {
        const s = await handle.stat();
        if (!s.isFile()) return undefined;
        return { bytes: await handle.readFile(), stat: s };
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }
}

function decompressesTo(encoding: Encoding, variant: Buffer, identity: Buffer): boolean {
  try {
    return DECOMPRESS[encoding](variant).equals(identity);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Sending

/** Accepted encodings by Accept-Encoding value, best first: a client sends the same value every time. */
const accepted = new Map<string, readonly Encoding[]>();
const NONE: readonly Encoding[] = [];

/** The encodings of ours a client accepts (q > 0), best first; at equal weight the smaller (br) first. */
export function acceptedEncodings(header: string | undefined): readonly Encoding[] {
  if (!header) return NONE;
  let list = accepted.get(header);
  if (list) return list;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (!token) continue;
    let q = 1;
    for (const param of params) {
      // A malformed weight (q=abc) counts as a refusal rather than as a yes.
      if (/^\s*q\s*=/i.test(param)) q = /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.test(param) ? Number(param.split('=')[1]) : 0;
    }
    weights.set(token === 'x-gzip' ? 'gzip' : token, Number.isFinite(q) ? q : 0);
  }
  const weight = (e: Encoding) => weights.get(e) ?? weights.get('*') ?? 0;
  list = ENCODINGS.map((e) => e.encoding)
    .filter((e) => weight(e) > 0)
    .sort((a, b) => weight(b) - weight(a));
  if (accepted.size >= 256) accepted.clear();
  if (header.length <= 256) accepted.set(header, list);
  return list;
}

function send(res: ServerResponse, entry: Entry, status: number, req: IncomingMessage): void {
  let rep = entry.identity;
  for (const encoding of acceptedEncodings(req.headers['accept-encoding'])) {
    const variant = entry.variants[encoding];
    if (variant) {
      rep = variant;
      break;
    }
  }
  if (status === 200 && matchesEtag(req.headers['if-none-match'], rep.etag)) {
    res.writeHead(304, rep.notModified);
    res.end();
    return;
  }
  res.writeHead(status, rep.headers);
  res.end(req.method === 'HEAD' ? undefined : rep.body);
}

/** Sends a site file (an error document for 404 and 405), or a plain problem when the site lacks it. */
async function sendFile(res: ServerResponse, files: SiteFiles, file: string, status: number, req: IncomingMessage): Promise<void> {
  const entry = files.current(file) ?? (await files.load(file));
  if (!entry) {
    // The site lacks its own error documents (not a complete build): answer plainly.
    const title = status === 404 ? 'Not Found' : status === 405 ? 'Method Not Allowed' : 'Error';
    return sendProblem(res, status, title, 'No document here, and the site has no error document (rebuild it with hoba build).', req.method === 'HEAD');
  }
  send(res, entry, status, req);
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** A problem document made on the spot, for errors that have no file of their own (400, 500). */
function sendProblem(res: ServerResponse, status: number, title: string, detail: string, head: boolean, root?: string): void {
  const body: Record<string, unknown> = { type: 'about:blank', title, status, detail };
  const version = root ? registryVersionOf(root) : undefined;
  if (version) body['registry_version'] = version;
  const bytes = Buffer.from(JSON.stringify(body, null, 2) + '\n');
  res.writeHead(status, {
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': 'no-store',
    'Content-Length': String(bytes.length),
  });
  res.end(head ? undefined : bytes);
}

function registryVersionOf(root: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(root, ...NOT_FOUND_FILE.split('/')), 'utf8')) as { registry_version?: string }).registry_version;
  } catch {
    return undefined;
  }
}
