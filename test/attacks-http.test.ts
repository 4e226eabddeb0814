// The long run of the HTTP attack suite (test/http-attacks.ts) for `npm run test:attacks`: the catalogue
// and 3,000 generated requests (its paths, suffixes, slashes, methods and headers recombined), against
// `hoba serve`, the worker under workerd and nginx on one site with links planted in it. A new seed each
// run unless HOBA_SEED is given (printed).
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { writableSite } from './site-fixture.ts';
import { Rng, seedFromEnv } from './helpers.ts';
import { attackAll, catalogue, generated, plantLinks } from './http-attacks.ts';
import { startNginx, startServe, startWorkerd, workerdBinary, type Running } from './servers.ts';

const SEED = seedFromEnv(randomInt(1, 2 ** 31));
const COUNT = Number(process.env['HOBA_ATTACK_COUNT'] ?? '3000');
const workerd = await workerdBinary();

describe(`HTTP attacks, generated (HOBA_SEED=${SEED}): hoba serve, the worker under workerd and nginx answer alike`, () => {
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

  test(`the catalogue and ${COUNT} generated requests`, async (t) => {
    const attacks = [...catalogue(), ...generated(new Rng(SEED), COUNT)];
    const { failures, byClass, known } = await attackAll(servers, attacks, site.secret);
    t.diagnostic(
      `HOBA_SEED=${SEED}: ${attacks.length} requests × ${servers.length} servers: ${[...byClass].map(([c, n]) => `${c} ${n}`).join(', ')}`,
    );
    for (const [why, n] of known) t.diagnostic(`documented difference, ${n} requests: ${why}`);
    assert.deepEqual(failures, [], `HOBA_SEED=${SEED}: ${failures.length} failures:\n${failures.slice(0, 80).join('\n')}`);
  });
});
