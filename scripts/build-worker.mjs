// Bundles the hosted variant for an edge runtime: src/worker/main.ts → dist/worker.js, one ES module
// (`export default { fetch }`) for Cloudflare Workers and workerd, with the atlas snapshot that the build
// wrote (dist/atlas.snapshot.json) bundled in as the module `hoba:snapshot`. The static site it serves
// is not in it: it is the output of `hoba build`, bound as ASSETS (worker/README.md's deployment).
// Run by scripts/build.mjs after the snapshot; `node scripts/build-worker.mjs` runs it alone.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const snapshotFile = join(root, 'dist', 'atlas.snapshot.json');
const out = join(root, 'dist', 'worker.js');

if (!existsSync(snapshotFile)) {
  // build-snapshot.ts writes none for content with errors, and has said so.
  rmSync(out, { force: true });
  console.warn('build: no worker written (dist/worker.js): there is no atlas snapshot to bundle into it.');
} else {
  // The snapshot is JSON lines (src/registry/snapshot.ts, writeSnapshot): an index line, one line per
  // entity, and one line per index (their names in the index line's `indexes`). The worker parses the
  // whole registry on first use anyway, so it gets the two values it reads: the head as {built_by, content_hash, data: {manifest, entities, edges}} (the edges
  // as the snapshot stores them: numbers, src/registry/edge-codec.ts, decoded by the worker), and the
  // indexes. Both stay text in the bundle and are parsed on first use: JSON.parse is faster than a
  // JavaScript literal, and a worker's start-up time is limited.
  const lines = readFileSync(snapshotFile, 'latin1').split('\n');
  const index = JSON.parse(lines[0]);
  const entities = lines.slice(1, 1 + index.ids.length);
  const head = `{"built_by":${JSON.stringify(index.built_by)},"content_hash":${JSON.stringify(index.content_hash)},"data":{"manifest":${JSON.stringify(index.manifest)},"entities":[${entities.join(',')}],"edges":${JSON.stringify(index.edges)}}}`;
  // The indexes as one JSON object of their texts, by name.
  const indexes = JSON.stringify(
    Object.fromEntries(Object.keys(index.indexes ?? {}).map((name, k) => [name, lines[1 + index.ids.length + k]])),
  );
  const snapshotModule = {
    name: 'hoba-snapshot',
    setup(b) {
      b.onResolve({ filter: /^hoba:snapshot$/ }, () => ({ path: 'snapshot', namespace: 'hoba' }));
      b.onLoad({ filter: /.*/, namespace: 'hoba' }, () => ({
        contents: `export const head = ${JSON.stringify(head)};\nexport const indexes = ${JSON.stringify(indexes)};\n`,
        loader: 'js',
      }));
    },
  };

  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/worker/main.ts'],
    outfile: out,
    bundle: true,
    metafile: true,
    plugins: [snapshotModule],
    format: 'esm',
    // Neither Node nor a browser: the packages' "workerd" and "worker" exports where they have them (the
    // MCP SDK's workerd shims: a JSON Schema validator that needs no eval), then their browser ones.
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    // Node's built-ins come from the runtime: Workers and workerd provide them with the nodejs_compat flag.
    external: ['node:*'],
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });

  // A bare require() has no runtime to answer it in an ES module worker: fail the build, not the deploy.
  const bundled = readFileSync(out, 'utf8');
  const imports = Object.values(result.metafile.outputs)[0]?.imports ?? [];
  const unprefixed = imports.filter((i) => i.external && !i.path.startsWith('node:'));
  if (unprefixed.length > 0 || /\b__require\(/.test(bundled)) {
    rmSync(out, { force: true });
    throw new Error(
      `build: the worker bundle would need ${unprefixed.map((i) => i.path).join(', ') || 'require()'} at run time, which an ES module worker cannot load. Import Node built-ins as node:<name>, and keep CommonJS require() calls out of the code the worker reaches.`,
    );
  }
}
