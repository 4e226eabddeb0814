// Synthetic prose from a small fixed vocabulary of ordinary words. Words are drawn with Zipf
// frequencies (the first words of each list are the common ones), so the search index sees common and
// rare terms as in real text. No list holds a name: the validator's named-entity rule must stay quiet,
// and none of these words is one of the organisation names it looks for (e.g. "lever", "workday").
import { zipf, type Random } from './random.ts';

const NOUNS = `application candidate role review process interview stage decision team recruiter manager
offer posting screen notice reply message request schedule rubric question answer budget requisition
deadline criterion requirement experience skill record signal pattern outcome result reason policy
workload queue backlog portal filter score rating panel round assessment task sample exercise feedback
summary status update delay pause freeze approval level title range salary band history gap reference
check contact referral network channel source pool shortlist list form field keyword phrase document
file profile summary section detail habit norm rule standard measure audit report trend cycle month
week day moment window period term contract position opening vacancy employer department unit group
workplace office location region country permit visa schedule calendar slot meeting call conversation
note comment draft version change shift move step path route gate barrier link chain loop layer
threshold limit cost risk benefit effect impact evidence study survey finding estimate share rate
number count total average margin spread variance error noise bias preference judgement impression
expectation assumption belief concern doubt worry confidence trust fairness clarity consistency
practice method tool system software model ranking order priority weight factor feature signal`
  .split(/\s+/)
  .filter((w, i, all) => all.indexOf(w) === i);

const VERBS = `delays filters ranks reviews rejects holds moves changes shapes limits blocks hides masks
amplifies narrows widens lowers raises favours penalises ignores misreads rewards reduces extends
repeats cancels pauses resumes reopens closes posts reposts schedules reschedules drops keeps flags
scores weighs compares matches records reports signals suggests indicates reflects affects follows
precedes replaces removes adds requires expects prefers avoids overlooks stresses tests measures checks
confirms contradicts obscures softens sharpens slows speeds stalls redirects absorbs outweighs`.split(/\s+/);

const ADJECTIVES = `late early slow quick formal informal generic specific vague clear hidden visible internal
external automated manual short long narrow broad strict loose common rare heavy light senior junior
written spoken recorded unrecorded partial complete stale fresh recent prior final initial open closed
busy quiet uneven steady shifting fixed local remote standard unusual ordinary careful hasty brief
detailed polite blunt silent repeated single several minor major costly cheap fair unfair consistent
inconsistent structured unstructured implicit explicit indirect direct stable unstable limited wide`.split(/\s+/);

const ADVERBS = `visibly plainly steadily sometimes quietly openly slowly quickly repeatedly gradually partly
largely mostly loosely directly indirectly consistently unevenly briefly eventually`.split(/\s+/);

const PREPOSITIONS = ['at', 'before', 'after', 'during', 'within', 'across', 'behind', 'beyond', 'through', 'under', 'for', 'from'];

/** Every word prose may contain (lower case), for checks such as "no author surname is an ordinary word". */
export const VOCABULARY: ReadonlySet<string> = new Set([...NOUNS, ...VERBS, ...ADJECTIVES, ...ADVERBS, ...PREPOSITIONS]);

/** A word with its indefinite article. */
const a = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

const SENTENCES: ReadonlyArray<(w: Words) => string> = [
  (w) => `The ${w.adj()} ${w.noun()} ${w.verb()} the ${w.noun()} ${w.prep()} the ${w.noun()}`,
  (w) => `${a(w.adj())} ${w.noun()} ${w.adverb()} ${w.verb()} the ${w.adj()} ${w.noun()}`,
  (w) => `When the ${w.noun()} ${w.verb()} the ${w.noun()}, the ${w.noun()} ${w.verb()} the ${w.noun()} ${w.prep()} the ${w.noun()}`,
  (w) => `Each ${w.noun()} ${w.verb()} ${a(w.adj())} ${w.noun()}, and the ${w.noun()} ${w.adverb()} ${w.verb()} the ${w.noun()}`,
  (w) => `The ${w.noun()} ${w.prep()} the ${w.adj()} ${w.noun()} ${w.verb()} the ${w.noun()} ${w.adverb()}`,
  (w) => `This ${w.noun()} ${w.verb()} the ${w.noun()} but not the ${w.adj()} ${w.noun()} ${w.prep()} the ${w.noun()}`,
];

