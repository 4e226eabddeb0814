// hoba show <id>: one entity of any kind, with its relations in both directions, its sources as
// citations, and (for a deprecated ID) its successor.
import type { Command } from 'commander';
import { getNode } from '../analysis/node.ts';
import { titled } from '../analysis/resolve.ts';
import type { Citation, NodeView, RelationLink } from '../analysis/schemas.ts';
import type { Registry } from '../registry/registry.ts';
import { sourceFinding, sourceTitle } from '../model/source.ts';
import { locateAtlas, openLocated } from './atlas.ts';
import { colour, writeJson } from './io.ts';
import { withAnalysisErrors, heading, item, paragraphs, wrap } from './text.ts';
import { writeOut } from './out.ts';
import { storedText } from './stored-text.ts';

export interface ShowOptions {
  json?: boolean;
  dir?: string;
}

export function registerShow(program: Command): void {
  program
    .command('show')
    .description('Show one entity with its relations both ways and its sources')
    .argument('<id>', 'an ID such as M-001, A-009, B-005, P-005, L-001, I-003 or E-013 (m-1 works too)')
    .option('--json', 'print the entity, its relations and citations as JSON')
    .option('--dir <checkout>', 'read this atlas checkout instead of the one found from the working directory')
    .addHelpText(
      'after',
      `
A deprecated ID still resolves and names its successor. Unknown IDs exit 1 with close matches.

Examples:
  $ hoba show M-001                 the genuine skill-gap mechanism (an honest baseline)
  $ hoba show A-009                 an observation, with what it does not establish and its probes
  $ hoba show P-005 --json | jq '.relations[] | select(.direction == "in")'`,
    )
    .action(runShow);
}

/** The command itself, for commander and for main.ts's parser of the usual forms alike. */
export async function runShow(id: string, opts: ShowOptions): Promise<void> {
  // The text the build laid out, when it is there (stored-text.ts): then the atlas is not even opened.
  const place = await locateAtlas(opts.dir);
  const stored = opts.json ? undefined : storedText(place, 'show', id);
  if (stored !== undefined) return writeOut(stored);
  const { registry } = await openLocated(place);
  const view = withAnalysisErrors(() => getNode(registry, id));
  if (opts.json) writeJson(view);
  else writeOut(renderNode(view, registry));
}

const join = (parts: Array<string | false | undefined>) => parts.filter(Boolean).join(' · ');

export function citationLine(c: Citation): string {
  const status = c.status !== 'current' ? ` [${c.status}]` : '';
  const review = c.peer_reviewed || /peer-reviewed/i.test(c.venue) ? '' : ' (not peer-reviewed)';
  return `[${c.id}] ${c.cite}. ${c.title}.${c.venue ? ` ${c.venue}` : ''}${review}${status}. ${c.doi ? `https://doi.org/${c.doi}` : c.url}`;
}

/** A citation as a list entry: the reference, then, for a source that is not current, its caveat. */
export function citationText(c: Citation, indent = '      ', first = '  '): string {
  const reference = wrap(citationLine(c), indent, first);
  return c.caveat ? `${reference}\n${colour.yellow(wrap(c.caveat, indent, indent))}` : reference;
}

export function renderNode(view: NodeView, reg: Registry): string {
  const out: string[] = [];
  const section: Section = (title, body) => out.push('', heading(title), body);
  out.push(...headerLines(view));
  kindSections(view.entity, section);
  artifactSections(view.entity, section);
  perspectivesSection(view.entity, section);
  lawSection(view, section);
  relationSections(view, reg, section);
  closingSections(view, section);
  out.push('', colour.dim(`registry ${view.registry_version} · hoba graph ${view.entity.id} for its neighbourhood`));
  return out.join('\n') + '\n';
}

/** Adds a section: a blank line, its heading, its body. */
type Section = (title: string, body: string) => void;

