// The validator: every rule of rules.ts over a loaded atlas, reporting every problem in one run.
import { isDeepStrictEqual } from 'node:util';
import { placeOf, placesNamed } from '../model/places.ts';
import {
  DISCRIMINATION_GROUNDS,
  HEDGE_WORDS,
  MECHANISM_FAMILIES,
  RATE_PARAPHRASES,
  SOURCED_EFFECT_LEVELS,
  SOURCED_EVIDENCE_LEVELS,
  STAGES,
  ID_SOURCE,
  KIND_INFO,
  idsInProse,
  kindOfId,
  withArticle,
  type Entity,
  type Source,
} from '../model/index.ts';
import { toSourceRecord, type BibliographyEntry } from './bibliography.ts';
import { cycleThrough, cyclicComponents, shortestPath, stronglyConnectedComponents } from './graph.ts';
import { MANIFEST_SOURCE, type LoadResult } from './load.ts';
import { authorSurnames, nameMatcher, namedOrganisations } from './named-entities.ts';
import { nestedSources, referencesOf, type PathSegment } from './references.ts';
import type { Registry } from './registry.ts';
import { problem, sortProblems, type Problem, type RuleId } from './rules.ts';
import { presentedAsCurrent, saysNoLongerApplies } from './status-wording.ts';

/** Words that say a law note's sources give no time limit. */
const UNSTATED_LIMIT =
  /gives? no time limit|no time limit is (stated|given)|do(es)? not state (a|the|any) (time )?limit|do(es)? not state its length/i;

export interface ValidateOptions {
  /** The shared bibliography; when absent, the source-bibliography rule cannot run. */
  bibliography?: Map<string, BibliographyEntry> | undefined;
}

/** What a check needs: the registry, and somewhere to report. */
interface Reporter {
  readonly reg: Registry;
  report(rule: RuleId, message: string, entity?: string, path?: readonly PathSegment[]): void;
}

class Checker implements Reporter {
  readonly problems: Problem[] = [];
  constructor(
    readonly load: LoadResult,
    readonly reg: Registry = load.registry,
  ) {}

  report(rule: RuleId, message: string, entity?: string, path: readonly PathSegment[] = []): void {
    const where = entity ? { entity, ...this.load.sourceMap.locate(entity, path) } : {};
    this.problems.push(problem(rule, message, where));
  }

  /** A problem in the manifest (content/atlas.yaml), at `path` inside it. */
  reportManifest(rule: RuleId, message: string, path: readonly PathSegment[]): void {
    this.problems.push(problem(rule, message, this.load.sourceMap.locate(MANIFEST_SOURCE, path)));
  }
}

export function validateAtlas(load: LoadResult, options: ValidateOptions = {}): Problem[] {
  const c = new Checker(load);
  checkReferences(c);
  checkInlineReferences(c);
  checkDeprecation(c);
  checkBarriers(c);
  checkLoops(c);
  checkBaselines(c);
  checkEvidence(c);
  checkProbes(c);
  checkScenarioReferences(c);
  checkNamedEntities(c);
  checkReaderContent(c);
  checkSourceStatus(c);
  checkLayers(c);
  checkHedges(c);
  if (options.bibliography) checkBibliography(c, options.bibliography);
  checkSourceFindings(c, options.bibliography);
  checkOverclaims(c);
  checkDiagnosticLogic(c);
  checkUncited(c, options.bibliography);
  checkCoverage(c);
  return sortProblems([...load.problems, ...c.problems]);
}

/** The rules of evidence on the atlas's own words, which hoba stats holds at zero findings (issue 25). */
export const EVIDENCE_LANGUAGE_RULES = [
  'uncalibrated-likelihood',
  'unsourced-frequency',
  'causal-overclaim',
] as const satisfies readonly RuleId[];

/**
 * The findings of EVIDENCE_LANGUAGE_RULES over a registry alone (no files: entity and field, no line), the same
 * checks hoba validate runs, for hoba stats to report as targets.
 */
export function evidenceLanguageFindings(reg: Registry): Problem[] {
  const problems: Problem[] = [];
  const reporter: Reporter = {
    reg,
    report: (rule, message, entity) => void problems.push(problem(rule, message, entity !== undefined ? { entity } : {})),
  };
  checkHedges(reporter);
  checkOverclaims(reporter);
  return sortProblems(problems);
}

/** The most mechanisms an artifact may have producing it: explained alone, they are its first tier. */
export const MAX_FIRST_TIER = 8;

const fieldName = (path: readonly PathSegment[]) =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');

function checkReferences(c: Checker): void {
  for (const e of c.reg.entities) {
    const seen = new Map<string, Set<string>>();
    for (const ref of referencesOf(e)) {
      const field = fieldName(ref.path);
      const list = fieldName(ref.path.slice(0, -1));
      if (typeof ref.path.at(-1) === 'number') {
        const ids = seen.get(list) ?? new Set<string>();
        seen.set(list, ids);
        if (ids.has(ref.target)) c.report('duplicate-reference', `${list} lists ${ref.target} more than once; keep one.`, e.id, ref.path);
        ids.add(ref.target);
      }
      if (
        ref.target === e.id &&
        (ref.relation === 'precedes' || ref.relation === 'amplifies' || ref.relation === 'masks' || ref.path[0] === 'superseded_by')
      ) {
        c.report('self-reference', `${field} names ${e.id} itself; remove it.`, e.id, ref.path);
        continue;
      }
      const kind = c.load.declared.get(ref.target);
      if (kind === undefined) {
        c.report(
          'dangling-reference',
          `${field} refers to ${ref.target}, which does not exist. Fix the ID or add the missing ${ref.allowed.join(' or ')}.`,
          e.id,
          ref.path,
        );
      } else if (!ref.allowed.includes(kind)) {
        c.report(
          'wrong-kind-reference',
          `${field} must point at ${withArticle(ref.allowed.join(' or '))}, but ${ref.target} is ${withArticle(kind)}.`,
          e.id,
          ref.path,
        );
      } else {
        const target = c.reg.get(ref.target);
        if (target && target.kind !== 'source' && target.status === 'deprecated' && isActive(e) && ref.path[0] !== 'superseded_by') {
          const successor = target.superseded_by ? `its successor ${target.superseded_by}` : 'an active entity';
          c.report(
            'deprecated-reference',
            `${field} points at ${ref.target}, which is deprecated; point at ${successor} instead.`,
            e.id,
            ref.path,
          );
        }
      }
    }
  }
}

/** Other people's words: an ID-shaped token there (a requisition number in a pasted email) is theirs, not the atlas's. */
const othersWords = (path: readonly PathSegment[]) =>
  path[0] === 'aliases' ||
  path[0] === 'voices' ||
  path[0] === 'situation' ||
  (path[0] === 'specimens' && (path[2] === 'text' || path[4] === 'quote'));

