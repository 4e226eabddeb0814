// The npm package as a user installs it: `npm pack`, then a global install into a temporary prefix, then
// `hoba` run from a directory outside any checkout (the hosted variant, on the bundled snapshot) and
// pointed at a checkout with --dir (the local variant).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PACKAGE_NAME } from '../../src/model/package.ts';
import { ROOT } from '../helpers.ts';
import { MCP } from '../dist.ts';

const work = mkdtempSync(join(tmpdir(), 'hoba-pack-'));
const prefix = join(work, 'prefix');
const elsewhere = join(work, 'elsewhere');
let bin: string;
let tarballPath: string;

// npm's own environment variables (when the suite runs under `npm test`) would point the nested npm at
// this project; a clean environment makes it behave as on a user's machine.
const env = (): NodeJS.ProcessEnv => {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD' && k !== 'HOBA_DIR'),
  );
  return { ...clean, HOME: work, NO_COLOR: '1', npm_config_update_notifier: 'false' };
};

function npm(args: string[], cwd: string) {
  const r = spawnSync('npm', args, { cwd, env: env(), encoding: 'utf8' });
  assert.equal(r.status, 0, `npm ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function hoba(args: string[], cwd = elsewhere) {
  return spawnSync(bin, args, { cwd, env: env(), encoding: 'utf8' });
}

before(() => {
  spawnSync('mkdir', ['-p', prefix, elsewhere]);
  // The suite has just built dist/ (npm test), so pack it as is: --ignore-scripts skips the prepack
  // rebuild, which would rewrite dist/ under the other test files.
  npm(['pack', '--ignore-scripts', '--pack-destination', work], ROOT);
  const tarball = readdirSync(work).find((f) => /^hoba-.*\.tgz$/.test(f));
  assert.ok(tarball, 'npm pack wrote a tarball');
  tarballPath = join(work, tarball);
  npm(['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarballPath], work);
  bin = join(prefix, 'bin', 'hoba');
  assert.ok(existsSync(bin), 'the global install put hoba on the PATH');
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('the installed package', () => {
  test('hoba search works from outside any checkout, on the bundled snapshot', () => {
    const r = hoba(['search', 'reposted']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^A-004\s+artifact\s+Role closed, then reposted/);
    const json = JSON.parse(hoba(['search', 'ghosted after final interview', '--json']).stdout) as {
      registry_version: string;
      results: Array<{ id: string }>;
    };
    assert.match(json.registry_version, /^\d+\.\d+\.\d+$/);
    assert.equal(json.results[0]?.id, 'A-009');
  });

  test('show and explain work too; validate explains that it needs a checkout', () => {
    assert.match(hoba(['show', 'M-001']).stdout, /^M-001 {2}Genuine skill or experience gap/);
    assert.match(hoba(['explain', 'A-009']).stdout, /^You saw: Silence after the final interview\n\nCheck one thing first\n/);
    assert.match(hoba(['explain', 'A-009', '--brief']).stdout, /^You saw: A-009 [^\n]*\n[\s\S]*\nVerdict: /);
    const v = hoba(['validate']);
    assert.equal(v.status, 2);
    assert.match(v.stderr, /no atlas checkout found.*works on the content of a checkout/);
  });

  test('--dir points it at a checkout (the local variant)', () => {
    const r = hoba(['show', 'M-001', '--json', '--dir', ROOT]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { node: { id: string } }).node.id, 'M-001');
    assert.equal(hoba(['validate', '--dir', ROOT, '--no-mirror']).status, 0);
  });

  test('the package carries no runtime dependencies: everything it runs is bundled', () => {
    const installed = join(prefix, 'lib', 'node_modules', ...PACKAGE_NAME.split('/'));
    assert.ok(existsSync(join(installed, 'dist', 'atlas.snapshot.json')));
    assert.ok(!existsSync(join(installed, 'node_modules')), 'no node_modules inside the installed package');
  });
});

describe('the package as an MCP server', () => {
  const hostedTools = async (command: string, args: string[]) => {
    const client = new Client({ name: 'hoba-test', version: '1.0.0' });
    const environment = Object.fromEntries(Object.entries(env()).filter((e): e is [string, string] => e[1] !== undefined));
    await client.connect(new StdioClientTransport({ command, args, cwd: elsewhere, env: environment, stderr: 'pipe' }));
    try {
      const r = (await client.callTool({ name: 'search_registry', arguments: { query: 'reposted' } })) as {
        structuredContent: { results: Array<{ id: string }> };
      };
      assert.equal(r.structuredContent.results[0]?.id, 'A-004');
      return (await client.listTools()).tools.map((t) => t.name).sort();
    } finally {
      await client.close();
    }
  };
  const NINE = [
    'explain_observation',
    'find_compatible_mechanisms',
    'find_patterns',
    'get_diagnostic_probes',
    'get_interventions',
    'get_methodology',
    'get_node',
    'search_registry',
    'traverse_graph',
  ];

  test("the spec's hosted configuration, npx -y <package> mcp, starts the hosted variant from the packed tarball", async () => {
    assert.deepEqual(await hostedTools('npx', ['--offline', '-y', `--package=${tarballPath}`, 'hoba', 'mcp']), NINE);
  });

  test('the installed hoba-mcp bin serves the hosted tools on stdio', async () => {
    assert.deepEqual(await hostedTools(join(prefix, 'bin', 'hoba-mcp'), []), NINE);
  });
});

describe('every printed MCP configuration says the same thing', () => {
  test('README, hoba-mcp --help and the developer page print the configurations of src/model/package.ts', async () => {
    const { hostedConfig, localConfig, tarballConfig } = await import('../../src/model/package.ts');
    const { readFileSync } = await import('node:fs');
    assert.match(PACKAGE_NAME, /^@[a-z0-9-]+\/hoba$/, 'a scoped name the project controls');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.ok(readme.includes(hostedConfig()), 'README: hosted');
    assert.ok(readme.includes(tarballConfig()), 'README: tarball');
    assert.ok(readme.includes(localConfig('/path/to/checkout')), 'README: local');
    const help = spawnSync(process.execPath, [MCP, '--help'], { encoding: 'utf8' }).stdout;
    for (const config of [hostedConfig(), tarballConfig(), localConfig()]) assert.ok(help.includes(config), `hoba-mcp --help: ${config}`);
    assert.ok(!/"-y",\s*"hoba"/.test(readme + help), 'nobody is told to run the unscoped name');
  });
});
