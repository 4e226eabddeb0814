// The atlas never names an employer, vendor, platform or person. This is the list the validator checks
// prose against: organisations that hiring discussions commonly name, plus (at run time) the surnames
// of every person who authored a source, since prose must cite sources by ID, not by author.

// 'Indeed' and similar names that are everyday words at the start of a sentence are left out.
/** Organisations commonly named in hiring discussions: employers, vendors, platforms, publishers. */
export const NAMED_ORGANISATIONS = [
  'Accenture', 'Amazon', 'Apple', 'Bamboo HR', 'BambooHR', 'Burning Glass', 'Clarify Capital', 'Deloitte', 'Eightfold',
  'Facebook', 'Glassdoor', 'Google', 'Greenhouse', 'HireVue', 'IBM', 'iCIMS', 'iTutorGroup',
  'Jobvite', 'Ladders', 'Lever', 'Lightcast', 'LinkedIn', 'Meta', 'Microsoft', 'Monster', 'Netflix', 'OpenAI', 'Oracle',
  'Pymetrics', 'Resume Builder', 'ResumeBuilder', 'Reuters', 'Salesforce', 'SAP', 'SHRM', 'SmartRecruiters',
  'SuccessFactors', 'Taleo', 'Tesla', 'Twitter', 'Uber', 'Wall Street Journal', 'Workday', 'ZipRecruiter',
] as const;

/** Surnames that are also ordinary capitalised English words; matching them would flag normal prose. */
const ORDINARY_WORDS = new Set(['Brown', 'Burn', 'Button', 'Hunter', 'List', 'Rose', 'Moore', 'Smith', 'Martin', 'Lee', 'Li', 'Jun', 'Qu', 'Cai', 'Kay']);

/** Author strings that name an organisation rather than a person. */
const ORGANISATION_WORDS = /\b(Inc|Ltd|Council|Commission|Department|Society|Academy|Parliament|Union|Technologies|Capital|Greenhouse|EEOC|Ladders|ResumeBuilder|Journal|US|NYC)\b|\(|\./;

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

/** A matcher for whole, case-sensitive occurrences of any of the names. */
export function nameMatcher(names: readonly string[]): (text: string) => string[] {
  if (names.length === 0) return () => [];
  const escaped = [...names].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}-])(${escaped.join('|')})(?![\\p{L}\\p{N}-])`, 'gu');
  return (text) => [...new Set([...text.matchAll(re)].map((m) => m[1]!))];
}
