// The same contract suite against real nginx serving the built site with the emitted _nginx.conf: what a
// deployer gets is what `hoba serve` answers. nginx is required (.ci/run installs it); without it this
// test fails with instructions rather than skipping.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, waitForPort } from '../helpers.ts';
import { contractSuite, type BuiltSite } from '../contract.ts';

/** nginx from $HOBA_NGINX, else PATH, else the usual sbin directories. */
function findNginx(): string {
  const given = process.env['HOBA_NGINX'];
  if (given) {
    if (!existsSync(given))
      throw new Error(`HOBA_NGINX is set to ${given}, which does not exist. Point it at the nginx binary, or unset it.`);
    return given;
  }
  const dirs = [...(process.env['PATH'] ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  const found = dirs.map((d) => join(d, 'nginx')).find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'nginx is not installed, and this contract test needs it. Install it (Debian: apt-get install -y nginx; .ci/run does this) and run the tests again.',
    );
  }
  return found;
}

/** The MIME types of the nginx installation, included as the snippet's example deployment does (beside
 * its nginx.conf, from `nginx -V`); a minimal list when the installation has none. */
function mimeTypes(nginx: string): string {
  const info = spawnSync(nginx, ['-V'], { encoding: 'utf8' });
  const confPath = /--conf-path=(\S+)/.exec(`${info.stdout}${info.stderr}`)?.[1];
  const file = confPath ? join(dirname(confPath), 'mime.types') : undefined;
  return file && existsSync(file)
    ? `include ${file};`
    : 'types { text/html html; application/json json; text/plain txt; image/svg+xml svg; image/x-icon ico; }';
}

async function startNginx(site: BuiltSite) {
  const nginx = findNginx();
  const prefix = mkdtempSync(join(tmpdir(), 'hoba-nginx-'));
  mkdirSync(join(prefix, 'temp'));
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `# Test server: one process, as the current user, everything under a temporary prefix.
daemon off;
master_process off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 128; }
http {
  ${mimeTypes(nginx)}
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${site.root};
    include ${site.root}/_nginx.conf;
  }
}
`,
  );
  const errorLog = () => (existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : '');
  const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(prefix, { recursive: true, force: true });
    throw new Error(`nginx rejects the configuration with the emitted snippet:\n${check.stderr}`);
  }
  const child = spawn(nginx, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await waitForPort(port, child, () => stderr + errorLog(), 'nginx', 10);
  } catch (err) {
    child.kill('SIGTERM');
    rmSync(prefix, { recursive: true, force: true });
    throw err;
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

contractSuite('nginx with the emitted _nginx.conf', startNginx);
