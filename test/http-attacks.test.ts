// The HTTP attack suite (test/http-attacks.ts) against the three servers of a built site: `hoba serve`, the
// worker under workerd (worker/workerd.capnp) and nginx with the emitted _nginx.conf, on one site with links
// planted in it. Every answer must carry the security headers and leak nothing, and the three must answer
// every request alike (status, and the decoded body where there is one). attacks-http.test.ts runs many
// generated requests on top of this catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BuiltSite } from './contract.ts';
import { catalogue, describeAttack, KNOWN_DIFFERENCES, outcome, plantLinks, run, violations, type Attack } from './http-attacks.ts';
import { startNginx, startServe, startWorkerd, workerdBinary, type Running } from './servers.ts';

const workerd = await workerdBinary();

/** Runs attacks against every server; returns what failed: violations, and answers unlike `hoba serve`'s. */
export async function attackAll(servers: Running[], attacks: Attack[], secret: string): Promise<{ failures: string[]; byClass: Map<string, number>; known: Map<string, number> }> {
  const failures: string[] = [];
  const byClass = new Map<string, number>();
  const known = new Map<string, number>();
  for (const x of attacks) {
    byClass.set(x.cls, (byClass.get(x.cls) ?? 0) + 1);
    const all = await Promise.all(servers.map(async (s) => ({ s, r: await run(s.origin, x) })));
    // A documented difference (KNOWN_DIFFERENCES) takes that server out of this request's comparison.
    const answers = all.filter(({ s, r }) => {
      const d = KNOWN_DIFFERENCES.find((k) => k.server === s.name && k.applies(x, r));
      if (d) known.set(`${s.name}: ${d.why}`, (known.get(`${s.name}: ${d.why}`) ?? 0) + 1);
      return !d;
    });
    for (const { s, r } of answers) for (const v of violations(r, secret)) failures.push(`${describeAttack(x)} → ${s.name} ${r.status}: ${v}`);
    const reference = answers[0] && outcome(answers[0].r);
    for (const { s, r } of answers.slice(1)) {
      if (outcome(r) !== reference) failures.push(`${describeAttack(x)} → ${answers[0]!.s.name} ${reference}, ${s.name} ${outcome(r)}`);
    }
  }
  return { failures, byClass, known };
}

describe('the HTTP attack suite: hoba serve, the worker under workerd and nginx answer alike', () => {
  let site: BuiltSite;
  const servers: Running[] = [];
  before(async () => {
    site = new BuiltSite();
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
    t.diagnostic(`${attacks.length} requests × ${servers.length} servers (${servers.map((s) => s.name).join(', ')}): ${[...byClass].map(([c, n]) => `${c} ${n}`).join(', ')}`);
    for (const [why, n] of known) t.diagnostic(`documented difference, ${n} requests: ${why}`);
    assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.slice(0, 80).join('\n')}`);
  });
});
