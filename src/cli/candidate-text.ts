// `hoba explain`'s default text: the candidate view (analysis/candidate.ts) as a terminal reads it. What
// the facts can and cannot mean, the one thing worth checking, what to do now and by when; then the
// possible explanations, grouped, one line each; the deadlines when the person gave a place or a date;
// the notice. No ID, slug or vocabulary word: --full and --json keep everything.
import { personDeadlines } from '../analysis/deadlines.ts';
import type { ExplainResult } from '../analysis/schemas.ts';
import { colour } from './io.ts';
import { wrap } from './text.ts';

export interface CandidateTextOptions {
  width: number;
}

/** The lines a person reads first, as plain text (the test of "the default text" reads this). */
export function renderCandidate(r: ExplainResult, { width }: CandidateTextOptions): string {
  const out: string[] = [];
  const c = r.candidate;
  const para = (text: string, indent = '  ', first = indent) => out.push(wrap(text, indent, first, width));
  const dim = (text: string, indent = '  ', first = indent) => out.push(colour.dim(wrap(text, indent, first, width)));
  const heading = (text: string) => out.push('', colour.bold(wrap(text, '', '', width)));

  // What was analysed, by name.
  if (r.input.scenario) para(`Scenario: ${r.input.scenario.title}`, '  ', '');
  if (r.input.from_text) {
    para(`You wrote: "${r.input.from_text.text}"`, '  ', '');
    const t = r.input.from_text;
    for (const m of t.matched) {
      para(`Read as: ${m.title}.`, '  ', '');
      if (m.quotes.length > 0)
        dim(
          `${m.from === 'message' ? 'From the message' : 'From your words'}: ${m.quotes.map((q) => `"${q}"`).join(' and ')}`,
          '    ',
          '  ',
        );
      // One answer of a distinction, chosen without a question: the question, and how to choose another.
      if (m.check) {
        dim(`To check: ${m.check.ask}`, '    ', '  ');
        for (const o of m.check.options) dim(`If "${o.answer}": ${o.title} (answer with --pick ${o.artifact})`, '      ', '    ');
      }
    }
    for (const d of t.denied) dim(`Set aside, because you said it did not happen: ${d.title} ("${d.quote}").`, '  ', '');
    for (const q of t.questions) {
      heading(q.ask);
      q.options.forEach((o, i) => {
        para(`${i + 1}. ${o.answer}: answer with --pick ${o.artifact}`, '     ', '  ');
      });
    }
    for (const m of t.message_tells) {
      heading(`In the message you pasted: ${m.artifact.title}`);
      for (const x of m.tells) {
        para(`"${x.line}"`, '      ', '    - ');
        dim(x.reading, '      ');
      }
    }
  } else {
    for (const a of r.hard_facts.artifacts)
      para(`${r.input.scenario ? 'What happened' : 'You saw'}: ${(a.successor ?? a).title}`, '  ', '');
  }
  for (const o of r.hard_facts.observed) para(`You found: ${o.observation.trim()}`, '  ', '');

  if (c.note) out.push(colour.yellow(wrap(`Note: ${c.note}`, '  ', '', width)));

  heading(c.heading);
  for (const p of c.lead) para(p);

  if (c.groups.length > 0) {
    heading('What could explain it');
    for (const g of c.groups) {
      out.push(colour.bold(wrap(g.label, '  ', '  ', width)));
      for (const i of g.items) para(`${i.title}. ${i.who}`, '      ', '    - ');
      for (const x of g.relevant_if ?? []) dim(x, '    ');
    }
    if (c.also) dim(c.also);
  }

  const deadlines = r.agency.deadlines;
  if (deadlines.length > 0) {
    if (r.input.where !== undefined || r.input.on !== undefined) {
      heading('Your deadlines (not legal advice)');
      for (const { text } of personDeadlines(deadlines)) para(text, '      ', '    - ');
      if (c.legal) dim(c.legal);
    } else {
      heading('Deadlines');
      para(
        'The law may give you a route, and its time limits are short. To see them as dates, add the day it happened and where you are, for example --on 2026-11-20 --where England (or California, us-ca, eu-de).',
      );
    }
  }

  out.push('');
  dim(c.notice, '', '');
  dim('For every detail (the sources, the checks and what each result would tell, the law), run the same command with --full.', '', '');
  return out.join('\n') + '\n';
}