/** The title, the kind's facts in one line (and a source's caveat), the aliases and the summary. */
function headerLines(view: NodeView): string[] {
  const e = view.entity;
  const out: string[] = [];
  out.push(colour.bold(`${e.id}  ${view.node.title}`));
  const status =
    view.node.status === 'deprecated'
      ? colour.yellow(`deprecated${view.successor ? `, superseded by ${titled(view.successor)}` : ''}`)
      : undefined;
  switch (e.kind) {
    case 'artifact':
      out.push(join(['artifact (observation)', `stages: ${e.stages.join(', ')}`, status]));
      break;
    case 'barrier':
      out.push(join(['barrier', `stage: ${e.stage}`, `order ${e.order}`, status]));
      break;
    case 'mechanism':
      out.push(
        join([
          'mechanism',
          `family: ${e.family}`,
          `evidence: ${e.evidence_level}`,
          e.honest_baseline && colour.green('honest baseline'),
          status,
        ]),
      );
      out.push(
        `facets: actor ${e.facets.actor} · nature ${e.facets.nature} · visibility ${e.facets.visibility} · removability ${e.facets.removability}`,
      );
      break;
    case 'pattern':
      out.push(join(['pattern', `shape: ${e.shape}`, `evidence: ${e.evidence_level}`, status]));
      break;
    case 'loop':
      out.push(join(['loop', `evidence: ${e.evidence_level}`, status]));
      break;
    case 'intervention':
      out.push(
        join(['intervention', `actor: ${e.actor}`, `scope: ${e.scope}`, `cost: ${e.cost}`, `evidence: ${e.evidence_level}`, status]),
      );
      break;
    case 'scenario':
      out.push(
        join([
          'scenario (worked situation)',
          `observes: ${e.input.artifacts.join(', ')}`,
          e.input.stage && `stage: ${e.input.stage}`,
          status,
        ]),
      );
      break;
    case 'source':
      out.push(
        join([
          'source',
          e.type,
          e.year === null ? 'undated' : String(e.year),
          e.peer_reviewed ? 'peer-reviewed' : 'not peer-reviewed',
          `status: ${e.status}`,
        ]),
      );
      if (view.caveat) out.push(colour.yellow(wrap(view.caveat)));
      break;
  }
  if (e.kind !== 'source' && e.aliases.length > 0) out.push(wrap(`also known as: ${e.aliases.join('; ')}`, '  ', ''));
  out.push('', paragraphs(e.kind === 'source' ? sourceFinding(e) : e.summary));
  return out;
}

/** The sections of each kind's own fields, then the description. */
function kindSections(e: NodeView['entity'], section: Section): void {
  switch (e.kind) {
    case 'barrier':
      section('Pass condition', paragraphs(e.pass_condition));
      if (e.variants.length > 0) {
        section(
          'Where it differs',
          e.variants
            .map((v) => wrap(`${v.applies_to}: ${v.differs}${v.sources.length > 0 ? ` (${v.sources.join(', ')})` : ''}`, '    ', '  • '))
            .join('\n'),
        );
      }
      break;
    case 'pattern':
      section('Trigger rule', paragraphs(e.trigger_rule));
      section('Establishes', e.establishes.map((t) => item(t)).join('\n'));
      section('Does not establish', e.non_inferences.map((t) => item(t)).join('\n'));
      break;
    case 'loop':
      section(
        'Cycle',
        [...e.edges.map((x) => `  ${x.from} ${x.relation} ${x.to}`), `  entry points: ${e.entry_points.join(', ')}`].join('\n'),
      );
      break;
    case 'intervention':
      section(
        `Does it work? Effect evidence: ${e.effect.level}`,
        [
          paragraphs(e.effect.summary),
          ...(e.effect.sources.length > 0 ? [colour.dim(`  sources: ${e.effect.sources.join(', ')}`)] : []),
        ].join('\n'),
      );
      section('Expected effects', e.expected_effects.map((t) => item(t)).join('\n'));
      section('Measurements', e.measurements.map((t) => item(t)).join('\n'));
      if (e.tradeoffs.length > 0) section('Trade-offs', e.tradeoffs.map((t) => item(t)).join('\n'));
      break;
    case 'scenario':
      section('In the candidate’s words', paragraphs(e.situation));
      section(
        'Expected analysis',
        [
          ...e.input.probes.map((p) => `  probe already run: ${p.probe} → ${p.outcome}`),
          ...(e.expect.first_tier.length > 0 ? [`  first tier includes: ${e.expect.first_tier.join(', ')}`] : []),
          ...(e.expect.absent.length > 0 ? [`  must not appear: ${e.expect.absent.join(', ')}`] : []),
          ...(e.expect.probes.length > 0 ? [`  probes offered: ${e.expect.probes.join(', ')}`] : []),
          `  verdict: ${e.expect.verdict}`,
          colour.dim(`  run it: hoba explain --scenario ${e.id}`),
        ].join('\n'),
      );
      break;
    case 'source':
      section(
        'Source',
        [
          wrap(`${e.authors.join(', ')} (${e.year ?? 'n.d.'}). ${sourceTitle(e)}.${e.venue ? ` ${e.venue}.` : ''}`, '  ', '  '),
          wrap(`design: ${e.design}${e.n ? `; n: ${e.n}` : ''}`, '  ', '  '),
          `  ${e.doi ? `doi: ${e.doi} · ` : ''}${e.url}`,
          ...(e.superseded_by ? [`  superseded by ${e.superseded_by}`] : []),
        ].join('\n'),
      );
      break;
    default:
      break;
  }
  if (e.kind !== 'source' && e.description) section('Description', paragraphs(e.description));
}

