// The atlas never names an employer, vendor, platform or person. These are the names the validator checks
// prose against: organisations and people that hiring discussions commonly name, web domains, plus (at run
// time) the surnames of every person who authored a source, since prose must cite sources by ID, not by
// author.

/**
 * Names that no ordinary English word shares. They are matched in any case ("linkedin", "LINKEDIN") and
 * in any form: possessive ("Google's"), hyphenated ("Google-style", "ex-Google").
 */
const DISTINCT_NAMES = [
  // Job boards and professional networks.
  'LinkedIn',
  'Glassdoor',
  'ZipRecruiter',
  'CareerBuilder',
  'SimplyHired',
  'Snagajob',
  'Wellfound',
  'AngelList',
  'FlexJobs',
  'Upwork',
  'Fiverr',
  'Naukri',
  'StepStone',
  'Totaljobs',
  'Jooble',
  'Adzuna',
  'Craigslist',
  'Hirect',
  // Applicant-tracking, assessment and HR-tech vendors.
  'iCIMS',
  'Taleo',
  'SuccessFactors',
  'SmartRecruiters',
  'Jobvite',
  'BambooHR',
  'Bamboo HR',
  'HireVue',
  'Pymetrics',
  'Teamtailor',
  'Personio',
  'Recruitee',
  'JazzHR',
  'Breezy HR',
  'Beamery',
  'Avature',
  'PeopleSoft',
  'HiredScore',
  'Ashby',
  'HackerRank',
  'Codility',
  'CodeSignal',
  'LeetCode',
  'Textio',
  'Checkr',
  'HireRight',
  'GoodHire',
  'Harver',
  'Paycom',
  'Paylocity',
  'Kronos',
  'Ceridian',
  'Dayforce',
  'ADP',
  'UKG',
  'Zoho',
  'Lightcast',
  'Burning Glass',
  'Clarify Capital',
  'ResumeBuilder',
  'SHRM',
  // Staffing firms.
  'Randstad',
  'Adecco',
  'ManpowerGroup',
  'Korn Ferry',
  'Robert Half',
  'Allegis',
  'Aerotek',
  'Kelly Services',
  // Large employers.
  'Google',
  'Microsoft',
  'Facebook',
  'Instagram',
  'WhatsApp',
  'Netflix',
  'Tesla',
  'SpaceX',
  'OpenAI',
  'Salesforce',
  'IBM',
  'Nvidia',
  'Cisco',
  'Airbnb',
  'Lyft',
  'Twitter',
  'TikTok',
  'ByteDance',
  'Alibaba',
  'Tencent',
  'Baidu',
  'Huawei',
  'Samsung',
  'Infosys',
  'Wipro',
  'Capgemini',
  'Siemens',
  'Unilever',
  'Procter & Gamble',
  'Nestlé',
  'Toyota',
  'Shopify',
  'Spotify',
  'Coinbase',
  'Palantir',
  'Walmart',
  'Costco',
  'Starbucks',
  'McDonald',
  'FedEx',
  'Home Depot',
  'Accenture',
  'Deloitte',
  'PwC',
  'PricewaterhouseCoopers',
  'KPMG',
  'Ernst & Young',
  'McKinsey',
  'Boston Consulting Group',
  'Goldman Sachs',
  'JPMorgan',
  'JP Morgan',
  'Morgan Stanley',
  'Wells Fargo',
  'Bank of America',
  'Citigroup',
  'iTutorGroup',
  // Generative-AI products, AI-text detectors and proctoring products (candidates name them: "ChatGPT
  // applications", "flagged by the proctoring software"; the atlas says "a chatbot", "proctoring software").
  'ChatGPT',
  'GPT',
  'Midjourney',
  'DeepSeek',
  'Grammarly',
  'QuillBot',
  'Turnitin',
  'GPTZero',
  'Proctorio',
  'ProctorU',
  'Honorlock',
  'Respondus',
  'Examity',
  // Publishers that hiring stories are attributed to.
  'Reuters',
  'Wall Street Journal',
  'Bloomberg',
  'Forbes',
  // Famous CEOs, founders and writers (surnames alone only where they are no ordinary word: "Cook",
  // "Gates", "Jobs" and "Page" are, so only the full names count).
  'Elon Musk',
  'Bezos',
  'Zuckerberg',
  'Pichai',
  'Nadella',
  'Tim Cook',
  'Bill Gates',
  'Steve Jobs',
  'Dorsey',
  'Sandberg',
  'Reid Hoffman',
  'Larry Page',
  'Sergey Brin',
  'Marissa Mayer',
  'Jack Welch',
  'Dimon',
  'Buffett',
  'Altman',
  'Laszlo Bock',
  'Jassy',
  'Mary Barra',
  'Jensen Huang',
  'Larry Ellison',
  'Benioff',
  'Adam Grant',
  'Gladwell',
  'Mark Cuban',
  'Branson',
] as const;