/** IDs written inside prose ("(E-068)", "see M-016") name entities that exist; document numbers ("Handbook M-274") are not IDs. */
function checkInlineReferences(c: Checker): void {
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    for (const [text, path] of proseOf(e)) {
      // A string that is only an ID is a structured reference (dangling-reference checks it).
      if (kindOfId(text) !== undefined || othersWords(path)) continue;
      for (const id of new Set(idsInProse(text).map((f) => f.id))) {
        if (c.load.declared.has(id)) continue;
        const kind = kindOfId(id)!;
        const fix =
          kind === 'source'
            ? `Cite an entry of ../shared/bibliography.yaml by its ID and run npm run sources:sync, or remove the citation.`
            : `Fix the ID, or remove it. If the token is another body's document number, write the document's name before it (e.g. "Form", "Handbook").`;
        c.report(
          'inline-reference',
          `${fieldName(path)} names ${id} in its text, but no ${KIND_INFO[kind].label} ${id} exists. ${fix}`,
          e.id,
          path,
        );
      }
    }
  }
}

function isActive(e: Entity): boolean {
  return e.kind === 'source' || e.status === 'active';
}

function checkDeprecation(c: Checker): void {
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    if (e.status === 'deprecated' && e.superseded_by === undefined) {
      c.report(
        'deprecated-successor',
        `${e.id} is deprecated but names no successor. Add superseded_by: <${KIND_INFO[e.kind].prefix}-…> so old links keep leading somewhere.`,
        e.id,
        ['status'],
      );
    } else if (e.status === 'active' && e.superseded_by !== undefined) {
      c.report(
        'deprecated-successor',
        `${e.id} is active but names a successor (${e.superseded_by}). Set status: deprecated, or remove superseded_by.`,
        e.id,
        ['superseded_by'],
      );
    } else if (e.superseded_by !== undefined) {
      const successor = c.reg.get(e.superseded_by);
      if (successor && successor.kind !== 'source' && successor.status === 'deprecated') {
        c.report(
          'deprecated-successor',
          `${e.id} is superseded by ${e.superseded_by}, which is itself deprecated. Point at the final active successor${successor.superseded_by ? ` (${successor.superseded_by}?)` : ''}.`,
          e.id,
          ['superseded_by'],
        );
      }
    }
  }
}

function checkBarriers(c: Checker): void {
  const barriers = c.reg.all('barrier');
  const byId = new Map(barriers.map((b) => [b.id, b]));
  const adj = new Map(barriers.map((b) => [b.id, b.precedes.filter((t) => byId.has(t) && t !== b.id)]));
  for (const component of cyclicComponents([...byId.keys()], adj)) {
    const cycle = cycleThrough(component[0]!, adj, new Set(component));
    c.report(
      'barrier-cycle',
      `The funnel must be a DAG, but these barriers form a cycle: ${(cycle ?? component).join(' → ')}. Remove the precedes edge that points backwards.`,
      component[0],
      ['precedes'],
    );
  }
  for (const b of barriers) {
    b.precedes.forEach((t, i) => {
      const next = byId.get(t);
      if (!next || next.id === b.id) return;
      if (b.order >= next.order) {
        c.report(
          'barrier-order',
          `${b.id} (order ${b.order}) precedes ${t} (order ${next.order}); a barrier's order must be lower than that of every barrier it precedes. Renumber one of them.`,
          b.id,
          ['precedes', i],
        );
      }
      if (STAGES.indexOf(b.stage) > STAGES.indexOf(next.stage)) {
        c.report(
          'barrier-order',
          `${b.id} at stage ${b.stage} precedes ${t} at the earlier stage ${next.stage}. Fix one stage or the precedes edge.`,
          b.id,
          ['precedes', i],
        );
      }
    });
  }
  for (const stage of STAGES) {
    if (!barriers.some((b) => b.status === 'active' && b.stage === stage)) {
      c.report(
        'stage-without-barrier',
        `No active barrier sits at stage "${stage}", so an explanation at that stage finds no obstacle. Add a barrier for it.`,
      );
    }
  }
}

/** An amplifies/masks relation as a loop declares it (the key loops and mechanisms are compared by). */
const edgeKey = (e: { from: string; relation: string; to: string }) => `${e.from} ${e.relation} ${e.to}`;

function checkLoops(c: Checker): void {
  const mechanisms = c.reg.all('mechanism');
  const ids = new Set(mechanisms.map((m) => m.id));
  // Every amplifies/masks relation between two distinct loaded mechanisms, with where it is written.
  const relations: Array<{ from: string; relation: 'amplifies' | 'masks'; to: string; index: number }> = [];
  const adj = new Map<string, string[]>();
  for (const m of mechanisms) {
    const next = new Set<string>();
    for (const relation of ['amplifies', 'masks'] as const) {
      m[relation].forEach((to, index) => {
        if (ids.has(to) && to !== m.id) {
          relations.push({ from: m.id, relation, to, index });
          next.add(to);
        }
      });
    }
    adj.set(m.id, [...next]);
  }
  const existing = new Set(relations.map(edgeKey));
  const components = stronglyConnectedComponents([...ids], adj);
  const componentOf = new Map<string, number>();
  components.forEach((comp, i) => {
    comp.forEach((id) => {
      componentOf.set(id, i);
    });
  });

  const loops = c.reg.all('loop');
  for (const loop of loops) {
    const members = new Set(loop.mechanisms);
    const firstIndex = new Map<string, number>();
    loop.edges.forEach((edge, i) => {
      for (const end of [edge.from, edge.to]) {
        if (!members.has(end))
          c.report(
            'loop-declaration',
            `edges[${i}] uses ${end}, which is not among the loop's mechanisms. Add it to mechanisms or fix the edge.`,
            loop.id,
            ['edges', i],
          );
      }
      const first = firstIndex.get(edgeKey(edge));
      if (first !== undefined) {
        c.report(
          'loop-declaration',
          `edges[${i}] repeats edges[${first}] (${edgeKey(edge)}). Each edge is declared once: remove the repeat.`,
          loop.id,
          ['edges', i],
        );
      } else firstIndex.set(edgeKey(edge), i);
      if (ids.has(edge.from) && ids.has(edge.to) && !existing.has(edgeKey(edge))) {
        c.report(
          'loop-edge-missing',
          `edges[${i}] declares ${edgeKey(edge)}, but ${edge.from} does not list ${edge.to} under ${edge.relation}. Add it there, or remove the edge from the loop.`,
          loop.id,
          ['edges', i],
        );
      }
    });
    loop.entry_points.forEach((m, i) => {
      if (!members.has(m))
        c.report('loop-declaration', `entry point ${m} is not among the loop's mechanisms. Add it to mechanisms or remove it.`, loop.id, [
          'entry_points',
          i,
        ]);
    });
    checkLoopCloses(c, loop);

    const loaded = loop.mechanisms.filter((m) => ids.has(m));
    const groups = new Map<number, string[]>();
    for (const m of loaded) groups.set(componentOf.get(m)!, [...(groups.get(componentOf.get(m)!) ?? []), m]);
    if (groups.size > 1) {
      const parts = [...groups.values()].map((g) => `{${g.join(', ')}}`).join(' and ');
      c.report(
        'loop-not-strongly-connected',
        `The loop's mechanisms are not one strongly connected component of amplifies/masks: ${parts} cannot all reach each other. Add the missing relations to the mechanisms or split the loop.`,
        loop.id,
        ['mechanisms'],
      );
    } else if (groups.size === 1 && new Set(loaded).size > 1 && components[[...groups.keys()][0]!]!.length === 1) {
      c.report(
        'loop-not-strongly-connected',
        `The loop's mechanisms form no cycle through amplifies/masks. Add the relations that close the cycle.`,
        loop.id,
        ['mechanisms'],
      );
    }
  }

  // A relation lies on a cycle exactly when both its ends are in one strongly connected component. Each
  // such relation must be an edge some active loop declares: covering the component's members with the
  // union of several loops is not enough, since a relation between two loops makes a cycle neither names.
  const declaredByLoops = new Set(loops.filter((l) => l.status === 'active').flatMap((l) => l.edges.map(edgeKey)));
  const memberSets = new Map<number, Set<string>>();
  for (const r of relations) {
    const comp = componentOf.get(r.from)!;
    if (comp !== componentOf.get(r.to) || declaredByLoops.has(edgeKey(r))) continue;
    if (!memberSets.has(comp)) memberSets.set(comp, new Set(components[comp]));
    const back = shortestPath(r.to, r.from, adj, memberSets.get(comp));
    c.report(
      'loop-undeclared-cycle',
      `${edgeKey(r)} lies on a cycle of amplifies/masks (${[r.from, ...(back ?? [r.to])].join(' → ')}), but no active loop declares this edge. Declare it, with the other edges of its cycle, in a loop in content/loops/ (a new loop, or the one whose cycle it belongs to), or remove the relation if it is not real.`,
      r.from,
      [r.relation, r.index],
    );
  }
}

