// The layers of src/ and the arrows allowed between them (ARCHITECTURE.md draws them). Data flows one way:
// model → registry → analysis → the surfaces. Checked by `npm run lint` (depcruise) and by
// test/unit/layers.test.ts, which fails the unit lane on an arrow against the flow.
//
// Each folder of src/ may import only the folders listed for it (and itself):
const ALLOWED = {
  model: [],
  http: ['model'],
  registry: ['model'],
  analysis: ['model', 'registry'],
  mcp: ['model', 'registry', 'analysis', 'http'],
  publish: ['model', 'registry', 'analysis', 'http'],
  site: ['model', 'registry', 'analysis', 'publish'],
  serve: ['model', 'http', 'publish'],
  worker: ['model', 'registry', 'http', 'publish', 'mcp'],
  workflows: ['model', 'registry', 'analysis', 'http', 'mcp', 'publish', 'serve', 'site'],
  cli: ['model', 'registry', 'analysis', 'http', 'mcp', 'publish', 'serve', 'site', 'workflows'],
};
const FOLDERS = Object.keys(ALLOWED);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file cycle: move the shared part (often a type) into a module of its own that both import.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...FOLDERS.map((folder) => ({
      name: `layer-${folder}`,
      severity: 'error',
      comment: `src/${folder}/ may import only ${ALLOWED[folder].length ? ALLOWED[folder].map((f) => `src/${f}/`).join(', ') : 'nothing else of src/'} (ARCHITECTURE.md).`,
      from: { path: `^src/${folder}/` },
      to: { path: '^src/', pathNot: [`^src/(${[folder, ...ALLOWED[folder]].join('|')})/`] },
    })),
    {
      name: 'src-not-outside',
      severity: 'error',
      comment: 'src/ imports nothing from test/, bench/ or scripts/.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts|tools)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: "An import that resolves to no file (hoba:snapshot is the worker bundle's virtual module, scripts/build-worker.mjs).",
      from: {},
      to: { couldNotResolve: true, pathNot: '^hoba:' },
    },
  ],
  options: {
    // Dynamic import() counts: a module loaded on demand is still a dependency.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/site/browser/.*\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
