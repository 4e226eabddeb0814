// Bundles the entry points into ESM under dist/ (fast start-up: no tsx, no per-file module resolution).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const entryPoints = { cli: 'src/cli/main.ts', mcp: 'src/mcp/main.ts' };

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

const result = await build({
  metafile: true,
  plugins: [lazyChildProcess],
  entryPoints,
  // Commands load their modules on demand (src/cli/main.ts); shared code goes into chunks beside the entries.
  splitting: true,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  sourcemap: false,
  legalComments: 'none',
  // Smaller source parses and compiles faster at start-up; identifiers stay readable for bug reports.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  banner: { js: "import { createRequire as __hobaCreateRequire } from 'node:module';\nconst require = __hobaCreateRequire(import.meta.url);" },
});

// dist/ holds only this build's output: stale chunks of earlier builds would otherwise ship in the package.
const written = new Set(Object.keys(result.metafile.outputs).map((f) => f.replace(/^dist\//, '')));
for (const f of readdirSync('dist')) if (f.endsWith('.js') && !written.has(f)) rmSync(join('dist', f), { force: true });

// The prebuilt atlas snapshot (dist/atlas.snapshot.json): commands read it instead of parsing YAML.
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-snapshot.ts'], { stdio: 'inherit' });

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