/**
 * A loop's declared edges must themselves make one cycle through all its members: every member touched
 * by an edge, and every member reachable from every other along the declared edges (each edge then lies
 * on a cycle of the declaration). Edges that leave the loop are reported elsewhere and not counted here.
 */
function checkLoopCloses(c: Checker, loop: Extract<Entity, { kind: 'loop' }>): void {
  const members = new Set(loop.mechanisms);
  const inner = loop.edges.map((edge, i) => ({ edge, i })).filter(({ edge }) => members.has(edge.from) && members.has(edge.to));
  const touched = new Set(inner.flatMap(({ edge }) => [edge.from, edge.to]));
  loop.mechanisms.forEach((m, i) => {
    if (!touched.has(m) && loop.mechanisms.indexOf(m) === i) {
      c.report(
        'loop-declaration',
        `${m} is one of the loop's mechanisms, but none of its edges touches it, so the declared cycle does not pass through it. Declare the edges that carry the cycle through ${m}, or remove it from mechanisms.`,
        loop.id,
        ['mechanisms', i],
      );
    }
  });
  const adj = new Map<string, string[]>();
  for (const { edge } of inner) adj.set(edge.from, [...(adj.get(edge.from) ?? []), edge.to]);
  const components = stronglyConnectedComponents([...touched], adj);
  if (components.length <= 1) return;
  const componentOf = new Map<string, number>();
  components.forEach((comp, n) => {
    comp.forEach((m) => {
      componentOf.set(m, n);
    });
  });
  const open = inner.filter(({ edge }) => componentOf.get(edge.from) !== componentOf.get(edge.to));
  for (const { edge, i } of open) {
    c.report(
      'loop-declaration',
      `edges[${i}] (${edgeKey(edge)}) does not close: no declared edge leads from ${edge.to} back to ${edge.from}, so the loop's edges do not form a cycle. Declare the edges that lead back, or remove this one.`,
      loop.id,
      ['edges', i],
    );
  }
  if (open.length === 0) {
    c.report(
      'loop-declaration',
      `The loop's edges form separate cycles (${components.map((comp) => `{${comp.join(', ')}}`).join(' and ')}), not one. Declare the edges that join them, or split the loop.`,
      loop.id,
      ['edges'],
    );
  }
}

function checkBaselines(c: Checker): void {
  if (!c.reg.all('mechanism').some((m) => m.honest_baseline && m.status === 'active')) {
    c.report(
      'honest-baseline-missing',
      'No active mechanism is marked honest_baseline: true. Explanations must always keep the ordinary causes (a genuine skill or experience gap, a stronger competing candidate) on the table: add or restore one.',
    );
  }
}

function checkEvidence(c: Checker): void {
  for (const e of c.reg.entities) {
    if (!('evidence_level' in e)) continue;
    if (SOURCED_EVIDENCE_LEVELS.includes(e.evidence_level) && e.sources.length === 0) {
      c.report(
        'evidence-unsourced',
        `evidence_level is "${e.evidence_level}" but no source is cited. Cite the sources (E-…) that support it, or lower it to hypothesis.`,
        e.id,
        ['evidence_level'],
      );
    }
  }
}

function checkProbes(c: Checker): void {
  const probeOwner = new Map<string, string>();
  for (const a of c.reg.all('artifact')) {
    a.probes.forEach((probe, p) => {
      const owner = probeOwner.get(probe.id);
      if (owner !== undefined) {
        c.report(
          'probe-duplicate-id',
          `probe "${probe.id}" is already defined on ${owner}; probe IDs are unique across the atlas, so rename this one.`,
          a.id,
          ['probes', p, 'id'],
        );
      } else probeOwner.set(probe.id, a.id);
      const outcomes = new Set<string>();
      probe.outcomes.forEach((o, i) => {
        if (outcomes.has(o.id))
          c.report('probe-duplicate-id', `outcome "${o.id}" appears twice in probe "${probe.id}"; rename one.`, a.id, [
            'probes',
            p,
            'outcomes',
            i,
            'id',
          ]);
        outcomes.add(o.id);
      });
    });
  }
}

/** A scenario's probe outcomes and expected probes must belong to its artifacts, so that explain accepts its input. */
function checkScenarioReferences(c: Checker): void {
  for (const s of c.reg.all('scenario')) {
    const artifacts = s.input.artifacts.map((id) => c.reg.getOf('artifact', id)).filter((a) => a !== undefined);
    const given = artifacts.map((a) => a.id).join(', ');
    const probes = new Map(artifacts.flatMap((a) => a.probes.map((p) => [p.id, p] as const)));
    const elsewhere = (probe: string) => {
      const owner = c.reg.all('artifact').find((a) => a.probes.some((p) => p.id === probe));
      return owner ? `it is a probe of ${owner.id}; add ${owner.id} to input.artifacts or` : 'no artifact has a probe of that ID;';
    };
    const reported = new Set<string>();
    s.input.probes.forEach((r, i) => {
      const probe = probes.get(r.probe);
      if (!probe) {
        c.report(
          'scenario-reference',
          `input.probes names probe "${r.probe}", which is not a probe of ${given}: ${elsewhere(r.probe)} pick one of: ${[...probes.keys()].join(', ')}.`,
          s.id,
          ['input', 'probes', i, 'probe'],
        );
      } else if (!probe.outcomes.some((o) => o.id === r.outcome)) {
        c.report(
          'scenario-reference',
          `Probe ${r.probe} has no outcome "${r.outcome}". Its outcomes are: ${probe.outcomes.map((o) => o.id).join(', ')}.`,
          s.id,
          ['input', 'probes', i, 'outcome'],
        );
      }
      if (reported.has(r.probe))
        c.report('scenario-reference', `input.probes reports probe ${r.probe} twice; a probe has one outcome.`, s.id, [
          'input',
          'probes',
          i,
          'probe',
        ]);
      reported.add(r.probe);
    });
    s.expect.probes.forEach((id, i) => {
      if (!probes.has(id)) {
        c.report(
          'scenario-reference',
          `expect.probes names probe "${id}", which is not a probe of ${given}: ${elsewhere(id)} pick one of: ${[...probes.keys()].join(', ')}.`,
          s.id,
          ['expect', 'probes', i],
        );
      } else if (reported.has(id)) {
        c.report(
          'scenario-reference',
          `expect.probes names probe ${id}, whose outcome input.probes already gives; explain offers only probes not yet run.`,
          s.id,
          ['expect', 'probes', i],
        );
      }
    });
    s.expect.absent.forEach((id, i) => {
      if (s.expect.first_tier.includes(id))
        c.report('scenario-reference', `${id} is expected both in the first tier and absent; keep one.`, s.id, ['expect', 'absent', i]);
    });
  }
}

