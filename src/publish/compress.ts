// Precompressed variants of the site's files, made at build time: `<file>.gz` and `<file>.br` beside each
// text file worth compressing, for a host to send when the client accepts them (nginx `gzip_static on;`
// and `brotli_static on;`, `hoba serve` itself), so that no server compresses per request.
//
// They are part of the site like any other file, so they must be byte-deterministic (mirror parity
// compares a site directory with a fresh build, byte for byte): fixed levels and parameters, and a gzip
// header with no name, no timestamp and the same OS byte everywhere.
import * as zlib from 'node:zlib';
import { ENCODINGS, type Encoding } from '../http/encodings.ts';
import type { SiteFile } from './site-file.ts';

/** Text files only: images (the favicon) are compressed already or too small to matter. */
const COMPRESSIBLE = /\.(json|html|svg|txt|js|css|xml|ndjson|csv|graphml)$/;
/**
 * Smaller files are left alone: compressed or not, they fit the first packets of a response, and each
 * variant is a file more to write and keep. (A variant is also dropped when it would not be smaller.)
 */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Levels, measured on the JSON and HTML of this atlas and of a 10,000-entity synthetic one (CPU time here,
 * 2026-11-24): gzip 6 is 0.8% larger than gzip 9 for two thirds of the time; brotli 5 is 7% smaller than
 * gzip 6 for about the same time, while brotli 11 is 20% smaller but costs 40 times as long (4.3 s for
 * this atlas's 2.4 MB, on every build and every mirror check) and brotli 9 and 10 are slow on small
 * files. Sites are rebuilt often (and compared with a fresh build by validate), so the cheap levels win:
 * gzip 6 and brotli 5.
 */
const GZIP_LEVEL = 6;
const BROTLI_QUALITY = 5;

/** The header byte that names the OS (RFC 1952): zlib writes the build platform's; 255 is "unknown" everywhere. */
const GZIP_OS_BYTE = 9;

export function gzip(bytes: Uint8Array): Buffer {
  const out = zlib.gzipSync(bytes, { level: GZIP_LEVEL, memLevel: 8, windowBits: 15, strategy: zlib.constants.Z_DEFAULT_STRATEGY });
  // zlib writes no name and a zero MTIME already; the OS byte is the one platform-dependent byte left.
  out[GZIP_OS_BYTE] = 255;
  return out;
}

export function brotli(bytes: Uint8Array): Buffer {
  return zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 22,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

const COMPRESSORS: Record<Encoding, (bytes: Uint8Array) => Buffer> = { br: brotli, gzip };

/** The variants of one file's bytes, by suffix; a variant is kept only when it is smaller than the file. */
export function variantsOf(bytes: Uint8Array): Array<{ suffix: string; bytes: Buffer }> {
  const out: Array<{ suffix: string; bytes: Buffer }> = [];
  for (const { encoding, suffix } of ENCODINGS) {
    const variant = COMPRESSORS[encoding](bytes);
    if (variant.length < bytes.length) out.push({ suffix, bytes: variant });
  }
  return out;
}

/** Whether a served file gets precompressed variants. */
export function isCompressible(file: Pick<SiteFile, 'path' | 'url' | 'bytes'>): boolean {
  return file.url !== undefined && file.bytes.length >= MIN_COMPRESS_BYTES && COMPRESSIBLE.test(file.path);
}

/**
 * The variants of every served text file worth compressing: `<path>.br` and `<path>.gz`. They have no URL
 * of their own: they are served at their file's URL, with Content-Encoding, to clients that accept them.
 */
export function compressedVariants(files: readonly SiteFile[]): SiteFile[] {
  return files.filter(isCompressible).flatMap((f) => variantsOf(f.bytes).map((v) => ({ path: `${f.path}${v.suffix}`, bytes: v.bytes })));
}
