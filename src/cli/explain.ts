// hoba explain <artifact_id>...: the HOBA protocol (Hard facts, Obstacle, Behind, Agency) as a short
// report, or its full structure with --json.
import { InvalidArgumentError, type Command } from 'commander';
import { explain, type ProbeOutcomeInput } from '../analysis/explain.ts';
import { titled } from '../analysis/resolve.ts';
import type { CompatibleMechanism, ExplainResult } from '../analysis/schemas.ts';
import { STAGES } from '../model/vocab.ts';
import { openAtlas } from './atlas.ts';
import { colour, writeJson } from './io.ts';
import { citationText } from './show.ts';
import { analyse, choiceOption, heading, item, wrap } from './text.ts';

interface Options {
  stage?: string;
  probe?: ProbeOutcomeInput[];
  json?: boolean;
  dir?: string;
}

function collectProbe(value: string, previous: ProbeOutcomeInput[] = []): ProbeOutcomeInput[] {
  const m = /^([^=\s]+)=([^=\s]+)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('Use <probe_id>=<outcome_id>, e.g. --probe final-silence-ask-timeline-once=no-reply.');
  return [...previous, { probe: m[1]!, outcome: m[2]! }];
}

export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description('Run the HOBA protocol for observations (artifact IDs)')
    .argument('<artifact_id...>', 'what you observed, as artifact IDs (e.g. A-009); find them with hoba search')
    .addOption(choiceOption('--stage <stage>', 'the funnel stage where it happened (default: the artifacts’ own stages)', STAGES))
    .option('--probe <probe_id=outcome_id>', 'the outcome of a probe you ran; repeatable', collectProbe)
    .option('--json', 'print the full structure as JSON')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
H  hard facts   the observations (a deprecated ID is replaced by its successor)
O  obstacle     the barriers at --stage, else at the observations' stages
B  behind       compatible mechanisms: those acting at an identified barrier OR emitting an observation,
                plus the honest baselines; patterns, loops, and what the facts do NOT establish
A  agency       who can remove each mechanism, the probes that tell them apart, and a verdict

Probe outcomes narrow the set only where the atlas records that they exclude a mechanism. The result is
topological and uncalibrated: no probabilities. "Low signal: no further candidate action is justified."
is a valid verdict.

