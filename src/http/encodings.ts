// The content codings of the site's precompressed variants (<file>.br, <file>.gz): made by the build
// (src/publish/compress.ts), chosen by the servers from Accept-Encoding (src/publish/answers.ts).

/** The encodings made, in the order a server prefers them when the client accepts both (smaller first). */
export const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
export type Encoding = (typeof ENCODINGS)[number]['encoding'];
