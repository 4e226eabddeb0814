// A small HTTP server over a built site root, answering exactly as the host files tell a CDN or nginx to
// (routes and headers come from src/publish/routes.ts). It only ever reads regular files inside the
// root, never through a symbolic link below it (a built site has none; nginx is told the same with
// disable_symlinks, the worker checks the listings of a `disk` service), answers GET and HEAD (and CORS preflights where any origin may read; 405 otherwise), and turns
// bad paths into 400/404 instead of crashing.
// Other handlers (the hosted MCP endpoint at /mcp) join through `mounts`. What is answered is decided in
// src/publish/answers.ts, which the edge worker (src/worker/) shares; this file keeps the file system and node:http.
//
// Work is done once per file, not per request: a file is read, hashed for its ETag and given its headers
// when first needed (all of them in the background at start-up), with its precompressed .br/.gz variants
// (src/publish/compress.ts) for clients that accept them. A request then costs a stat(), which notices a
// file changed or replaced on disk (it is then read again), and the write.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { ENCODINGS, type Encoding } from '../http/encodings.ts';
import { HOST_FILES, METHOD_NOT_ALLOWED_FILE, NOT_FOUND_FILE, type Resolution } from '../publish/routes.ts';
import {
  MAX_PATH_LENGTH,
  SERVER_ERROR,
  VARIANT_SUFFIX,
  checkTarget,
  fileAnswer,
  missingErrorFile,
  planPath,
  problemAnswer,
  redirectHeaders,
  registryVersionIn,
  representationsOf,
  type Problem,
  type Representations,
  type SiteAnswer,
} from '../publish/answers.ts';

export { acceptedEncodings } from '../publish/answers.ts';

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

const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