Examples:
  $ hoba explain A-009                           silence after the final interview
  $ hoba explain A-009 --stage team              only the barriers at one of its stages
  $ hoba explain A-009 A-027                     two observations together (may trigger a pattern)
  $ hoba explain A-009 --probe final-silence-ask-timeline-once=no-reply
  $ hoba explain A-004 --json | jq .agency.verdict`,
    )
    .action(async (artifacts: string[], opts: Options) => {
      const { registry } = await openAtlas(opts.dir);
      const result = analyse(() => explain(registry, { artifacts, ...(opts.stage ? { stage: opts.stage } : {}), probes: opts.probe ?? [] }));
      if (opts.json) writeJson(result);
      else process.stdout.write(renderExplanation(result));
    });
}

function why(m: CompatibleMechanism): string {
  const parts: string[] = [];
  if (m.compatible_because.emits.length > 0) parts.push(`emits ${m.compatible_because.emits.map((e) => `${e.artifact} [${e.fidelity}]`).join(', ')}`);
  if (m.compatible_because.operates_at.length > 0) parts.push(`operates at ${m.compatible_because.operates_at.join(', ')}`);
  if (m.compatible_because.baseline_only) parts.push('honest baseline, always considered');
  if (m.masks.length > 0) parts.push(`masks ${m.masks.map((x) => x.id).join(', ')}`);
  if (m.amplifies.length > 0) parts.push(`amplifies ${m.amplifies.map((x) => x.id).join(', ')}`);
  return parts.join('; ');
}

export function renderExplanation(r: ExplainResult): string {
  const out: string[] = [];
  const ids = (xs: string[]) => (xs.length > 0 ? xs.join(', ') : 'none');
  out.push(colour.bold(`HOBA explanation of ${r.input.artifacts.join(' + ')}`) + colour.dim(`  (registry ${r.registry_version})`));
  out.push(colour.dim(wrap(r.notice)));

  out.push('', heading('H — Hard facts'));
  for (const a of r.hard_facts.artifacts) {
    out.push(`  ${a.id}  ${a.title}` + colour.dim(`  (stages: ${a.stages.join(', ')})`));
    if (a.successor) out.push(colour.yellow(`        deprecated: analysed as its successor ${titled(a.successor)}`));
  }
  for (const o of r.hard_facts.observed) {
    out.push(wrap(`you reported ${o.probe} = ${o.outcome}: ${o.observation}${o.excludes.length > 0 ? ` (excludes ${o.excludes.join(', ')})` : ''}`, '        ', '  + '));
    if (o.note) out.push(colour.dim(wrap(o.note, '        ', '        ')));
  }

  const from = r.obstacle.from === 'option' ? `barriers at the stage given: ${r.obstacle.stages.join(', ')}` : `barriers at the observations' stages: ${r.obstacle.stages.join(', ')}`;
  out.push('', heading('O — Obstacle') + colour.dim(`  (${from})`));
  if (r.obstacle.stage_note) out.push(colour.yellow(wrap(`note: ${r.obstacle.stage_note}`, '        ', '  ')));
  if (r.obstacle.barriers.length === 0) out.push('  no barrier of the atlas sits at this stage');
  for (const b of r.obstacle.barriers) out.push(`  ${b.id}  ${b.title}` + colour.dim(`  (${b.stage})`));

  const remaining = r.behind.mechanisms;
  out.push('', heading(`B — Behind: ${remaining.length} compatible mechanism${remaining.length === 1 ? '' : 's'}`) + colour.dim('  (compatible, not proven; in ID order, not by likelihood)'));
  for (const m of remaining) {
    const baseline = m.honest_baseline ? colour.green(' · honest baseline') : '';
    out.push(`  ${m.id}  ${m.title}` + colour.dim(`  ${m.evidence_level} · removability ${m.facets.removability}`) + baseline);
    out.push(colour.dim(wrap(why(m), '         ', '         ')));
  }
  if (r.behind.excluded.length > 0) {
    out.push('', '  Excluded by the outcomes you reported:');
    for (const x of r.behind.excluded) out.push(`  ${x.id}  ${x.title}` + colour.dim(`  (by ${x.by.map((b) => `${b.probe}=${b.outcome}`).join(', ')})`));
  }
  if (r.behind.patterns.length > 0) {
    out.push('', '  Patterns:');
    for (const p of r.behind.patterns) {
      const state = p.match === 'triggered' ? colour.cyan('triggered') : `partial: also look for ${p.missing.join(', ')}`;
      out.push(`  ${p.id}  ${p.title}` + `  (${state})`);
    }
  }
  if (r.behind.loops.length > 0) {
    out.push('', '  Loops the mechanisms take part in:');
    for (const l of r.behind.loops) out.push(`  ${l.id}  ${l.title}` + colour.dim(`  (here: ${l.compatible_members.join(', ')})`));
  }
  out.push('', '  What these facts do NOT establish:');
  for (const n of r.behind.non_inferences) out.push(item(`${n.text} ${colour.dim(`[${n.from}]`)}`, '  '));
  if (r.behind.source_caveats.length > 0) {
    out.push('', '  Sources above that are not current (read what rests on them with care):');
    for (const c of r.behind.source_caveats) out.push(citationText(c), colour.dim(wrap(`cited by ${c.cited_by.join(', ')}`, '      ', '      ')));
  }

  out.push('', heading('A — Agency'));
  out.push(`  removable by you:              ${ids(r.agency.candidate)}`);
  out.push(`  only by an intermediary:       ${ids(r.agency.intermediary)}`);
  out.push(`  by no one in the process:      ${ids(r.agency.none)}`);
  if (r.agency.probes.length > 0) {
    out.push('', '  Probes that can narrow the set:');
    r.agency.probes.forEach((p, i) => {
      out.push(`  ${i + 1}. ${colour.cyan(p.id)} (${p.artifact.id}; ${p.agency === 'candidate' ? 'you can run it' : 'needs an intermediary'}; ${p.cost} cost)`);
      out.push(wrap(p.action, '     ', '     '));
      const outcomes = p.outcomes.map((o) => (o.narrows.length > 0 ? `${o.id} (rules out ${o.narrows.join(', ')})` : o.id));
      out.push(wrap(`outcomes: ${outcomes.join(', ')}`, '       ', '     → '));
      out.push(colour.dim(`     then: hoba explain ${r.input.artifacts.join(' ')} --probe ${p.id}=<outcome>`));
    });
  }
  if (r.agency.other_probes.length > 0) {
    out.push(colour.dim(wrap(`Other probes (cannot narrow the set, see hoba show): ${r.agency.other_probes.map((p) => p.probe).join(', ')}`, '  ', '  ')));
  }
  const v = r.agency.verdict;
  out.push('', heading('Verdict') + colour.dim(`  [${v.code}]`));
  out.push(wrap(v.text, '  ', '  '));
  for (const d of v.details) out.push(colour.dim(item(d, '  ')));
  return out.join('\n') + '\n';
}
