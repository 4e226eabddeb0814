// What the site answers to a request, decided apart from any server: the checks on the request target,
// what a path and method lead to (from the route table), and how a file is sent (its representations:
// ETag, precompressed variants, 304s). `hoba serve` (src/serve/server.ts, over the file system) and the edge worker
// (src/worker/, over a Workers assets binding) both answer through it, so that they answer alike; each
// keeps only its own I/O.
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ENCODINGS, type Encoding } from '../http/encodings.ts';
import {
  ALLOWED_METHODS,
  METHOD_NOT_ALLOWED_FILE,
  NOT_FOUND_FILE,
  NOT_FOUND_PAGE,
  SECURITY_HEADERS,
  VARIANT_SUFFIX,
  preflightFor,
  resolveUrl,
  headersForFile,
  type Resolution,
} from '../publish/routes.ts';

export { VARIANT_SUFFIX };

/** Longest request path answered; longer ones are refused with 400 before any file system access. */
export const MAX_PATH_LENGTH = 2048;

/** An error with no file of its own (400, 500): answered with a problem document made on the spot. */
export interface Problem {
  status: number;
  title: string;
  detail: string;
  /** Whether the document names the site's registry version (read from its not-found document). */
  withVersion: boolean;
}

const MALFORMED: Problem = {
  status: 400,
  title: 'Bad Request',
  detail: 'The path is malformed: bad percent-encoding, a NUL or backslash, or a . or .. segment.',
  withVersion: true,
};
export const SERVER_ERROR: Problem = {
  status: 500,
  title: 'Internal Server Error',
  detail: 'The server failed to answer this request.',
  withVersion: false,
};

