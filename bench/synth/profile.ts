#!/usr/bin/env node
// Summary of a V8 CPU profile (node --cpu-prof): the top functions by self time, and the atlas's own
// functions (under src/) by total time, which names the step a slow run spends its time in. Used by
// bench/scale.ts --profile; also runs on its own:
//
//   node --import tsx bench/synth/profile.ts <file.cpuprofile> [--top 12]
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

const seconds = (us: number) => (us / 1e6).toFixed(2);

export function summariseProfile(path: string, top = 12): string[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const file = (url: string) => (url.startsWith('file://') ? relative(ROOT, fileURLToPath(url)) : url || '(native)');
  // Anonymous functions are named after their nearest named caller, which says where they run.
  const name = (n: ProfileNode): string => {
    if (n.callFrame.functionName) return n.callFrame.functionName;
    for (let p = parent.get(n.id); p !== undefined; p = parent.get(p)) {
      const caller = byId.get(p)!.callFrame.functionName;
      if (caller) return `(anonymous in ${caller})`;
    }
    return '(anonymous)';
  };
  const labels = new Map(profile.nodes.map((n) => [n.id, `${name(n)}  ${file(n.callFrame.url)}`]));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    all += dt;
    self.set(labels.get(id)!, (self.get(labels.get(id)!) ?? 0) + dt);
    // Total time: every atlas function on the stack, once each (recursion is not counted twice).
    const onStack = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      if (byId.get(n)!.callFrame.url.includes('/src/')) onStack.add(labels.get(n)!);
    }
    for (const l of onStack) total.set(l, (total.get(l) ?? 0) + dt);
  });
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([l, t]) => `  ${seconds(t).padStart(7)} s ${((100 * t) / all).toFixed(1).padStart(5)}%  ${l}`);
  return [
    `${relative(process.cwd(), path)}: ${seconds(all)} s sampled`,
    ' by self time:',
    ...list(self),
    ' by total time (functions under src/):',
    ...list(total),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '12' } } });
  if (positionals.length === 0) {
    console.error('usage: node --import tsx bench/synth/profile.ts <file.cpuprofile>... [--top 12]');
    process.exitCode = 2;
  }
  for (const p of positionals) console.log(summariseProfile(p, Number(values.top)).join('\n'));
}
