// What the analyze page analyses, and how it is kept in the address's fragment so that a link reproduces
// it: #a=A-001,A-009&stage=team&p=probe:outcome,… or #scenario=S-003&p=… or #text=…&message=…&pick=A-046&p=…
// (the words, a pasted message, and the answers to the reader's questions), with &on=date and &where=place
// when the person gave them. The fragment is never sent to a server. Pure functions: tested without a browser.
import type { ExplainInput, ProbeOutcomeInput } from '../../../analysis/explain.ts';

export interface AnalyzeState {
  /** Exactly one of artifacts, scenario and text. */
  artifacts?: string[];
  scenario?: string;
  text?: string;
  /** A message the person pasted (with or without text). */
  message?: string;
  /** Answers to the reader's questions: the observation chosen for each. */
  picks?: string[];
  stage?: string;
  /** Probe outcomes recorded on the page (for a scenario, added to its own). */
  probes: ProbeOutcomeInput[];
  /** The date it happened (YYYY-MM-DD) and where the person is (a place code): the deadlines become dates. */
  on?: string;
  where?: string;
}

// IDs, stages, probe and outcome IDs are slugs; anything else in them is escaped.
const slug = (s: string) => encodeURIComponent(s);

/** The fragment (without "#") that reproduces a state. */
export function fragmentOf(s: AnalyzeState): string {
  const parts: string[] = [];
  if (s.scenario !== undefined) parts.push(`scenario=${slug(s.scenario)}`);
  else if (s.text !== undefined || s.message !== undefined) {
    if (s.text !== undefined) parts.push(`text=${encodeURIComponent(s.text)}`);
    if (s.message !== undefined) parts.push(`message=${encodeURIComponent(s.message)}`);
    if (s.picks !== undefined && s.picks.length > 0) parts.push(`pick=${s.picks.map(slug).join(',')}`);
  } else parts.push(`a=${(s.artifacts ?? []).map(slug).join(',')}`);
  if (s.stage) parts.push(`stage=${slug(s.stage)}`);
  if (s.probes.length > 0) parts.push(`p=${s.probes.map((p) => `${slug(p.probe)}:${slug(p.outcome)}`).join(',')}`);
  if (s.on) parts.push(`on=${slug(s.on)}`);
  if (s.where) parts.push(`where=${slug(s.where)}`);
  return parts.join('&');
}

function decode(v: string): string | undefined {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The state a fragment describes (with or without "#"), or undefined when it names nothing to analyse. */
export function stateOfFragment(fragment: string): AnalyzeState | undefined {
  const params = new Map<string, string[]>();
  for (const part of fragment.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const value = decode(part.slice(eq + 1));
    if (value === undefined) continue;
    const key = part.slice(0, eq);
    params.set(key, [...(params.get(key) ?? []), value]);
  }
  const one = (k: string) => params.get(k)?.at(-1)?.trim();
  const list = (k: string) =>
    (params.get(k) ?? [])
      .flatMap((v) => v.split(','))
      .map((x) => x.trim())
      .filter((x) => x !== '');
  const probes = list('p').flatMap((p) => {
    const colon = p.indexOf(':');
    return colon > 0 && colon < p.length - 1 ? [{ probe: p.slice(0, colon), outcome: p.slice(colon + 1) }] : [];
  });
  const stage = one('stage') || undefined;
  const on = one('on') || undefined;
  const where = one('where') || undefined;
  const base = { ...(stage ? { stage } : {}), probes, ...(on ? { on } : {}), ...(where ? { where } : {}) };
  const scenario = one('scenario');
  if (scenario) return { scenario, ...base };
  const text = params.get('text')?.at(-1);
  const message = params.get('message')?.at(-1);
  const hasText = text !== undefined && text.trim() !== '';
  const hasMessage = message !== undefined && message.trim() !== '';
  if (hasText || hasMessage) {
    const picks = list('pick');
    return { ...(hasText ? { text } : {}), ...(hasMessage ? { message } : {}), ...(picks.length > 0 ? { picks } : {}), ...base };
  }
  const artifacts = list('a');
  if (artifacts.length > 0) return { artifacts, ...base };
  return undefined;
}

/** The explain() input of a state. */
export function explainInputOf(s: AnalyzeState): ExplainInput {
  const rest = {
    ...(s.stage ? { stage: s.stage } : {}),
    probes: s.probes,
    ...(s.on ? { on: s.on } : {}),
    ...(s.where ? { where: s.where } : {}),
  };
  if (s.scenario !== undefined) return { scenario: s.scenario, ...rest };
  if (s.text !== undefined || s.message !== undefined) {
    return {
      ...(s.text !== undefined ? { text: s.text } : {}),
      ...(s.message !== undefined ? { message: s.message } : {}),
      ...(s.picks && s.picks.length > 0 ? { picks: s.picks } : {}),
      ...rest,
    };
  }
  return { artifacts: s.artifacts ?? [], ...rest };
}