/** Word draws for one generator: each list with its own Zipf law. */
class Words {
  constructor(private readonly random: Random) {}
  private from(list: readonly string[]): string {
    return list[zipf(list.length, 1).draw(this.random)]!;
  }
  noun = () => this.from(NOUNS);
  verb = () => this.from(VERBS);
  adj = () => this.from(ADJECTIVES);
  adverb = () => this.from(ADVERBS);
  prep = () => this.random.pick(PREPOSITIONS);
}

const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export class Prose {
  private readonly words: Words;
  constructor(private readonly random: Random) {
    this.words = new Words(random);
  }

  /** One sentence; `cite` (IDs) is added in parentheses before the full stop. */
  sentence(cite: readonly string[] = []): string {
    const body = this.random.pick(SENTENCES)(this.words);
    return `${capitalise(body)}${cite.length > 0 ? ` (${cite.join(', ')})` : ''}.`;
  }

  /**
   * Sentences adding up to about `chars` characters. The IDs in `cite` are spread over them, one
   * sentence each, the way the atlas cites a source beside the claim it supports.
   */
  text(chars: number, cite: readonly string[] = []): string {
    const out: string[] = [];
    let length = 0;
    let next = 0;
    while (length < chars || next < cite.length) {
      const ids = next < cite.length && (this.random.chance(0.5) || length >= chars) ? [cite[next++]!] : [];
      const s = this.sentence(ids);
      out.push(s);
      length += s.length + 1;
    }
    return out.join(' ');
  }

  /** Paragraphs separated by a blank line, with `cite` spread over them. */
  paragraphs(count: number, chars: number, cite: readonly string[] = []): string {
    const per = Math.ceil(cite.length / count);
    return Array.from({ length: count }, (_, i) => this.text(chars, cite.slice(i * per, (i + 1) * per))).join('\n\n');
  }

  /** A title of two to five words, capitalised like the atlas's titles. */
  title(): string {
    const w = this.words;
    const shapes = [
      () => `${w.adj()} ${w.noun()}`,
      () => `${w.adj()} ${w.noun()} ${w.noun()}`,
      () => `${w.noun()} ${w.verb()} the ${w.noun()}`,
      () => `${w.adj()} ${w.noun()} ${w.prep()} ${w.noun()}`,
      () => `${w.noun()} ${w.noun()} ${w.prep()} the ${w.adj()} ${w.noun()}`,
    ];
    return capitalise(this.random.pick(shapes)());
  }

  /** A short lower-case phrase (an alias). */
  phrase(): string {
    const w = this.words;
    return this.random.chance(0.5) ? `${w.adj()} ${w.noun()}` : `${w.noun()} ${w.verb()} ${w.noun()}`;
  }

  /** A first-person account, told the way people post; `n` makes it unique. */
  voice(n: number): string {
    const w = this.words;
    return `I ${w.verb()} the ${w.adj()} ${w.noun()} and then the ${w.noun()} ${w.verb()} my ${w.noun()}, ${n} days in. ${this.sentence()}`;
  }

  /** A statement of what something does not establish. */
  nonInference(): string {
    const w = this.words;
    return `It does not establish that the ${w.noun()} ${w.verb()} the ${w.adj()} ${w.noun()}, nor that the ${w.noun()} ${w.verb()} it. ${this.sentence()}`;
  }

  /** Two lower-case words joined by a hyphen, for probe and outcome IDs. */
  slugWords(): string {
    return `${this.words.verb()}-${this.words.noun()}`;
  }

  noun(): string {
    return this.words.noun();
  }
}

/** Lower-case words joined by hyphens, from a title. */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
