// Bundles the entry points into ESM under dist/ (fast start-up: no tsx, no per-file module resolution).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { sourceHash, STAMP_FILE } from './source-hash.mjs';
import { zodEnglishOnly } from './zod-english-only.mjs';

// The source hash of what this build reads, taken before it reads anything and stamped into dist/ when
// it has finished (the stamp goes first, so a failed build leaves none): the tests that run dist/ refuse
// one built from other sources (test/dist.ts).
const source = sourceHash('.');
rmSync(STAMP_FILE, { force: true });

// commander requires node:child_process at load time, which pulls in net, dgram and more; it uses it only
// to run executable subcommands, which hoba has none of. Load it on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'hoba' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'hoba' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
      resolveDir: '.',
    }));
  },
};

// What every Node bundle shares: ESM for Node 20, whitespace and syntax minified (smaller source parses
// and compiles faster at start-up; identifiers stay readable for bug reports).
const nodeOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  sourcemap: false,
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  banner: {
    js: "import { createRequire as __hobaCreateRequire } from 'node:module';\nconst require = __hobaCreateRequire(import.meta.url);",
  },
};

/** Imports of `file` by `importer` (paths from the project's root) left to the file `to` beside the bundle. */
const toBundle = (importer, file, to) => ({
  name: `${file}-to-${to}`,
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) =>
      args.importer.endsWith(importer) && join(args.resolveDir, args.path).endsWith(file) ? { path: `./${to}`, external: true } : undefined,
    );
  },
});

// The MCP server and hoba's commander program (every command, help, usage errors). Commands load their
// modules on demand (src/cli/program.ts); shared code goes into chunks beside the entries. site-writer is
// the thread `hoba build` writes files from (src/publish/build.ts loads it from beside its chunk).
const result = await build({
  ...nodeOptions,
  metafile: true,
  // zod without its other languages: the MCP server (and the program) compile 300 KB less at start-up.
  plugins: [lazyChildProcess, zodEnglishOnly],
  entryPoints: { program: 'src/cli/program.ts', mcp: 'src/mcp/main.ts', 'site-writer': 'src/publish/site-writer.ts' },
  splitting: true,
  outdir: 'dist',
});