/** An artifact's non-inferences, probes, next steps and specimens. */
function artifactSections(e: NodeView['entity'], section: Section): void {
  if (e.kind !== 'artifact') return;
  section('Does not establish', e.non_inferences.map((t) => item(t)).join('\n'));
  section(
    'Diagnostic probes',
    e.probes
      .map((p) =>
        [
          `  ${colour.cyan(p.id)}  (${p.agency === 'candidate' ? 'you can run it' : 'needs an intermediary'}; ${p.cost} cost)`,
          wrap(p.action, '    ', '    '),
          ...(p.risk ? [wrap(`risk: ${p.risk}`, '    ', '    ')] : []),
          ...p.outcomes.map((o) => {
            const rules = o.excludes.length > 0 ? ` → rules out ${o.excludes.join(', ')}` : '';
            return wrap(`${o.id}: ${o.observation}${rules}`, '        ', '    • ');
          }),
        ].join('\n'),
      )
      .join('\n\n'),
  );
  if (e.next_steps.length > 0) {
    section(
      'What you can still do',
      e.next_steps
        .map((step) =>
          [
            wrap(step.action, '    ', '  • '),
            ...(step.by_when ? [wrap(`by when: ${step.by_when}`, '    ', '    ')] : []),
            colour.dim(wrap(`why: ${step.why}`, '    ', '    ')),
          ].join('\n'),
        )
        .join('\n'),
    );
  }
  for (const sp of e.specimens) {
    section(
      `Specimen (${sp.medium}, illustrative and anonymised): ${sp.title}`,
      [
        sp.text
          .split('\n')
          .map((line) => colour.dim('  │ ') + line)
          .join('\n'),
        ...sp.tells.map((t) => wrap(`“${t.quote}” — ${t.reading}`, '    ', '  ▸ ')),
      ].join('\n'),
    );
  }
}

/** A mechanism's perspectives. */
function perspectivesSection(e: NodeView['entity'], section: Section): void {
  if (e.kind !== 'mechanism' || e.perspectives.length === 0) return;
  section(
    'Perspectives',
    e.perspectives
      .map((p) =>
        [
          `  ${colour.cyan(p.viewpoint)}`,
          wrap(`sees: ${p.sees}`, '      ', '    '),
          wrap(`reads: ${p.reads}`, '      ', '    '),
          wrap(`does: ${p.does}`, '      ', '    '),
        ].join('\n'),
      )
      .join('\n'),
  );
}

/** The law notes, with the legal notice. */
function lawSection(view: NodeView, section: Section): void {
  const e = view.entity;
  if (!('law' in e) || e.law.length === 0) return;
  section(
    'Law',
    [
      ...e.law.map((n) =>
        [
          wrap(`${n.jurisdiction}${n.where ? ` (${n.where})` : ''}: ${n.instrument}`, '    ', '  • '),
          wrap(n.says, '    ', '    '),
          ...(n.remedy ? [wrap(`remedy: ${n.remedy}`, '    ', '    ')] : []),
          ...(n.time_limit ? [wrap(`time limit: ${n.time_limit}`, '    ', '    ')] : []),
          ...(n.status_note ? [colour.yellow(wrap(`status: ${n.status_note}`, '    ', '    '))] : []),
          colour.dim(`    sources: ${n.sources.join(', ')}`),
        ].join('\n'),
      ),
      ...(view.legal_notice ? [colour.yellow(wrap(view.legal_notice, '  ', '  '))] : []),
    ].join('\n'),
  );
}

/** The relations both ways, by label (citations are the Sources section). */
function relationSections(view: NodeView, reg: Registry, section: Section): void {
  const e = view.entity;
  const groups = new Map<string, RelationLink[]>();
  for (const r of view.relations) {
    if (r.relation === 'cites' && r.direction === 'out') continue; // shown as citations below
    groups.set(r.label, [...(groups.get(r.label) ?? []), r]);
  }
  const emissionNote = new Map(e.kind === 'mechanism' ? e.emits.map((x) => [x.artifact, x.note]) : []);
  for (const [label, links] of groups) {
    const lines = links.map((l) => {
      // A barrier is shown with its stage; no other neighbour is read (its reference has its title).
      const barrier = l.node.kind === 'barrier' ? reg.getOf('barrier', l.node.id) : undefined;
      const stage = barrier ? ` (${barrier.stage})` : '';
      const fidelity = l.fidelity ? colour.dim(` [${l.fidelity}]`) : '';
      const deprecated = l.node.status === 'deprecated' ? colour.yellow(' [deprecated]') : '';
      const head = `  ${l.node.id.padEnd(6)} ${l.node.title}${stage}${fidelity}${deprecated}`;
      const note = l.relation === 'emits' && l.direction === 'out' ? emissionNote.get(l.node.id) : undefined;
      return note ? `${head}\n${colour.dim(wrap(note, '         ', '         '))}` : head;
    });
    section(label[0]!.toUpperCase() + label.slice(1), lines.join('\n'));
  }
}

/** What rules the entity out, what it replaces, and its sources. */
function closingSections(view: NodeView, section: Section): void {
  if (view.ruled_out_by.length > 0) {
    section(
      'Ruled out by these probe outcomes',
      view.ruled_out_by.map((x) => wrap(`${x.artifact.id} ${x.probe} = ${x.outcome}: ${x.observation}`, '      ', '  ')).join('\n'),
    );
  }
  if (view.predecessors.length > 0) section('Replaces (deprecated)', view.predecessors.map((p) => `  ${p.id}  ${p.title}`).join('\n'));
  if (view.citations.length > 0) section('Sources', view.citations.map((c) => citationText(c)).join('\n'));
}
