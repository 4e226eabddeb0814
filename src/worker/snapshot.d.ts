// The atlas snapshot bundled into the worker by scripts/build-worker.mjs (not a file: made at build time).
declare module 'hoba:snapshot' {
  /** The snapshot's first line: {built_by, content_hash, data}, as JSON text. */
  export const head: string;
  /** Its second line: the precomputed indexes by name, as JSON text. */
  export const indexes: string;
}
