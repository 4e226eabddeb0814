// The writer thread of `hoba build` (SiteWriter in build.ts): the main thread makes the site's files and
// hands each one over; this thread writes it with the published mode, makes and writes its compressed
// variants (compress.ts), hashes everything it wrote for the site digest, and reports it. Compressing and
// creating files were a quarter of the build's CPU time at 10,000 entities; here they run beside the
// main thread instead of after each page.
//
// Protocol: messages { path, rel, bytes, compress } and then null (finish). Reports on `results`:
// { files: WrittenFile[] } per file, or { error } once (everything after a failure is skipped). Shared
// `state`: [bytes handed over and not yet written, 1 once finished].
import { createHash } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { variantsOf } from './compress.ts';

export interface WriterData {
  role: typeof ROLE;
  state: Int32Array;
  results: MessagePort;
  fileMode: number;
}

export interface WriteJob {
  /** Absolute path in the staging directory (its directory exists already). */
  path: string;
  /** Site-relative path, as reported. */
  rel: string;
  bytes: Uint8Array;
  compress: boolean;
}

/** A file as the writer wrote it: a site file or one of its variants. */
export interface WrittenFile {
  path: string;
  size: number;
  /** Hex: it crosses from the thread as a string. */
  sha256: string;
}

export const IN_FLIGHT = 0;
export const FINISHED = 1;
/** Marks the thread's data, so that this module does its work only in the thread SiteWriter starts. */
export const ROLE = 'hoba-site-writer';

if (!isMainThread && parentPort && (workerData as Partial<WriterData> | undefined)?.role === ROLE) {
  const { state, results, fileMode } = workerData as WriterData;
  let failed = false;
  parentPort.on('message', (job: WriteJob | null) => {
    if (job === null) {
      Atomics.store(state, FINISHED, 1);
      Atomics.notify(state, FINISHED);
      return;
    }
    if (!failed) {
      try {
        const files = [{ path: job.path, rel: job.rel, bytes: job.bytes }];
        if (job.compress)
          for (const v of variantsOf(job.bytes)) files.push({ path: job.path + v.suffix, rel: job.rel + v.suffix, bytes: v.bytes });
        const written: WrittenFile[] = [];
        for (const f of files) {
          writeFileSync(f.path, f.bytes);
          // chmod, not the mode option: that one is filtered through the umask.
          chmodSync(f.path, fileMode);
          written.push({ path: f.rel, size: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex') });
        }
        results.postMessage({ files: written });
      } catch (err) {
        failed = true;
        results.postMessage({ error: (err as Error).message });
      }
    }
    Atomics.sub(state, IN_FLIGHT, job.bytes.length);
    Atomics.notify(state, IN_FLIGHT);
  });
}
