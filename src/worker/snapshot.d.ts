// The atlas snapshot bundled into the worker by scripts/build-worker.mjs (not a file: made at build time).
declare module 'hoba:snapshot' {
  /** The snapshot's first line: {built_by, content_hash, data}, as JSON text. */
  export const head: string;
  /** The precomputed indexes: a JSON object of their JSON texts, by name. */
  export const indexes: string;
}
