// A small HTTP server over a built site root, answering exactly as the host files tell a CDN or nginx to
// (routes and headers come from src/publish/routes.ts). It only ever reads regular files inside the
// root, answers GET and HEAD (and CORS preflights where any origin may read; 405 otherwise), and turns
// bad paths into 400/404 instead of crashing.
// Other handlers (the hosted MCP endpoint at /mcp) join through `mounts`.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync, realpathSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import {
  ALLOWED_METHODS,
  METHOD_NOT_ALLOWED_FILE,
  NOT_FOUND_FILE,
  NOT_FOUND_PAGE,
  headersForFile,
  preflightFor,
  resolveUrl,
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
}

/** Longest request path answered; longer ones are refused with 400 before any file system access. */
export const MAX_PATH_LENGTH = 2048;

export function createSiteServer(options: SiteServerOptions): Server {
  const root = realpathSync(resolve(options.root));
  const mounts = new Map((options.mounts ?? []).map((m) => [m.path, m]));
  const server = createServer((req, res) => {
    handle(root, mounts, req, res).catch((err: unknown) => {
      // A bug must not take the server down: answer 500 if nothing was sent yet.
      if (!res.headersSent) sendProblem(res, 500, 'Internal Server Error', 'The server failed to answer this request.', req.method === 'HEAD');
      else res.destroy();
      if (process.env['HOBA_DEBUG']) console.error(err);
    });
  });
  // By default Node's HTTP server drops a request whose client half-closes (sends FIN after the request,
  // as `nc -N` and some health checkers do) before the answer is written: every answer that waits for the
  // file system was lost. Half-open, the answer is written and then the connection is closed.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}

async function handle(root: string, mounts: Map<string, Mount>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const head = req.method === 'HEAD';
  const target = req.url ?? '';
  const rawPath = target.split(/[?#]/, 1)[0]!;
  if (!rawPath.startsWith('/')) return sendProblem(res, 400, 'Bad Request', 'The request target must be a path starting with /.', head);
  if (rawPath.length > MAX_PATH_LENGTH) return sendProblem(res, 400, 'Bad Request', `The path is longer than ${MAX_PATH_LENGTH} characters.`, head, root);

  const mount = mounts.get(rawPath);
  if (mount) return mount.handle(req, res);

  const path = decodePath(rawPath);
  if (path === undefined) return sendProblem(res, 400, 'Bad Request', 'The path is malformed: bad percent-encoding, a NUL or backslash, or a . or .. segment.', head, root);

  const preflight = req.method === 'OPTIONS' ? preflightFor(path) : undefined;
  if (preflight) {
    res.writeHead(204, preflight);
    res.end();
    return;
  }
  if (!(ALLOWED_METHODS as readonly string[]).includes(req.method ?? '')) {
    return sendFile(res, root, METHOD_NOT_ALLOWED_FILE, 405, req);
  }

  const resolution = resolveUrl(path);
  if (resolution.kind !== 'hidden') {
    const found = await statInside(root, resolution.file);
    if (found === 'file') return sendFile(res, root, resolution.file, 200, req);
    if (found === 'directory' && resolution.kind === 'directory') {
      // Built from the canonical path, never the raw one: a raw //host would be a link to another site.
      res.writeHead(301, { Location: `${encodePath(path)}/`, 'Content-Length': '0' });
      res.end();
      return;
    }
  }
  return sendFile(res, root, resolution.api ? NOT_FOUND_FILE : NOT_FOUND_PAGE, 404, req);
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
  if (abs !== root && !abs.startsWith(root + sep)) return undefined;
  try {
    const real = await realpath(abs);
    if (real !== root && !real.startsWith(root + sep)) return undefined;
    const s = await stat(real);
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

async function sendFile(res: ServerResponse, root: string, file: string, status: number, req: IncomingMessage): Promise<void> {
  const head = req.method === 'HEAD';
  if ((await statInside(root, file)) !== 'file') {
    // The site lacks its own error documents (not a complete build): answer plainly.
    const title = status === 404 ? 'Not Found' : status === 405 ? 'Method Not Allowed' : 'Error';
    return sendProblem(res, status, title, 'No document here, and the site has no error document (rebuild it with hoba build).', head);
  }
  const bytes = await readFile(join(root, ...file.split('/')));
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = { ...headersForFile(file), ETag: etag };
  if (status === 200 && matchesEtag(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = String(bytes.length);
  res.writeHead(status, headers);
  res.end(head ? undefined : bytes);
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