/** Every string value inside an entity, with its path. */
function* proseOf(value: unknown, path: PathSegment[] = []): Generator<[string, PathSegment[]]> {
  if (typeof value === 'string') yield [value, path];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* proseOf(value[i], [...path, i]);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) if (k !== 'kind') yield* proseOf(v, [...path, k]);
}

function checkNamedEntities(c: Checker): void {
  const sources = c.reg.all('source');
  const matchAuthor = nameMatcher(authorSurnames(sources.flatMap((s) => s.authors)));
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    for (const [text, path] of proseOf(e)) {
      const orgs = namedOrganisations(text);
      const people = matchAuthor(text);
      if (orgs.length > 0) {
        c.report(
          'named-entity',
          `${fieldName(path)} names ${orgs.join(', ')}. The atlas never names an employer, vendor, platform or person, nor gives their web address: describe it generically ("a large employer", "a job board", "an applicant-tracking system").`,
          e.id,
          path,
        );
      }
      if (people.length > 0) {
        c.report(
          'named-entity',
          `${fieldName(path)} names ${people.join(', ')}, an author of a cited source. Prose never names people: cite the source by ID in sources instead.`,
          e.id,
          path,
        );
      }
    }
  }
}

/** A voice as compared for sharing: lower case, letters and digits only, single spaces. */
const voiceKey = (v: string) =>
  v
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const ANY_ID = new RegExp(`\\b${ID_SOURCE}\\b`);
const MIN_TOPIC_VOICES = 5;

/**
 * The situation reader's content: voices (artifacts' and not-covered topics'), the not-covered topics and
 * the distinctions of the manifest. Prose in the manifest is held to the named-entity rule like entities'.
 */
function checkReaderContent(c: Checker): void {
  const m = c.reg.manifest;
  const owners = new Map<string, string>();
  const checkVoice = (voice: string, owner: string, at: (problemRule: RuleId, message: string) => void) => {
    if (ANY_ID.test(voice))
      at(
        'voice-id',
        `the voice "${voice.slice(0, 60)}…" holds an atlas ID (${ANY_ID.exec(voice)![0]}): a voice is a person's own words, never the atlas's IDs.`,
      );
    const key = voiceKey(voice);
    const first = owners.get(key);
    if (first !== undefined && first !== owner)
      at(
        'voice-shared',
        `the voice "${voice.slice(0, 60)}${voice.length > 60 ? '…' : ''}" is also a voice of ${first}. A voice teaches the reader one observation: keep it in one place, or rewrite one of them.`,
      );
    else if (first === undefined) owners.set(key, owner);
    else at('voice-shared', `the voice "${voice.slice(0, 60)}${voice.length > 60 ? '…' : ''}" is given twice in ${owner}: keep one.`);
  };
  for (const a of c.reg.all('artifact')) {
    (a.voices ?? []).forEach((v, i) => {
      checkVoice(v, a.id, (rule, message) => c.report(rule, `voices[${i}]: ${message}`, a.id, ['voices', i]));
    });
  }
  const topicIds = new Set<string>();
  (m.not_covered ?? []).forEach((t, i) => {
    const at = (rule: RuleId, message: string, path: PathSegment[] = []) =>
      c.reportManifest(rule, `not_covered[${i}] (${t.id}): ${message}`, ['not_covered', i, ...path]);
    if (topicIds.has(t.id)) at('not-covered-topic', `the ID ${t.id} is used by another topic: give each topic its own.`, ['id']);
    topicIds.add(t.id);
    if (t.voices.length < MIN_TOPIC_VOICES)
      at(
        'not-covered-topic',
        `has ${t.voices.length} voice${t.voices.length === 1 ? '' : 's'}; the reader learns a topic from at least ${MIN_TOPIC_VOICES} first-person accounts of it.`,
        ['voices'],
      );
    t.voices.forEach((v, k) => {
      checkVoice(v, `the not-covered topic ${t.id}`, (rule, message) => at(rule, `voices[${k}]: ${message}`, ['voices', k]));
    });
  });
  const distinctionIds = new Set<string>();
  const pairs = new Map<string, string>();
  (m.distinctions ?? []).forEach((d, i) => {
    const at = (message: string, path: PathSegment[] = []) =>
      c.reportManifest('distinction', `distinctions[${i}] (${d.id}): ${message}`, ['distinctions', i, ...path]);
    if (distinctionIds.has(d.id)) at(`the ID ${d.id} is used by another distinction: give each its own.`, ['id']);
    distinctionIds.add(d.id);
    const seen = new Set<string>();
    d.answers.forEach((answer, k) => {
      const e = c.reg.get(answer.artifact);
      if (!e || e.kind !== 'artifact')
        at(`answers[${k}] names ${answer.artifact}, which is not an artifact of the atlas.`, ['answers', k, 'artifact']);
      else if (e.status === 'deprecated')
        at(`answers[${k}] names ${answer.artifact}, which is deprecated: name its successor ${e.superseded_by ?? ''}.`.replace(/ :/, ':'), [
          'answers',
          k,
          'artifact',
        ]);
      if (seen.has(answer.artifact))
        at(`answers[${k}] names ${answer.artifact} a second time: one answer per observation.`, ['answers', k, 'artifact']);
      seen.add(answer.artifact);
    });
    const ids = [...seen].sort();
    for (let x = 0; x < ids.length; x++) {
      for (let y = x + 1; y < ids.length; y++) {
        const pair = `${ids[x]} ${ids[y]}`;
        const other = pairs.get(pair);
        if (other !== undefined && other !== d.id)
          at(`${ids[x]} and ${ids[y]} are already told apart by the distinction ${other}: one question per pair.`, ['answers']);
        else pairs.set(pair, d.id);
      }
    }
  });
  // Manifest prose: never an employer, vendor, platform or person.
  for (const [text, path] of proseOf({ covers: m.covers, not_covered: m.not_covered, distinctions: m.distinctions })) {
    const orgs = namedOrganisations(text);
    if (orgs.length > 0)
      c.reportManifest(
        'named-entity',
        `${fieldName(path)} names ${orgs.join(', ')}. The atlas never names an employer, vendor, platform or person: describe it generically.`,
        path,
      );
  }
}

/** Words that tell a reader a source no longer applies, for each status that means so (\s+: prose wraps). */
const NO_LONGER_APPLIES: Partial<Record<Source['status'], { what: string; says: RegExp }>> = {
  withdrawn: {
    what: 'guidance taken down',
    says: /\b(withdrawn|withdrew|withdrawal|rescinded|revoked|retracted|taken\s+down|no\s+longer\s+(in\s+force|current|posted|published|applies|valid))\b/i,
  },
  repealed: {
    what: 'law no longer in force',
    says: /\b(repealed|repeal|rescinded|revoked|struck\s+down|no\s+longer\s+(in\s+force|current|applies|valid))\b/i,
  },
};