/**
 * Names that are also ordinary words but that prose about hiring writes in lower case when it means the
 * word ("a workday", "a greenhouse", "career ladders", "a lever", "an oracle"). Their capitalised form is
 * the name even at the start of a sentence, except when a hyphenated word follows ("Meta-analyses find…");
 * the lower-case form never counts (a web address is caught as a domain).
 */
const NAMES_WHEN_CAPITALISED = [
  // Job boards.
  'Monster',
  'Ladders',
  'Dice',
  'Reed',
  'Handshake',
  'Xing',
  // Applicant-tracking, assessment and HR-tech vendors.
  'Workday',
  'Greenhouse',
  'Lever',
  'Paradox',
  'Eightfold',
  'Sterling',
  'Gusto',
  'Rippling',
  'Karat',
  'Bullhorn',
  'Phenom',
  // Staffing firms.
  'Hays',
  // Large employers.
  'Amazon',
  'Apple',
  'Meta',
  'Oracle',
  'SAP',
  'Uber',
  'Alphabet',
  'Adobe',
  'Intel',
  'Stripe',
  'Zoom',
  'Slack',
  'Cognizant',
  'Anthropic',
  // Chatbots and assistants whose names are also words or first names ("Claude", "Gemini", "Copilot").
  'Claude',
  'Gemini',
  'Copilot',
  'Bard',
  'Llama',
  'Perplexity',
  'Mistral',
  // People.
  'Musk',
] as const;

/**
 * Names that are ordinary words which often open a sentence ("Indeed, …", "Criteria fixed in advance…",
 * "Seek feedback…", "Target roles…"). They count only mid-sentence in capitals ("jobs on Indeed",
 * "ex-Indeed"), or with a possessive or a brand suffix anywhere ("Indeed's", "Indeed-style").
 */
const NAMES_WHEN_MID_SENTENCE = [
  'Indeed',
  'Seek',
  'Hired',
  'Workable',
  'Cornerstone',
  'Criteria',
  'Modern Hire',
  'First Advantage',
  'Resume Builder',
  'Manpower',
  'Target',
] as const;

/** Top-level domains that mark a token as a web address ("indeed.com", "jobs.example.co.uk"). Short
 * country codes that are also English words (in, to, me, us, so, is, it, at, be, no) are left out. */
const DOMAIN_ENDINGS = [
  'com',
  'org',
  'net',
  'io',
  'ai',
  'co',
  'app',
  'dev',
  'jobs',
  'careers',
  'info',
  'biz',
  'gov',
  'edu',
  'uk',
  'de',
  'fr',
  'nl',
  'eu',
  'ca',
  'au',
  'xyz',
  'tech',
  'ly',
];

/** Surnames that are also ordinary capitalised English words; matching them would flag normal prose. */
const ORDINARY_WORDS = new Set([
  'Brown',
  'Burn',
  'Button',
  'Hunter',
  'List',
  'Rose',
  'Moore',
  'Smith',
  'Martin',
  'Lee',
  'Li',
  'Jun',
  'Qu',
  'Cai',
  'Kay',
  'May',
  'Judge',
  'Justice',
  'Flower',
  'Cable',
  'Bloom',
  'Heath',
  'Coats',
  'Sterling',
  'Levy',
  'Ones',
  'Fuller',
]);

