// The HTTP attack suite (test/http-attacks.ts) against the three servers of a built site: `hoba serve`, the
// worker under workerd (worker/workerd.capnp) and nginx with the emitted _nginx.conf, on one site with links
// planted in it. Every answer must carry the security headers and leak nothing, and the three must answer
// every request alike (status, and the decoded body where there is one). attacks-http.test.ts runs many
// generated requests on top of this catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { writableSite } from '../site-fixture.ts';
import { attackAll, catalogue, plantLinks } from '../http-attacks.ts';
import { startNginx, startServe, startWorkerd, workerdBinary, type Running } from '../servers.ts';

const workerd = await workerdBinary();

describe('the HTTP attack suite: hoba serve, the worker under workerd and nginx answer alike', () => {
  let site: ReturnType<typeof writableSite>;
  const servers: Running[] = [];
  before(async () => {
    site = writableSite();
    plantLinks(site.root, site.parent);
    servers.push(await startServe(site.root));
    if (!('skip' in workerd)) servers.push(await startWorkerd(site.root));
    servers.push(await startNginx(site.root));
  });
  after(async () => {
    for (const s of servers) await s.stop();
    site?.dispose();
  });

  test('every class of the catalogue: no leak, the security headers on every answer, the same answers', async (t) => {
    if ('skip' in workerd) t.diagnostic(`the worker is left out: ${workerd.skip}`);
    const attacks = catalogue();
    const { failures, byClass, known } = await attackAll(servers, attacks, site.secret);
    t.diagnostic(
      `${attacks.length} requests × ${servers.length} servers (${servers.map((s) => s.name).join(', ')}): ${[...byClass].map(([c, n]) => `${c} ${n}`).join(', ')}`,
    );
    for (const [why, n] of known) t.diagnostic(`documented difference, ${n} requests: ${why}`);
    assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.slice(0, 80).join('\n')}`);
  });
});