function checkSourceStatus(c: Checker): void {
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    // Lists of source IDs (the entity's, a next step's, a law note's) are citations, not prose.
    const prose = [...proseOf(e)].filter(([, path]) => !path.includes('sources'));
    e.sources.forEach((id, i) => {
      const source = c.reg.getOf('source', id);
      const status = source && NO_LONGER_APPLIES[source.status];
      if (!source || !status) return;
      const names = (text: string) => new RegExp(`\\b${id}\\b`).test(text);
      const about = `${id} (${source.cite}), which is ${source.status} (${status.what})`;
      const fix = `Say that it was ${source.status} and must not be read as current (its finding in the bibliography says what changed), or stop relying on it.`;
      const naming = prose.filter(([text]) => names(text));
      if (naming.length === 0) {
        // Cited only in the sources list: the entity's prose must say it somewhere.
        if (!prose.some(([text]) => saysNoLongerApplies(status.says, text))) {
          c.report('source-status-unstated', `${e.id} cites ${about}, but its prose never says so. ${fix}`, e.id, ['sources', i]);
        }
        return;
      }
      // Where the prose names the source, it must say so next to the claim it supports: in the sentence that
      // names it or one next to it (not anywhere in the paragraph, where "a posting taken down" is about
      // something else).
      for (const [text, path] of naming) {
        // Said, not denied ("has not been withdrawn" says the opposite), and not presented as current.
        if (
          text
            .split(/\n\s*\n/)
            .some(
              (paragraph) =>
                names(paragraph) &&
                (!saidBeside(paragraph, names, (t) => saysNoLongerApplies(status.says, t)) || presentedAsCurrent(paragraph) !== undefined),
            )
        ) {
          c.report('source-status-unstated', `${fieldName(path)} cites ${about}, without saying so there. ${fix}`, e.id, path);
        }
      }
    });
  }
}