/** Author strings that name an organisation rather than a person. */
const ORGANISATION_WORDS =
  /\b(Inc|Ltd|Council|Commission|Department|Society|Academy|Parliament|Union|Court|Tribunal|Assembly|Legislature|Congress|Office|Board|Bureau|Agency|Authority|Ministry|Government|Senate|Chamber|Center|Centre|Service|Technologies|Capital|Greenhouse|EEOC|Ladders|ResumeBuilder|Journal|US|NYC)\b|\(|\./;

/** Surnames of the people among sources' authors. */
export function authorSurnames(authors: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const author of authors) {
    const name = author.replace(/\s+Jr\.?$/, '').replace(/\b[A-Z]\.\s*/g, '');
    if (ORGANISATION_WORDS.test(name)) continue;
    const words = name.split(/\s+/);
    const surname = words.at(-1);
    if (words.length >= 2 && surname && surname.length >= 3 && !ORDINARY_WORDS.has(surname)) out.add(surname);
  }
  return [...out].sort();
}

const escapeName = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');

/** A matcher for whole, case-sensitive occurrences of any of the names (used for authors' surnames): no
 * letter or digit may touch a name (a hyphen or an apostrophe may). */
export function nameMatcher(names: readonly string[]): (text: string) => string[] {
  if (names.length === 0) return () => [];
  // Looked up word by word (as namedOrganisations does): one alternation of every surname costs time in
  // proportion to the number of names at every position of the text, which made validation quadratic in
  // the size of the atlas (tens of thousands of cited authors). A name that is one word is found by its
  // word; a longer one is keyed by its first word and confirmed there by a pattern, compiled on first
  // use; names that do not start with a word go into a small alternation.
  const words = new Set<string>();
  const byFirstWord = new Map<string, string[]>();
  const rest: string[] = [];
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    const first = /^[\p{L}\p{N}]+/u.exec(name)?.[0];
    if (first === undefined) rest.push(name);
    else if (first === name) words.add(name);
    else byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), name]);
  }
  const patterns = new Map<string, RegExp[]>();
  const patternsFor = (first: string) => {
    let list = patterns.get(first);
    if (!list) {
      list = byFirstWord.get(first)!.map((name) => new RegExp(`${escapeName(name)}(?![\\p{L}\\p{N}])`, 'uy'));
      patterns.set(first, list);
    }
    return list;
  };
  const others = rest.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(${rest.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'gu') : undefined;
  return (text) => {
    // Most prose names no one: one split into words finds that, before the scan that places each match.
    if (!others && !text.split(NOT_WORD).some((w) => words.has(w) || byFirstWord.has(w))) return [];
    const found: Array<{ name: string; from: number; to: number }> = [];
    if (others) for (const m of text.matchAll(others)) found.push({ name: m[1]!, from: m.index!, to: m.index! + m[1]!.length });
    let end = 0;
    for (const word of text.matchAll(WORD)) {
      // Like the alternation's scan, a name found inside an earlier match is not reported again.
      if (word.index! < end) continue;
      let name: string | undefined;
      if (byFirstWord.has(word[0])) {
        for (const pattern of patternsFor(word[0])) {
          pattern.lastIndex = word.index!;
          name = pattern.exec(text)?.[0];
          if (name !== undefined) break;
        }
      }
      // A word is whole by construction: no letter or digit touches it.
      if (name === undefined && words.has(word[0])) name = word[0];
      if (name !== undefined) {
        end = word.index! + name.length;
        found.push({ name, from: word.index!, to: end });
      }
    }
    return [...new Set(found.sort((a, b) => a.from - b.from).map((f) => f.name))];
  };
}

/** How an occurrence of a name is read: always the name, or the name only with a signal (signalsName). */
type Reading = 'always' | 'when-capitalised' | 'when-mid-sentence';

/** A word: the unit names are looked up by. Prose is scanned word by word, each word looked up in a map,
 * which is several times faster than one alternation of every name run over the whole text. */
const WORD = /[\p{L}\p{N}]+/gu;
/** What separates words: splitting on it gives exactly the words WORD matches (and empty strings). */
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** Each name, keyed by its first word in lower case, longest first; its pattern matches it (in any
 * case, any spacing) at a given position. */