/** The raw path of a request target (what precedes ? or #), or the problem with it. */
export function checkTarget(target: string): { rawPath: string } | { problem: Problem } {
  const end = target.search(/[?#]/);
  const rawPath = end === -1 ? target : target.slice(0, end);
  if (!rawPath.startsWith('/'))
    return {
      problem: { status: 400, title: 'Bad Request', detail: 'The request target must be a path starting with /.', withVersion: false },
    };
  if (rawPath.length > MAX_PATH_LENGTH)
    return {
      problem: { status: 400, title: 'Bad Request', detail: `The path is longer than ${MAX_PATH_LENGTH} characters.`, withVersion: true },
    };
  return { rawPath };
}

/** What a request for a path leads to. */
export type Plan =
  | { kind: 'problem'; problem: Problem }
  /** A CORS preflight: 204 with these headers. */
  | { kind: 'preflight'; headers: Readonly<Record<string, string>> }
  /** Any method but GET and HEAD: the 405 document. */
  | { kind: 'error-file'; file: string; status: number }
  /** The route table's answer: send resolution.file when it exists; else redirect a directory (when
   * resolution.kind is 'directory' and it is one) to `redirect`; else the 404 document `notFound`. */
  | { kind: 'resolved'; resolution: Resolution; redirect: string; notFound: string };

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

/** What a method on a raw path (checked by checkTarget, not a mount's) leads to. */
export function planPath(rawPath: string, method: string | undefined): Plan {
  const routed = route(rawPath);
  if (routed === undefined) return { kind: 'problem', problem: MALFORMED };
  const { path, resolution } = routed;
  const preflight = method === 'OPTIONS' ? preflightFor(path) : undefined;
  if (preflight) return { kind: 'preflight', headers: { ...preflight, ...SECURITY_HEADERS } };
  if (!(ALLOWED_METHODS as readonly string[]).includes(method ?? ''))
    return { kind: 'error-file', file: METHOD_NOT_ALLOWED_FILE, status: 405 };
  // Built from the canonical path, never the raw one: a raw //host would be a link to another site.
  return { kind: 'resolved', resolution, redirect: `${encodePath(path)}/`, notFound: resolution.api ? NOT_FOUND_FILE : NOT_FOUND_PAGE };
}

/** The decoded, canonical path (runs of slashes merged into one, as nginx does by default), or undefined
 * when it is malformed or tries to leave the root. */
function decodePath(rawPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // Well-formed escapes of bytes that are not UTF-8 (%C0%AE, %FF) name no file of the site, which is all
    // UTF-8: decoded with replacement characters, they are simply not found (as nginx answers them).
    // Malformed escapes (%zz, a lone %) are a bad request.
    if (/%(?![0-9a-fA-F]{2})/.test(rawPath)) return undefined;
    path = decodeBytes(rawPath);
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return path.replace(/\/{2,}/g, '/');
}

/** A path with well-formed escapes decoded byte by byte, bytes that are not UTF-8 replaced by U+FFFD. */
function decodeBytes(rawPath: string): string {
  const parts: Buffer[] = [];
  for (let i = 0; i < rawPath.length; ) {
    if (rawPath[i] === '%') {
      parts.push(Buffer.from([parseInt(rawPath.slice(i + 1, i + 3), 16)]));
      i += 3;
    } else {
      const next = rawPath.indexOf('%', i);
      const end = next === -1 ? rawPath.length : next;
      parts.push(Buffer.from(rawPath.slice(i, end), 'utf8'));
      i = end;
    }
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

/** A decoded path percent-encoded again for a Location header. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The headers of a redirect to a directory's path with its trailing slash. */
export const redirectHeaders = (location: string): Record<string, string> => ({
  Location: location,
  'Content-Length': '0',
  ...SECURITY_HEADERS,
});

// ---------------------------------------------------------------------------------------------------
// Representations of a file

/** One way of sending a file: its bytes as they are, or a precompressed variant, with every header ready. */
interface Representation {
  body: Buffer;
  etag: string;
  /** Headers of a response with the body (any status). */
  headers: Record<string, string>;
  /** Headers of a 304 (no length, no encoding). */
  notModified: Record<string, string>;
}

/** A file with the precompressed variants that match it. */
export interface Representations {
  identity: Representation;
  variants: Partial<Record<Encoding, Representation>>;
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
const DECOMPRESS: Record<Encoding, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

function representation(file: string, body: Buffer, vary: boolean, encoding?: Encoding): Representation {
  const etag = etagOf(body);
  const common: Record<string, string> = { ...headersForFile(file), ...(vary ? { Vary: 'Accept-Encoding' } : {}), ETag: etag };
  const headers = { ...common, ...(encoding ? { 'Content-Encoding': encoding } : {}), 'Content-Length': String(body.length) };
  return { body, etag, headers, notModified: common };
}

/**
 * A site-relative file's representations, from its bytes and the bytes of its variant files (undefined
 * where there is none). A variant is sent only when it is exactly this file compressed: one left stale by
 * an edit is ignored.
 */
export function representationsOf(file: string, identity: Buffer, variantBytes: Partial<Record<Encoding, Buffer>>): Representations {
  const present: Array<[Encoding, Buffer]> = [];
  for (const { encoding } of ENCODINGS) {
    const variant = variantBytes[encoding];
    if (variant && decompressesTo(encoding, variant, identity)) present.push([encoding, variant]);
  }
  const vary = present.length > 0;
  const variants: Partial<Record<Encoding, Representation>> = {};
  for (const [encoding, bytes] of present) variants[encoding] = representation(file, bytes, true, encoding);
  return { identity: representation(file, identity, vary), variants };
}

function decompressesTo(encoding: Encoding, variant: Buffer, identity: Buffer): boolean {
  try {
    return DECOMPRESS[encoding](variant).equals(identity);
  } catch {
    return false;
  }
}

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

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** An answer to write: status, headers, and the body (none for a 304 or a HEAD). */
export interface SiteAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

const PRECONDITION_FAILED: Problem = {
  status: 412,
  title: 'Precondition Failed',
  detail: 'If-Match names no current version of this document: it has changed since that ETag was read.',
  withVersion: false,
};

/** Whether an If-Match header names this ETag: by strong comparison (a weak tag never matches), or "*". */
function ifMatchHolds(header: string, etag: string): boolean {
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag;
  });
}

/** How a file is sent with a status: the best representation the client accepts, a 412 when an If-Match
 * names none of its versions, or a 304 when its If-None-Match names it (on 200 only; RFC 9110 §13.2.2). */
export function fileAnswer(
  file: Representations,
  status: number,
  request: {
    method: string | undefined;
    acceptEncoding: string | undefined;
    ifNoneMatch: string | undefined;
    ifMatch?: string | undefined;
  },
): SiteAnswer {
  let rep = file.identity;
  for (const encoding of acceptedEncodings(request.acceptEncoding)) {
    const variant = file.variants[encoding];
    if (variant) {
      rep = variant;
      break;
    }
  }
  if (status === 200 && request.ifMatch !== undefined && !ifMatchHolds(request.ifMatch, rep.etag))
    return problemAnswer(PRECONDITION_FAILED, request.method === 'HEAD');
  if (status === 200 && matchesEtag(request.ifNoneMatch, rep.etag)) return { status: 304, headers: rep.notModified, body: undefined };
  return { status, headers: rep.headers, body: request.method === 'HEAD' ? undefined : rep.body };
}

/** A problem document made on the spot (RFC 9457), with the site's registry version when known. */
export function problemAnswer(problem: Problem, head: boolean, registryVersion?: string): SiteAnswer {
  const body: Record<string, unknown> = { type: 'about:blank', title: problem.title, status: problem.status, detail: problem.detail };
  if (problem.withVersion && registryVersion) body['registry_version'] = registryVersion;
  const bytes = Buffer.from(JSON.stringify(body, null, 2) + '\n');
  return {
    status: problem.status,
    headers: {
      'Content-Type': 'application/problem+json; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-store',
      'Content-Length': String(bytes.length),
      ...SECURITY_HEADERS,
    },
    body: head ? undefined : bytes,
  };
}

/** When the site lacks its own error document (not a complete build): a plain problem instead. */
export function missingErrorFile(status: number): Problem {
  const title = status === 404 ? 'Not Found' : status === 405 ? 'Method Not Allowed' : 'Error';
  return {
    status,
    title,
    detail: 'No document here, and the site has no error document (rebuild it with hoba build).',
    withVersion: false,
  };
}

/** The registry version an error document names (the site's not-found document), if it is one. */
export function registryVersionIn(notFoundDocument: Buffer | string): string | undefined {
  try {
    return (JSON.parse(notFoundDocument.toString()) as { registry_version?: string }).registry_version;
  } catch {
    return undefined;
  }
}
