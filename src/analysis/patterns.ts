// Patterns: which recurring configurations the given artifacts trigger (every required artifact seen),
// partly match (some seen), or share a mechanism with.
import type { Pattern } from '../model/schemas.ts';
import type { Registry } from '../registry/registry.ts';
import { resolveEntity, sortedIds, successorOf } from './resolve.ts';
import type { PatternMatch, PatternMatches } from './schemas.ts';

const ORDER: Record<PatternMatch['match'], number> = { triggered: 0, partial: 1, mechanism: 2, listed: 3 };

export function patternMatch(p: Pattern, match: PatternMatch['match'], given: ReadonlySet<string>): PatternMatch {
  return {
    id: p.id,
    title: p.title,
    summary: p.summary,
    shape: p.shape,
    evidence_level: p.evidence_level,
    match,
    trigger_rule: p.trigger_rule,
    required_artifacts: p.required_artifacts,
    present: p.required_artifacts.filter((a) => given.has(a)),
    missing: p.required_artifacts.filter((a) => !given.has(a)),
    compatible_mechanisms: p.compatible_mechanisms,
    establishes: p.establishes,
    non_inferences: p.non_inferences,
  };
}

/**
 * Active patterns matching the artifacts (triggered or partial) or sharing one of the mechanisms, in
 * that order, by ID within each group. With neither given, every active pattern is listed.
 */
export function matchPatterns(reg: Registry, artifactIds: readonly string[], mechanismIds: readonly string[] = []): PatternMatch[] {
  const given = new Set(artifactIds);
  const mechanisms = new Set(mechanismIds);
  // A pattern that requires a given artifact or names a given mechanism has an `instantiates` edge from
  // it: with something given, only those patterns are read, not every pattern of the atlas.
  const listAll = given.size === 0 && mechanisms.size === 0;
  const reached = listAll
    ? reg.all('pattern')
    : sortedIds([...given, ...mechanisms].flatMap((id) => reg.outgoing(id, 'instantiates').map((e) => e.target))).flatMap(
        (id) => reg.getOf('pattern', id) ?? [],
      );
  const found: PatternMatch[] = [];
  for (const p of reached) {
    if (p.status !== 'active') continue;
    const present = p.required_artifacts.filter((a) => given.has(a)).length;
    let match: PatternMatch['match'] | undefined;
    if (listAll) match = 'listed';
    else if (present === p.required_artifacts.length) match = 'triggered';
    else if (present > 0) match = 'partial';
    else if (p.compatible_mechanisms.some((m) => mechanisms.has(m))) match = 'mechanism';
    if (match) found.push(patternMatch(p, match, given));
  }
  return found.sort((a, b) => ORDER[a.match] - ORDER[b.match]);
}

export interface PatternsInput {
  artifacts?: readonly string[];
  mechanisms?: readonly string[];
}

/** find_patterns. Deprecated artifacts count as their successors. */
export function findPatterns(reg: Registry, input: PatternsInput = {}): PatternMatches {
  const artifacts = sortedIds(
    (input.artifacts ?? []).map((id) => {
      const a = resolveEntity(reg, id, ['artifact'], 'find_patterns');
      return (successorOf(reg, a) ?? a).id;
    }),
  );
  const mechanisms = sortedIds((input.mechanisms ?? []).map((id) => resolveEntity(reg, id, ['mechanism'], 'find_patterns').id));
  return { registry_version: reg.version, artifacts, mechanisms, patterns: matchPatterns(reg, artifacts, mechanisms) };
}
