// The MCP client configurations every surface prints (README, hoba-mcp --help, the developer page), from
// one place: the package name is the scoped name in package.json, which the project controls once the
// scope is created on the registry; until the package is published, the tarball form works locally.
import pkg from '../../package.json' with { type: 'json' };

export const PACKAGE_NAME: string = pkg.name;
/** The file `npm pack` writes for this version (@scope/name → scope-name-<version>.tgz). */
export const TARBALL = `${PACKAGE_NAME.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;

const one = (server: Record<string, unknown>) => JSON.stringify({ mcpServers: { hoba: server } });

/** Local variant: a built checkout, over stdio (all tools). */
export const localConfig = (checkout = '<checkout>') => one({ command: 'node', args: [`${checkout}/dist/mcp.js`, '--dir', checkout] });
/** Hosted variant from the registry: npx fetches the package and runs `hoba mcp`. */
export const hostedConfig = () => one({ command: 'npx', args: ['-y', PACKAGE_NAME, 'mcp'] });
/** Hosted variant from a packed tarball (`npm pack`): works before the package is published. */
export const tarballConfig = (path = `/path/to/${TARBALL}`) => one({ command: 'npx', args: ['-y', `--package=${path}`, 'hoba', 'mcp'] });