/** Whether each sentence of `paragraph` that names a source, or a sentence next to it, says `says`. */
function saidBeside(paragraph: string, names: (text: string) => boolean, says: (text: string) => boolean): boolean {
  // Sentences end at . ! ? followed by a space and a capital, a quote or a bracket (not "e.g. the", "U.S. law").
  const sentences = paragraph.split(/(?<=[.!?])\s+(?=[\p{Lu}"“(‘'])/u);
  const saysAt = (i: number) => sentences[i] !== undefined && says(sentences[i]!);
  return sentences.every((sentence, i) => !names(sentence) || saysAt(i) || saysAt(i - 1) || saysAt(i + 1));
}

/** Specimens, perspectives, law notes, effects and variants (schema 1.3.0). */
function checkLayers(c: Checker): void {
  const noLongerCurrent = (id: string) => {
    const s = c.reg.getOf('source', id);
    return s !== undefined && (s.status === 'withdrawn' || s.status === 'repealed') ? s : undefined;
  };
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    for (const nested of nestedSources(e)) {
      nested.sources.forEach((source, i) => {
        if (!e.sources.includes(source)) {
          c.report(
            'nested-source-unlisted',
            `${fieldName(nested.path)} cites ${source}, which ${e.id}'s sources do not list. Add ${source} to sources.`,
            e.id,
            [...nested.path, 'sources', i],
          );
        }
      });
    }
    if (e.kind === 'artifact' || e.kind === 'barrier' || e.kind === 'mechanism' || e.kind === 'intervention') {
      e.law.forEach((note, i) => {
        if (note.jurisdiction === 'us-state' && note.where === undefined) {
          c.report('law-note', `law[${i}] is state law but does not say which state: add where (e.g. where: California).`, e.id, [
            'law',
            i,
            'jurisdiction',
          ]);
        }
        if (note.remedy !== undefined && note.time_limit === undefined) {
          c.report(
            'law-note',
            `law[${i}] gives a remedy but no time limit. Legal time limits are short (months, not years): state the limit and where it runs from, or say that it must be checked and why.`,
            e.id,
            ['law', i, 'remedy'],
          );
        }
        if (note.remedy !== undefined && note.limit === undefined) {
          c.report(
            'law-limit',
            `law[${i}] gives a remedy but its time limit is not data: add limit (stated: true with length, unit, from and any extensions; or stated: false with what to do when the sources give no limit), so that the person's dates can be computed.`,
            e.id,
            ['law', i, 'remedy'],
          );
        }
        if (note.limit?.stated === true && note.time_limit !== undefined && UNSTATED_LIMIT.test(note.time_limit)) {
          c.report(
            'law-limit',
            `law[${i}]'s words say the sources give no time limit, but limit states one. Mark it stated: false, or correct the words.`,
            e.id,
            ['law', i, 'limit', 'stated'],
          );
        }
        const unknownPlaces = note.where !== undefined ? placesNamed(note.where).unknown : [];
        if (unknownPlaces.length > 0) {
          c.report(
            'law-limit',
            `law[${i}].where names ${unknownPlaces.map((x) => `"${x}"`).join(', ')}, which is not a place the atlas knows (a US state, a UK nation, an EU member state, "New York City", "Great Britain"…). Name the place as the table in src/model/places.ts does.`,
            e.id,
            ['law', i, 'where'],
          );
        }
        if (note.limit?.stated === true) {
          note.limit.extensions.forEach((x, k) => {
            for (const code of x.applies_in) {
              if (!placeOf(code))
                c.report(
                  'law-limit',
                  `law[${i}].limit.extensions[${k}].applies_in names ${code}, which is not a place code (uk-eng, us-ca, eu-de…).`,
                  e.id,
                  ['law', i, 'limit', 'extensions', k, 'applies_in'],
                );
            }
          });
        }
        const gone = note.sources.map(noLongerCurrent).find((s) => s !== undefined);
        if (gone && note.status_note === undefined) {
          c.report(
            'law-note',
            `law[${i}] cites ${gone.id} (${gone.cite}), which is ${gone.status}. Add a status_note saying what changed, so it is not read as current law.`,
            e.id,
            ['law', i, 'sources'],
          );
        } else if (gone && note.status_note !== undefined) {
          // The note must say it (undenied) for every status among its sources, and must not present it as current.
          const statuses = [...new Set(note.sources.map(noLongerCurrent).flatMap((s) => (s ? [s] : [])))];
          const unsaid = statuses.find((s) => !saysNoLongerApplies(NO_LONGER_APPLIES[s.status]!.says, note.status_note!));
          const current = presentedAsCurrent(note.status_note);
          if (unsaid) {
            c.report(
              'law-note',
              `law[${i}].status_note does not say that ${unsaid.id} (${unsaid.cite}) is ${unsaid.status}${/\b(not|never|n['’]t)\b/i.test(note.status_note) ? ' (it denies it)' : ''}. Say that it was ${unsaid.status} and what changed, so it is not read as current law.`,
              e.id,
              ['law', i, 'status_note'],
            );
          } else if (current) {
            c.report(
              'law-note',
              `law[${i}].status_note presents ${gone.id} (${gone.cite}), which is ${gone.status}, as current ("${current}"). Say that it no longer applies, and name what applies instead, if anything.`,
              e.id,
              ['law', i, 'status_note'],
            );
          }
        }
      });
    }
    if (e.kind === 'intervention' && SOURCED_EFFECT_LEVELS.includes(e.effect.level) && e.effect.sources.length === 0) {
      c.report(
        'effect-unsourced',
        `effect.level is "${e.effect.level}" but effect.sources is empty. Cite the evidence on whether the change works, or say unmeasured and what would measure it.`,
        e.id,
        ['effect', 'level'],
      );
    }
    if (e.kind === 'artifact') {
      const ids = new Set<string>();
      e.specimens.forEach((sp, i) => {
        if (ids.has(sp.id))
          c.report('specimen-tells', `specimen "${sp.id}" appears twice in ${e.id}; rename one.`, e.id, ['specimens', i, 'id']);
        ids.add(sp.id);
        const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
        sp.tells.forEach((tell, j) => {
          if (!flat(sp.text).includes(flat(tell.quote))) {
            c.report(
              'specimen-tells',
              `specimens[${i}].tells[${j}] quotes "${tell.quote}", which is not in the specimen's text. Quote the line verbatim.`,
              e.id,
              ['specimens', i, 'tells', j, 'quote'],
            );
          }
        });
      });
    }
    if (e.kind === 'mechanism') {
      e.perspectives.forEach((view, i) => {
        if (view.viewpoint === 'candidate') return;
        for (const field of ['sees', 'reads', 'does'] as const) {
          const cited = view[field]?.match(/\bE-\d{3,}\b/g);
          if (cited) {
            c.report(
              'perspective-citation',
              `perspectives[${i}].${field} (${view.viewpoint}) cites ${[...new Set(cited)].join(', ')}: the ${view.viewpoint}'s view is what that actor sees, reads and does, not a research finding. State the finding, with its citation, in the description, and keep the actor's own view here.`,
              e.id,
              ['perspectives', i, field],
            );
          }
        }
      });
    }
    if (e.kind === 'mechanism' && e.status === 'active') {
      const views = e.perspectives.map((p) => p.viewpoint);
      const repeated = views.filter((v, i) => views.indexOf(v) !== i);
      if (!views.includes('candidate') || new Set(views).size < 3 || repeated.length > 0) {
        const said = views.length === 0 ? 'none' : views.join(', ');
        c.report(
          'mechanism-perspectives',
          `${e.id} gives perspectives for ${said}. Give the candidate's and at least two others (recruiter, hiring-manager, system, intermediary, employer), each once: what each sees, reads and does.`,
          e.id,
          e.perspectives.length > 0 ? ['perspectives'] : [],
        );
      }
    }
  }
}

const hedgePattern = (words: readonly string[]) =>
  new RegExp(
    `\\b(${[...words]
      .sort((a, b) => b.length - a.length)
      .map((w) => w.replace(/ /g, '\\s+'))
      .join('|')})\\b`,
    'gi',
  );
const LIKELIHOOD = hedgePattern(HEDGE_WORDS.likelihood);
const FREQUENCY = hedgePattern(HEDGE_WORDS.frequency);
const PARAPHRASE = hedgePattern(RATE_PARAPHRASES);
/** An inline citation of a source ("(E-048)", "E-062 and E-063"). */
const CITATION = /\bE-\d{3,}\b/;

/**
 * The sentences of a piece of prose, with where each starts. A sentence ends at . ! or ? followed by space
 * and a capital letter, a digit or an opening quote or bracket, so that "e.g. the" and "U.S.C. 1324b" do not
 * end one (a missed end only joins two sentences, which can hide a finding but never invent one).
 */
function* sentencesOf(text: string): Generator<string> {
  let start = 0;
  for (const m of text.matchAll(/[.!?]["'”’)\]]*\s+(?=[\p{Lu}\p{N}"“‘([])/gu)) {
    const end = m.index! + m[0].length;
    const before = text.slice(start, m.index! + 1);
    // "e.g.", "i.e.", "No.", "U.S.C.", "Art.", "s.": an abbreviation, not the end of a sentence.
    if (/(?:\b(?:e\.g|i\.e|etc|No|Art|art|s|ss|v|vs|para|cf|Inc|Ltd|Co|St|Dr|Mr|Ms|Mrs)|\b\p{Lu}(?:\.\p{Lu})*)\.$/u.test(before)) continue;
    yield text.slice(start, end);
    start = end;
  }
  if (start < text.length) yield text.slice(start);
}

/** "usual" that is someone's own habit or the ordinary way ("your usual pace", "as usual"), not a rate. */
const OWN_HABIT = /\b(?:as|your|their|its|his|her|our|my)\s+$/i;
/** Other people's words, quoted or paraphrased (voices are accounts as people typed them): hedges there are not the atlas's claims. */
const quotedWords = (path: readonly PathSegment[]) =>
  path[0] === 'aliases' ||
  path[0] === 'voices' ||
  path[0] === 'sources' ||
  (path[0] === 'specimens' && path[2] === 'text') ||
  (path[0] === 'specimens' && path[4] === 'quote') ||
  path[0] === 'situation' ||
  (path[0] === 'law' && path[2] === 'instrument');

function checkHedges(c: Reporter): void {
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    for (const [text, path] of proseOf(e)) {
      if (quotedWords(path)) continue;
      for (const m of text.matchAll(LIKELIHOOD)) {
        // "more likely", "as likely": a comparative rate, checked as a frequency word below.
        if (/^likely$/i.test(m[1]!) && /\b(more|less|as|equally)\s+$/i.test(text.slice(0, m.index))) continue;
        c.report(
          'uncalibrated-likelihood',
          `${fieldName(path)} says "${m[1]}": the atlas never says how likely a cause or outcome is. Say what is possible ("can", "may") and what would tell them apart, or give a sourced figure.`,
          e.id,
          path,
        );
      }
      if (e.sources.length === 0) {
        for (const m of text.matchAll(FREQUENCY)) {
          c.report(
            'unsourced-frequency',
            `${fieldName(path)} says "${m[1]}", which states a rate, but ${e.id} cites no source. Cite the source for the rate, or say what is possible ("can", "may", "sometimes").`,
            e.id,
            path,
          );
        }
      } else {
        // A source somewhere in the entity does not give the rate a paraphrase claims: the sentence must cite it.
        for (const sentence of sentencesOf(text)) {
          if (CITATION.test(sentence)) continue;
          for (const m of sentence.matchAll(PARAPHRASE)) {
            if (/^usual$/i.test(m[1]!) && OWN_HABIT.test(sentence.slice(0, m.index))) continue;
            c.report(
              'unsourced-frequency',
              `${fieldName(path)} says "${m[1]}" ("${sentence.trim().replace(/\s+/g, ' ').slice(0, 90)}…"), which states a rate, but the sentence cites no source for it. Cite the source for the rate in that sentence (E-…), or say what is possible ("can", "may", "can be").`,
              e.id,
              path,
            );
          }
        }
      }
    }
  }
}

/**
 * Sources whose bibliography entry has no finding (the 2026-11-27 revision left eight such entries, with their
 * finding and how they were verified set to null). Nothing may rest on them: no sources list, law note, next
 * step or sentence of an entity may cite one.
 */
function checkSourceFindings(c: Checker, bibliography?: Map<string, BibliographyEntry>): void {
  const empty = new Set(
    c.reg
      .all('source')
      .filter((s) => s.finding === null)
      .map((s) => s.id),
  );
  if (bibliography) for (const [id, entry] of bibliography) if (entry['finding'] === null || entry['finding'] === undefined) empty.add(id);
  if (empty.size === 0) return;
  const fix = (id: string) =>
    `${id}'s bibliography entry has no finding, so nothing may rest on it. Cite an entry whose finding states the fact (a newer entry on the same law, for example), or reword to what a finding supports; where no vetted entry states it, say so plainly.`;
  for (const e of c.reg.entities) {
    if (e.kind === 'source') continue;
    for (const ref of referencesOf(e)) {
      if (ref.allowed.includes('source') && empty.has(ref.target))
        c.report('source-finding-missing', `${fieldName(ref.path)} cites ${ref.target}. ${fix(ref.target)}`, e.id, ref.path);
    }
    for (const [text, path] of proseOf(e)) {
      if (path.includes('sources')) continue;
      for (const id of new Set(text.match(/\bE-\d{3,}\b/g) ?? [])) {
        if (empty.has(id)) c.report('source-finding-missing', `${fieldName(path)} cites ${id} in its text. ${fix(id)}`, e.id, path);
      }
    }
  }
}

/** Claims that an observation establishes a cause. */
const OVERCLAIM =
  /\b(?:(?:directly|clearly|plainly)\s+(?:shows?|proves?|demonstrates?|establishes)|(?:shows?|demonstrates?|establishes)\s+that|proves?|proof\s+that|(?:the\s+)?(?:plainest|clearest|surest|strongest)\s+sign|a\s+sure\s+sign)\b/gi;
/** Words just before a claim that deny it ("does not show that", "nothing here proves") or make it a possibility ("can show that"). */
const DENIED = /\b(?:not|never|no|nothing|cannot|neither|nor|without)\b[^.;:,()]{0,14}$|n['’]t\s+$|\b(?:can|may|might|could)\s+$/i;

/** Emission notes, probe outcome notes and summaries say what an observation is consistent with, never that it proves a cause. */
function checkOverclaims(c: Reporter): void {
  for (const e of c.reg.entities) {
    const places: Array<[string | undefined, PathSegment[]]> = [];
    // An artifact's summary says what is seen ("a job board shows that…"); a mechanism's or pattern's says what it means.
    if (e.kind === 'mechanism' || e.kind === 'pattern') places.push([e.summary, ['summary']]);
    if (e.kind === 'mechanism')
      e.emits.forEach((em, i) => {
        places.push([em.note, ['emits', i, 'note']]);
      });
    if (e.kind === 'artifact')
      e.probes.forEach((p, i) => {
        p.outcomes.forEach((o, j) => {
          places.push([o.note, ['probes', i, 'outcomes', j, 'note']]);
        });
      });
    for (const [text, path] of places) {
      if (text === undefined) continue;
      for (const m of text.matchAll(OVERCLAIM)) {
        if (DENIED.test(text.slice(0, m.index))) continue;
        c.report(
          'causal-overclaim',
          `${fieldName(path)} says "${m[0]}": an observation does not establish its cause, and other mechanisms can produce it too. Say what it is consistent with ("is consistent with", "fits", "means someone thought…"), or what it does not show.`,
          e.id,
          path,
        );
      }
    }
  }
}

/** The employer's own word, as a probe outcome reports it, unless it comes as a document. */
const SAY_SO =
  /\b(?:they|the\s+(?:employer|recruiter|hiring\s+manager|company|agency|interviewer|contact|panel|hiring\s+office|university|department|screening\s+provider)|HR|a\s+reply|the\s+reply|someone)\s+(?:say|says|said|tell|tells|told|confirm|confirms|confirmed|explain|explains|explained|state|states|stated|assure|assures|assured|insist|insists|insisted|reply|replies|replied)\b|^\s*(?:you\s+are\s+|you['’]re\s+)?told\b/i;
/** Words that make the employer's word a document: a written answer, a record, published policy. ("The
 * documents accepted" names the papers asked for, not evidence, so a bare "documents" does not count.) */
const DOCUMENT =
  /\b(?:in\s+writing|written|the\s+records?|a\s+record|the\s+data|data\s+show|published|a\s+copy|the\s+report|documented|a\s+document|the\s+notice)\b/i;

function checkDiagnosticLogic(c: Checker): void {
  const mechanisms = c.reg.all('mechanism');
  const groundOf = new Map(
    mechanisms.map((m) => [m.id, DISCRIMINATION_GROUNDS.find((g) => (g.families as readonly string[]).includes(m.family))]),
  );
  const isDiscrimination = (id: string) => groundOf.get(id) !== undefined;
  const artifacts = c.reg.all('artifact');

  for (const a of artifacts) {
    // An exclusion of a discrimination mechanism on the employer's say-so.
    a.probes.forEach((probe, p) => {
      probe.outcomes.forEach((o, j) => {
        const excluded = o.excludes.filter(isDiscrimination);
        if (excluded.length === 0 || !SAY_SO.test(o.observation) || DOCUMENT.test(o.observation)) return;
        c.report(
          'exclusion-on-say-so',
          `probe ${probe.id}, outcome ${o.id}: the observation is the employer's own word ("${o.observation.trim().replace(/\s+/g, ' ').slice(0, 80)}…"), yet it excludes ${excluded.join(', ')}. An exclusion removes a mechanism from the whole case, and discrimination is seldom admitted: exclude nothing here and keep the note, or make the outcome a document (a record, a written answer, a published policy).`,
          a.id,
          ['probes', p, 'outcomes', j, 'excludes'],
        );
      });
    });
  }

  // A discrimination law note with no mechanism of its ground in either tier of the artifact's explanation.
  const stageOf = new Map(
    c.reg
      .all('barrier')
      .filter(isActive)
      .map((b) => [b.id, b.stage]),
  );
  const activeMechanisms = mechanisms.filter(isActive);
  for (const a of artifacts.filter(isActive)) {
    const stages = new Set<string>(a.stages);
    const reaching = activeMechanisms.filter(
      (m) => m.emits.some((em) => em.artifact === a.id) || m.operates_at.some((b) => stages.has(stageOf.get(b) ?? '')),
    );
    const grounds = new Set(reaching.map((m) => groundOf.get(m.id)).filter((g) => g !== undefined));
    a.law.forEach((note, i) => {
      const words = `${note.instrument} ${note.says} ${note.remedy ?? ''}`;
      if (!DISCRIMINATION_LAW.test(words)) return;
      const named = DISCRIMINATION_GROUNDS.filter((g) => g.words !== undefined && g.words.test(words));
      const ok = named.length === 0 ? grounds.size > 0 : [...grounds].some((g) => g.words === undefined || named.includes(g));
      if (ok) return;
      const wanted =
        named.length === 0 ? 'any discrimination mechanism' : `a mechanism of ${named.map((g) => g.ground).join(' or ')} discrimination`;
      c.report(
        'discrimination-law-unreached',
        `law[${i}] (${note.instrument}) is about ${named.length === 0 ? 'discrimination' : named.map((g) => g.ground).join(', ')} discrimination, but no ${wanted.replace(/^(any|a) /, '')} emits ${a.id} or acts at its stages, so no explanation of it offers that cause. Let the mechanism the note rests on emit ${a.id} (as noise or distortion, if it only sometimes does), or move the note where that mechanism acts.`,
        a.id,
        ['law', i],
      );
    });
  }

  // An alias of one artifact that is another artifact's title.
  const normal = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const titles = new Map(artifacts.map((a) => [normal(a.title), a.id]));
  for (const a of artifacts) {
    a.aliases.forEach((alias, i) => {
      const owner = titles.get(normal(alias));
      if (owner !== undefined && owner !== a.id) {
        c.report(
          'alias-title-clash',
          `aliases[${i}] "${alias}" is the title of ${owner}, so those words would be read as ${a.id}. Remove the alias, or word it so that it names only this observation.`,
          a.id,
          ['aliases', i],
        );
      }
    });
  }
}

/** A law note about discrimination (the grounds it names are read from DISCRIMINATION_GROUNDS). */
const DISCRIMINATION_LAW =
  /\b(?:discriminat\w*|Title\s+VII|Americans\s+with\s+Disabilities\s+Act|Age\s+Discrimination|ADEA|ADA|Equality\s+Act|Human\s+Rights\s+(?:Act|Law))\b/i;

/** The manifest's "not cited, and why" list: entries of its revision, each once, with a reason, none cited. */
function checkUncited(c: Checker, bibliography?: Map<string, BibliographyEntry>): void {
  const list = c.reg.manifest.uncited;
  if (!list) return;
  const where = { file: 'content/atlas.yaml' };
  const num = (id: string) => Number(id.slice(2));
  if (num(list.from) > num(list.to)) {
    c.problems.push(
      problem(
        'uncited-source',
        `uncited runs from ${list.from} to ${list.to}, which is backwards. Give the revision's first entry as from and its last as to.`,
        where,
      ),
    );
  }
  const cited = new Set(
    c.reg.entities.flatMap((e) =>
      e.kind === 'source' || !isActive(e)
        ? []
        : referencesOf(e)
            .filter((r) => r.allowed.includes('source'))
            .map((r) => r.target),
    ),
  );
  const seen = new Set<string>();
  for (const { id } of list.sources) {
    if (seen.has(id)) c.problems.push(problem('uncited-source', `uncited lists ${id} twice; keep one entry with its reason.`, where));
    seen.add(id);
    if (num(id) < num(list.from) || num(id) > num(list.to)) {
      c.problems.push(
        problem(
          'uncited-source',
          `uncited lists ${id}, which is outside the revision it accounts for (${list.from} to ${list.to}). Remove it, or widen the range.`,
          where,
        ),
      );
    }
    if (bibliography && !bibliography.has(id)) {
      c.problems.push(
        problem('uncited-source', `uncited lists ${id}, which is not in the shared bibliography. List only vetted entries.`, where),
      );
    }
    if (cited.has(id)) {
      c.problems.push(
        problem('uncited-source', `uncited lists ${id} as not cited, but the atlas cites it. Remove it from the list.`, where),
      );
    }
  }
}

function checkBibliography(c: Checker, bibliography: Map<string, BibliographyEntry>): void {
  for (const s of c.reg.all('source')) {
    const entry = bibliography.get(s.id);
    if (!entry) {
      c.report(
        'source-bibliography',
        `${s.id} is not in the shared bibliography. Cite only vetted sources: copy an entry from ../shared/bibliography.yaml, or remove this file.`,
        s.id,
      );
      continue;
    }
    const expected = toSourceRecord(entry);
    const { kind: _kind, ...actual } = s;
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    const differing = keys.filter((k) => !isDeepStrictEqual((actual as Record<string, unknown>)[k], expected[k]));
    if (differing.length > 0) {
      c.report(
        'source-bibliography',
        `${s.id} differs from the shared bibliography in: ${differing.join(', ')}. Sources are verbatim copies; re-copy it (npm run sources:sync).`,
        s.id,
        [differing[0]!],
      );
    }
  }
}

function checkCoverage(c: Checker): void {
  const active = <T extends Entity>(list: readonly T[]) => list.filter(isActive);
  const mechanisms = active(c.reg.all('mechanism'));
  for (const family of MECHANISM_FAMILIES) {
    if (!mechanisms.some((m) => m.family === family)) {
      c.report(
        'family-uncovered',
        `No active mechanism covers the family "${family}". The atlas must hold at least one mechanism of every family in DESIGN.md.`,
      );
    }
  }
  const activeIncoming = (id: string, relation: 'targets' | 'emits' | 'cites') =>
    c.reg.incoming(id, relation).some((edge) => {
      const from = c.reg.get(edge.source);
      return from !== undefined && isActive(from);
    });
  for (const m of mechanisms) {
    if (!activeIncoming(m.id, 'targets')) {
      c.report(
        'mechanism-untargeted',
        `No intervention targets ${m.id}. Add it to the targets of an intervention that weakens it, or write one.`,
        m.id,
      );
    }
  }
  for (const a of active(c.reg.all('artifact'))) {
    const emitters = new Set(
      c.reg
        .incoming(a.id, 'emits')
        .filter((edge) => {
          const from = c.reg.get(edge.source);
          return from !== undefined && isActive(from);
        })
        .map((edge) => edge.source),
    );
    if (emitters.size === 0) {
      c.report(
        'artifact-orphan',
        `No mechanism emits ${a.id}, so no explanation can reach it. Add it to the emits of the mechanisms that produce it.`,
        a.id,
      );
    } else if (emitters.size === 1) {
      c.report(
        'artifact-emitters',
        `Only ${[...emitters][0]} emits ${a.id}. An observation has more than one possible cause: add it to the emits of the other mechanisms its prose names.`,
        a.id,
      );
    } else if (emitters.size > MAX_FIRST_TIER) {
      c.report(
        'artifact-emitters',
        `${emitters.size} mechanisms emit ${a.id}; explained alone, its first tier would list them all. Keep at most ${MAX_FIRST_TIER}: an emission says the mechanism produces this observation, not that it acts at the same stage.`,
        a.id,
      );
    }
    const narrowing = a.probes.some((p) => p.agency === 'candidate' && p.outcomes.some((o) => o.excludes.length > 0));
    if (!narrowing) {
      c.report(
        'artifact-candidate-narrowing',
        `No probe of ${a.id} that the candidate can run has an outcome that excludes a mechanism. Add one (alone, or through a lawful right such as a data-access request), with a note justifying the exclusion.`,
        a.id,
        ['probes'],
      );
    }
    if (a.next_steps.length === 0) {
      c.report(
        'artifact-next-steps',
        `${a.id} says nothing about what the candidate can still do. Add next_steps that hold whatever the cause.`,
        a.id,
      );
    }
    a.next_steps.forEach((step, i) => {
      step.sources.forEach((source, j) => {
        if (!a.sources.includes(source)) {
          c.report(
            'next-step-source-unlisted',
            `Next step ${step.id} of ${a.id} relies on ${source}, which the artifact's sources do not list. Add ${source} to sources.`,
            a.id,
            ['next_steps', i, 'sources', j],
          );
        }
      });
    });
  }
  for (const s of c.reg.all('source')) {
    if (!activeIncoming(s.id, 'cites')) {
      c.report('source-unused', `Nothing cites ${s.id}. Cite it where it supports a claim, or remove the file.`, s.id);
    }
  }
}