// dist/cli-main.cjs, what the `hoba` entry loads (src/cli/main.ts): one CommonJS file holding the reading commands
// (show, explain and search in their usual forms, src/cli/reading.ts) and what they load, inlined and run
// only when asked for. CommonJS because Node loads it without starting its ESM loader, and one file
// because every module costs a resolution, a read and a compilation: for these commands, whose work is
// a few milliseconds, that was most of their start-up (bench/cli-start.mjs). Everything else it hands to
// the program above (an ESM import). The content loader (YAML parser and schemas, needed only when no
// snapshot fits the checkout) stays the program's chunk: the registry it returns is plain data and
// methods to the code here. `import.meta.url` (the bundled snapshot's place) becomes this file's URL.
const chunkOf = (entry) =>
  Object.entries(result.metafile.outputs)
    .find(([, o]) => o.entryPoint === entry)[0]
    .replace(/^dist\//, '');
const loadChunk = chunkOf('src/registry/load.ts');
// Likewise the indexes of a checkout's snapshot (the reader's training corpus needs the YAML parser and the schemas).
const indexesChunk = chunkOf('src/analysis/checkout-indexes.ts');
const entries = await build({
  ...nodeOptions,
  format: 'cjs',
  banner: { js: "'use strict';\nconst __hobaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__hobaUrl' },
  outExtension: { '.js': '.cjs' },
  metafile: true,
  plugins: [
    toBundle('src/cli/main.ts', 'src/cli/program.ts', 'program.js'),
    toBundle('src/registry/snapshot.ts', 'src/registry/load.ts', loadChunk),
    toBundle('src/cli/atlas.ts', 'src/analysis/checkout-indexes.ts', indexesChunk),
  ],
  entryPoints: { 'cli-main': 'src/cli/main.ts' },
  outdir: 'dist',
});

// dist/cli-main.cjs is compiled by dist/cli.cjs (src/cli/bin.ts) as a function, not loaded by require(): it
// is written as one function expression, with no #! line, in ASCII (esbuild leaves some regular
// expressions' letters as they are; \uXXXX means the same there and in strings), so that the entry reads it
// as a one-byte string and compiles it as it is. Its dynamic imports (the program, the content loader, the
// checkout's indexes, a built-in) go through a function the entry passes in, `__hobaImport`, because code
// compiled by node:vm cannot call import() without an experimental flag. Each one esbuild left in the
// bundle is replaced, and the count checked against the metafile, so that none is missed or invented.
const mainFile = 'dist/cli-main.cjs';
const dynamicImports = Object.values(entries.metafile.outputs)
  .flatMap((o) => o.imports)
  .filter((i) => i.kind === 'dynamic-import').length;
let mainCode = readFileSync(mainFile, 'utf8').replace(/^#!.*\n/, '');
let replaced = 0;
mainCode = mainCode.replace(/\bimport\((?="(?:\.\/|node:)[^"]+"\))/g, () => {
  replaced++;
  return '__hobaImport(';
});
if (replaced !== dynamicImports || /\bimport\(/.test(mainCode)) {
  throw new Error(
    `build: ${mainFile} has ${dynamicImports} dynamic imports by esbuild's count; ${replaced} were routed through __hobaImport`,
  );
}
// Each UTF-16 unit of a letter outside ASCII as \uXXXX (a pair for one beyond the BMP, which a /u expression reads as one).
const escapeUnit = (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
if (/\\\P{ASCII}/u.test(mainCode))
  throw new Error(`build: ${mainFile} escapes a letter outside ASCII with a backslash: write it without one`);
mainCode = mainCode.replace(/\P{ASCII}/gu, (c) => c.split('').map(escapeUnit).join(''));
mainCode = `(function (exports, require, module, __filename, __dirname, __hobaImport) {${mainCode}\n})`;
writeFileSync(mainFile, mainCode);

// dist/cli.cjs, the `hoba` entry (src/cli/bin.ts says what it does): bundled on its own, with the hash of
// the bundle it runs, which keys its code caches.
await build({
  ...nodeOptions,
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  define: { HOBA_MAIN_HASH: JSON.stringify(createHash('sha256').update(mainCode).digest('hex').slice(0, 16)) },
  entryPoints: { cli: 'src/cli/bin.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
});
chmodSync('dist/cli.cjs', 0o755);

// dist/ holds only this build's output: stale chunks of earlier builds would otherwise ship in the package.
const written = new Set(
  [...Object.keys(result.metafile.outputs), ...Object.keys(entries.metafile.outputs), 'dist/cli.cjs'].map((f) => f.replace(/^dist\//, '')),
);
for (const f of readdirSync('dist')) if (/\.c?js$/.test(f) && !written.has(f)) rmSync(join('dist', f), { force: true });

// The prebuilt atlas snapshot (dist/atlas.snapshot.json): commands read it instead of parsing YAML.
// Its standard output is a pipe: the CLI texts beside it are laid out as a pipe gets them (src/cli/stored-text.ts).
process.stdout.write(
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-snapshot.ts'], { stdio: ['ignore', 'pipe', 'inherit'] }),
);

// The site's browser scripts (src/site/browser/<name>.ts → dist/site/<name>.js): bundles of the same
// analysis code the CLI runs, for the browser. hoba build copies them to /assets/ in the site root.
// Shared browser modules live in src/site/browser/lib/ and are bundled into each entry that uses them.
const browserDir = 'src/site/browser';
const browserEntries = Object.fromEntries(
  readdirSync(browserDir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f.replace(/\.ts$/, ''), join(browserDir, f)]),
);
rmSync('dist/site', { recursive: true, force: true });
mkdirSync('dist/site', { recursive: true });
await build({
  entryPoints: browserEntries,
  outdir: 'dist/site',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['es2022'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // The analysis code reads no file and no environment in the browser; keep node built-ins out.
  external: [],
});
await import('./build-worker.mjs'); // dist/worker.js: the hosted variant for an edge runtime, the snapshot above bundled in

writeFileSync(STAMP_FILE, `${JSON.stringify({ source })}\n`);