export function createSiteServer(options: SiteServerOptions): Server {
  const mounts = new Map((options.mounts ?? []).map((m) => [m.path, m]));
  const site = new SiteRoot(resolve(options.root), options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const server = createServer((req, res) => {
    const failed = (err: unknown) => {
      // A bug must not take the server down: answer 500 if nothing was sent yet.
      if (!res.headersSent) sendProblem(res, SERVER_ERROR, req.method === 'HEAD');
      else res.destroy();
      if (process.env['HOBA_DEBUG']) console.error(err);
    };
    try {
      // The root is resolved for each request: a rebuild swaps the site in by pointing the root's link at
      // a new directory (src/publish/site-dir.ts), and each request is answered from one site, whole.
      const { root, files } = site.now();
      handle(root, files, mounts, req, res)?.catch(failed);
    } catch (err) {
      failed(err);
    }
  });
  // By default Node's HTTP server drops a request whose client half-closes (sends FIN after the request,
  // as `nc -N` and some health checkers do) before the answer is written: every answer that waits for the
  // file system was lost. Half-open, the answer is written and then the connection is closed.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // What Node's parser refuses before any handler runs (a method it does not know, a malformed request
  // line or header, headers too large) is answered here as Node would, by status (405 for an unknown
  // method, as nginx and every other path answer a method the site does not allow), but with the security
  // headers and a problem document, then the connection is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const s = socket as Duplex & { bytesWritten?: number };
    if (s.writable && (s.bytesWritten ?? 0) === 0 && err.code !== 'ECONNRESET') {
      let status =
        err.code === 'HPE_INVALID_METHOD'
          ? 405
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? 431
            : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
              ? 408
              : 400;
      // A malformed path is a 400 whatever the method, as for the methods Node knows (src/publish/answers.ts).
      if (status === 405 && malformedTarget((err as { rawPacket?: Buffer }).rawPacket)) status = 400;
      const known = status === 405 ? site.now().files.current(METHOD_NOT_ALLOWED_FILE) : undefined;
      const answer = known
        ? { status, headers: known.identity.headers, body: known.identity.body }
        : problemAnswer(parserProblem(status), false);
      const head = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        ...Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}`),
        'Connection: close',
      ];
      s.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), answer.body ?? Buffer.alloc(0)]));
      // Closed once written; a client that goes on sending is cut off a moment later.
      setTimeout(() => s.destroy(), 1000).unref();
    } else socket.destroy();
  });
  server.once('listening', () => site.now().files.warm());
  return server;
}

/** Whether the request line in what Node's parser refused has a target that is malformed (checkTarget, decodePath). */
function malformedTarget(raw: Buffer | undefined): boolean {
  const target = raw ? /^\S+ (\S+)/.exec(raw.subarray(0, MAX_PATH_LENGTH + 64).toString('latin1'))?.[1] : undefined;
  if (target === undefined) return false;
  const checked = checkTarget(target);
  return 'problem' in checked || planPath(checked.rawPath, 'GET').kind === 'problem';
}

/** The problem of a request Node's parser refused. */
function parserProblem(status: number): Problem {
  const detail =
    status === 431
      ? 'The request headers are too large.'
      : status === 408
        ? 'The request took too long to arrive.'
        : status === 405
          ? 'This site is read-only: it answers GET and HEAD only.'
          : 'The request is malformed: its request line, a header or its framing could not be read.';
  return { status, title: STATUS_CODES[status] ?? 'Error', detail, withVersion: false };
}

/** The site root as it is now: the directory the root (a link, after a build) resolves to, with its files. */
class SiteRoot {
  private current: { root: string; files: SiteFiles };

  constructor(
    private readonly path: string,
    private readonly budget: number,
  ) {
    const root = realpathSync(path);
    this.current = { root, files: new SiteFiles(root, budget) };
  }

  now(): { root: string; files: SiteFiles } {
    let root: string;
    try {
      root = realpathSync.native(this.path);
    } catch {
      return this.current; // gone for a moment (replaced by hand): answer from the last one
    }
    if (root !== this.current.root) {
      // Requests under way keep the files of the site they began on (a build keeps the previous version).
      this.current = { root, files: new SiteFiles(root, this.budget) };
      this.current.files.warm();
    }
    return this.current;
  }
}

function handle(
  root: string,
  files: SiteFiles,
  mounts: Map<string, Mount>,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  const head = req.method === 'HEAD';
  const target = checkTarget(req.url ?? '');
  if ('problem' in target) return sendProblem(res, target.problem, head, root);
  const { rawPath } = target;

  const mount = mounts.get(rawPath);
  if (mount) return mount.handle(req, res);
  // A request with a body (which the site never reads) is answered a turn later, once the parser has been
  // through what already came: malformed framing (a bad chunk) is then a 400, not a 200 and a broken stream.
  if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') {
    return new Promise((done, fail) => setImmediate(() => Promise.resolve(answer(root, files, rawPath, head, req, res)).then(done, fail)));
  }
  return answer(root, files, rawPath, head, req, res);
}

function answer(
  root: string,
  files: SiteFiles,
  rawPath: string,
  head: boolean,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  const plan = planPath(rawPath, req.method);
  switch (plan.kind) {
    case 'problem':
      return sendProblem(res, plan.problem, head, root);
    case 'preflight':
      res.writeHead(204, plan.headers);
      res.end();
      return;
    case 'error-file':
      return sendFile(res, files, plan.file, plan.status, req);
  }
  const { resolution } = plan;
  if (resolution.kind !== 'hidden') {
    // The usual case, answered without waiting: a file seen before and unchanged on disk.
    const known = files.current(resolution.file);
    if (known) return send(res, known, 200, req);
  }
  return resolveSlowly(res, root, files, resolution, plan.redirect, plan.notFound, req);
}

async function resolveSlowly(
  res: ServerResponse,
  root: string,
  files: SiteFiles,
  resolution: Resolution,
  redirect: string,
  notFound: string,
  req: IncomingMessage,
): Promise<void> {
  if (resolution.kind !== 'hidden') {
    const found = await files.load(resolution.file);
    if (found) return send(res, found, 200, req);
    if (resolution.kind === 'directory' && (await statInside(root, resolution.file)) === 'directory') {
      res.writeHead(301, redirectHeaders(redirect));
      res.end();
      return;
    }
  }
  return sendFile(res, files, notFound, 404, req);
}

/** Whether a site-relative file is a regular file or a directory inside the root, reached through no link. */
async function statInside(root: string, file: string): Promise<'file' | 'directory' | undefined> {
  const abs = resolve(root, ...file.split('/').filter(Boolean));
  if (!isInside(root, abs)) return undefined;
  try {
    const real = await realpath(abs);
    if (real !== abs) return undefined;
    const s = await stat(real);
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

const isInside = (root: string, abs: string) => abs === root || abs.startsWith(root + sep);

// ---------------------------------------------------------------------------------------------------
// Files, read once

/** A file as read, with what identifies that version on disk. */
interface Entry extends Representations {
  abs: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  cost: number;
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
    if (
      now &&
      now.ino === entry.ino &&
      now.dev === entry.dev &&
      now.size === entry.size &&
      now.mtimeMs === entry.mtimeMs &&
      now.ctimeMs === entry.ctimeMs
    )
      return entry;
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
    const variantBytes: Partial<Record<Encoding, Buffer>> = {};
    for (const { encoding, suffix } of ENCODINGS) {
      const variant = await this.readInside(`${file}${suffix}`);
      if (variant) variantBytes[encoding] = variant.bytes;
    }
    const { variants, ...rest } = representationsOf(file, identity.bytes, variantBytes);
    const s = identity.stat;
    const entry: Entry = {
      abs: resolve(this.root, ...file.split('/')),
      ...rest,
      variants,
      dev: s.dev,
      ino: s.ino,
      size: s.size,
      mtimeMs: s.mtimeMs,
      ctimeMs: s.ctimeMs,
      cost: identity.bytes.length + Object.values(variants).reduce((n, v) => n + v.body.length, 0),
    };
    if (this.kept + entry.cost <= this.budget) {
      const old = this.entries.get(file);
      if (old) this.forget(file, old);
      this.entries.set(file, entry);
      this.kept += entry.cost;
    }
    return entry;
  }

  /** A regular file inside the root, reached through no symbolic link (the root is resolved already: a
   * path that resolves to anything but itself has a link in it), read with the stat of what was read. */
  private async readInside(file: string): Promise<{ bytes: Buffer; stat: Stats } | undefined> {
    const abs = resolve(this.root, ...file.split('/').filter(Boolean));
    if (!isInside(this.root, abs)) return undefined;
    try {
      const real = await realpath(abs);
      if (real !== abs) return undefined;
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

// ---------------------------------------------------------------------------------------------------
// Sending

function write(res: ServerResponse, answer: SiteAnswer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

function send(res: ServerResponse, entry: Entry, status: number, req: IncomingMessage): void {
  const { 'if-none-match': ifNoneMatch, 'if-match': ifMatch } = req.headers;
  write(res, fileAnswer(entry, status, { method: req.method, acceptEncoding: req.headers['accept-encoding'], ifNoneMatch, ifMatch }));
}

/** Sends a site file (an error document for 404 and 405), or a plain problem when the site lacks it. */
async function sendFile(res: ServerResponse, files: SiteFiles, file: string, status: number, req: IncomingMessage): Promise<void> {
  const entry = files.current(file) ?? (await files.load(file));
  // The site lacks its own error documents (not a complete build): answer plainly.
  if (!entry) return sendProblem(res, missingErrorFile(status), req.method === 'HEAD');
  send(res, entry, status, req);
}

/** A problem document made on the spot, for errors that have no file of their own (400, 500). */
function sendProblem(res: ServerResponse, problem: Problem, head: boolean, root?: string): void {
  write(res, problemAnswer(problem, head, problem.withVersion && root ? registryVersionOf(root) : undefined));
}

function registryVersionOf(root: string): string | undefined {
  try {
    return registryVersionIn(readFileSync(join(root, ...NOT_FOUND_FILE.split('/'))));
  } catch {
    return undefined;
  }
}
