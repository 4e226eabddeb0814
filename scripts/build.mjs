// Bundles the entry points into single ESM files under dist/ (fast start-up: one file, no tsx).
import { build } from 'esbuild';

const entryPoints = { cli: 'src/cli/main.ts' };

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  banner: { js: "import { createRequire as __hobaCreateRequire } from 'node:module';\nconst require = __hobaCreateRequire(import.meta.url);" },
});
