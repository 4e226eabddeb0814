// An esbuild plugin: bundles zod with its English messages only. zod re-exports every locale it ships
// (z.locales, z.core.locales: about 300 KB of the 580 KB zod puts in a bundle), which a process then
// reads and compiles at every start-up; hoba and the MCP SDK use only English, which zod registers as
// its default on its own (classic/schemas.js imports locales/en.js directly). z.locales.en stays.
// Used by scripts/build.mjs for dist/, and by bench/mcp.ts for the bundled baseline, so that the
// comparison stays like for like.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      loader: 'js',
      resolveDir: ROOT,
    }));
  },
};
