// Whether prose says that a source no longer applies, read closely enough not to be fooled: "has not been
// withdrawn or repealed and still applies today" holds the words "withdrawn" and "repealed" and says the
// opposite, and a status note that opens "Current guidance: it is in force" presents withdrawn guidance as
// current. Used by the rules source-status-unstated and law-note (validate.ts).

/**
 * Words that deny what follows them in the same clause ("not withdrawn", "never repealed", "hasn't been
 * rescinded", "neither withdrawn nor repealed", "it is not true that it was withdrawn"). Not "no" or a
 * bare "without", which as often qualify something else ("with no notice, it was withdrawn").
 */
const NEGATION =
  /(?:^|[^\p{L}'’])(?:not|never|nor|neither|cannot|without\s+(?:being|having\s+been))(?=$|[^\p{L}])|\p{L}n['’]t(?=$|[^\p{L}])/iu;
/** Where a clause ends, looking back from a status word: punctuation that closes one, or a conjunction
 * that starts another ("it was not changed, and the guidance was withdrawn"). "or" and "nor" do not:
 * "not withdrawn or repealed" denies both. */
const CLAUSE_END = /[.;!?:\n]|\b(?:and|but|however|although|though|whereas|while)\b/giu;
/** How many words before a status word a negation may sit and still deny it. */
const WINDOW_WORDS = 8;

/** Whether `says` (the status words of a source's status) occurs in `text` at least once undenied. */
export function saysNoLongerApplies(says: RegExp, text: string): boolean {
  const all = new RegExp(says.source, says.flags.includes('g') ? says.flags : `${says.flags}g`);
  for (const m of text.matchAll(all)) {
    if (!denied(text.slice(0, m.index))) return true;
  }
  return false;
}

/** Whether the clause leading up to a status word (what precedes it, `before`) denies it. */
function denied(before: string): boolean {
  let start = 0;
  for (const end of before.matchAll(CLAUSE_END)) start = end.index + end[0].length;
  const words = before.slice(start).split(/\s+/).filter(Boolean).slice(-WINDOW_WORDS).join(' ');
  return NEGATION.test(words) || /un-$/i.test(before);
}

/**
 * Claims that the cited instrument is in force now, made of it (a pronoun or "this guidance") or opening
 * a sentence ("Current guidance: …", "Still in force."): the wording of a status note that presents
 * withdrawn guidance or repealed law as current. Another instrument can still apply ("the statute it
 * explained still applies"): that names its own subject and is not matched.
 */
const PRESENTED_AS_CURRENT: readonly RegExp[] = [
  /\b(?:it|this|these|they|the\s+(?:guidance|rule|opinion|law|act|regulation|statute|instrument|provision))\s+(?:is|are|remains?|stays?|continues?\s+to\s+(?:be|apply)|still)\s+(?:still\s+|currently\s+|fully\s+|now\s+)?(?:in\s+force|in\s+effect|current|valid|good\s+law|applies|apply|applicable|binding|operative)\b/iu,
  /(?:^|[.;!?]\s+)(?:current(?:ly)?\s+(?:guidance|law|in\s+force|applicable)|still\s+(?:in\s+force|in\s+effect|applies|current|valid)|in\s+force|in\s+effect)\b/iu,
  /\b(?:it|this)\s+(?:\w+\s+){0,2}(?:applies|in\s+force|in\s+effect)\s+(?:today|now)\b/iu,
];

/** The words of `text` that present the instrument it is about as current, if any. */
export function presentedAsCurrent(text: string): string | undefined {
  for (const pattern of PRESENTED_AS_CURRENT) {
    const m = pattern.exec(text);
    if (m) return m[0].replace(/^[.;!?\s]+/, '').trim();
  }
  return undefined;
}