const NAMES_BY_FIRST_WORD = new Map<string, Array<{ pattern: RegExp; reading: Reading }>>();
for (const [names, reading] of [
  [DISTINCT_NAMES, 'always'],
  [NAMES_WHEN_CAPITALISED, 'when-capitalised'],
  [NAMES_WHEN_MID_SENTENCE, 'when-mid-sentence'],
] as const) {
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    const first = name.toLowerCase().match(WORD)![0];
    const list = NAMES_BY_FIRST_WORD.get(first) ?? [];
    list.push({ pattern: new RegExp(`${escapeName(name)}(?![\\p{L}\\p{N}])`, 'iuy'), reading });
    NAMES_BY_FIRST_WORD.set(first, list);
  }
}

/** Cheap test for text that may hold a domain, so the domain pattern runs only there. */
const MAYBE_DOMAIN = /[\p{L}\p{N}]\.\p{L}/u;
const DOMAIN = new RegExp(
  `(?<![\\p{L}\\p{N}.-])((?:[Ww]{3}\\.[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+)|(?:[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${DOMAIN_ENDINGS.join('|')})))(?![\\p{L}\\p{N}-])`,
  'gu',
);
/** Suffixes that turn a capitalised word into a reference to the company, even at a sentence start. */
const NAME_SUFFIX = /^(?:['’]s(?![\p{L}\p{N}])|-(?:style|like|owned|backed|branded|run|made)(?![\p{L}\p{N}]))/u;
/** Text before a match that puts the match at the start of a sentence (or of the text). */
const SENTENCE_START = /(?:^|[.!?…:;]["'”’)\]]*\s+|\n\s*)["'“‘([]*$/u;

/**
 * Whether an occurrence of a name that is also a word is the name: its all-capitals form ("INDEED", "SAP")
 * always is; a lower-case one never is; a capitalised one is when a possessive or a brand suffix follows,
 * else as its list says (NAMES_WHEN_CAPITALISED, NAMES_WHEN_MID_SENTENCE).
 */
function signalsName(text: string, match: string, index: number, capitalisedIsName: boolean): boolean {
  const words = match.split(/\s+/);
  if (/\p{Lu}/u.test(match) && match === match.toUpperCase() && words.every((w) => w.length > 1)) return true;
  if (!words.every((w) => /^\p{Lu}/u.test(w))) return false;
  const after = text.slice(index + match.length);
  if (NAME_SUFFIX.test(after)) return true;
  if (!SENTENCE_START.test(text.slice(0, index))) return true;
  return capitalisedIsName && !after.startsWith('-');
}

/** The organisations, people and web domains a piece of prose names, as written there. */
export function namedOrganisations(text: string): string[] {
  // Most prose names nothing: one split into words finds that, before the scan that places each match.
  if (!MAYBE_DOMAIN.test(text) && !text.split(NOT_WORD).some((w) => NAMES_BY_FIRST_WORD.has(w.toLowerCase()))) return [];
  // A match inside one found before ("Musk" in "Elon Musk", "Indeed" in "Indeed.com") adds nothing.
  const spans: Array<{ name: string; from: number; to: number }> = [];
  const add = (name: string, from: number) => {
    if (!spans.some((s) => from >= s.from && from + name.length <= s.to)) spans.push({ name, from, to: from + name.length });
  };
  if (MAYBE_DOMAIN.test(text)) for (const m of text.matchAll(DOMAIN)) add(m[1]!, m.index!);
  for (const word of text.matchAll(WORD)) {
    for (const { pattern, reading } of NAMES_BY_FIRST_WORD.get(word[0].toLowerCase()) ?? []) {
      pattern.lastIndex = word.index!;
      const name = pattern.exec(text)?.[0];
      if (name === undefined || (reading !== 'always' && !signalsName(text, name, word.index!, reading === 'when-capitalised'))) continue;
      add(name, word.index!);
      break;
    }
  }
  return [...new Set(spans.sort((a, b) => a.from - b.from).map((s) => s.name))];
}
