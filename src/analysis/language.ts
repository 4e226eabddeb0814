// "The atlas is in English only": a small, deterministic check that a query or a description is not
// written in another language, so that it gets an honest answer instead of noise (a French sentence
// fuzzy-matches English words by accident). It detects; it never translates. It errs towards English:
// a short query, a name, or an English sentence with a foreign word or two is searched as usual.
import { PLAIN_ASCII } from './search/tokenise.ts';

// The Unicode classes below are made on first use, for a text not all in ASCII: making one costs a few
// hundredths of a millisecond, and a process that reads only ASCII (most CLI runs) never needs them.
let scripts: Array<[name: string, letters: RegExp]> | undefined;

/** Scripts other than Latin, named for the message (the first one that covers the text wins). */
function otherScripts(): Array<[name: string, letters: RegExp]> {
  scripts ??= [
    ['Chinese or Japanese', /\p{Script=Han}/u],
    ['Japanese', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
    ['Korean', /\p{Script=Hangul}/u],
    ['Cyrillic', /\p{Script=Cyrillic}/u],
    ['Greek', /\p{Script=Greek}/u],
    ['Arabic', /\p{Script=Arabic}/u],
    ['Hebrew', /\p{Script=Hebrew}/u],
    ['Devanagari', /\p{Script=Devanagari}/u],
    ['Thai', /\p{Script=Thai}/u],
  ];
  return scripts;
}

// Function words and a few job-search words that are common in each language and are not English
// words too ("die", "war", "hat", "den", "no", "me", "a", "ai", "per", "non", "con", "sin", "van", "um", "do" are
// left out on purpose: "AI interview", "per week", "non-compete", "et al").
const FUNCTION_WORDS: Record<string, string> = {
  French:
    'le la les des du de une et je tu il elle nous vous ils elles est sont pas ne que qui pour avec dans sur mon ma mes au aux ce cette ces mais ou été avoir après entretien candidature réponse jamais rien très sans leur ont suis était avais aucune aucun chez offre poste refus',
  German:
    'der das und ich nicht ein eine einen ist sind mit auf für von zu nach bei aber oder kein keine nie habe wurde mir mich mein meine sie wir auch noch nur dass wie bewerbung absage antwort vorstellungsgespräch stelle gehalt keiner seit wochen monate',
  Spanish:
    'el la los las de una unos unas y que del por para mi mis se su es fue pero nunca nada después entrevista solicitud respuesta oferta trabajo lo les muy yo ni empresa puesto semanas',
  Italian:
    'il la gli di che una sono ho mi dopo colloquio candidatura risposta mai nessuna nessun lavoro offerta della delle degli anche ma',
  Portuguese:
    'de uma não que com para eu meu minha depois entrevista nunca nenhuma resposta vaga emprego trabalho foi mas também da das dos em',
  Dutch: 'de het een en ik niet met voor na geen nooit sollicitatie gesprek afwijzing reactie maar ook wel werd heb mijn',
};

const ENGLISH_WORDS = new Set(
  'the and to of i my me after they was were is it in on for with that this but not no have had been said told we you he she them their then from at by be did didnt never got get about back what when who all so just would could because over out up still an a or are as do does done has our us your his her its there here which how why weeks week days months job interview offer salary recruiter rejected rejection application applied hiring manager role position company heard reply email call'.split(
    ' ',
  ),
);

const FOREIGN = Object.entries(FUNCTION_WORDS).map(([language, words]) => ({ language, words: new Set(words.split(' ')) }));

// Letters that English words borrowed from French keep (résumé, café, naïve, fiancé) are not evidence;
// these are (none of them ASCII: a text all in ASCII is not tested for them).
const FOREIGN_LETTERS = /[äöüßñ¿¡ãõçèàùâêîôûœ]/;

/**
 * The language a text appears to be written in when that is not English (e.g. "French", or a script such
 * as "Cyrillic"), or undefined when it is English or too short to tell.
 */
export function nonEnglishLanguage(text: string): string | undefined {
  // A text all in ASCII (the usual query) is in the Latin script, its letters [A-Za-z]: the same answer
  // without the Unicode classes, which V8 compiles on the first search of a process (the CLI's).
  const ascii = PLAIN_ASCII.test(text);
  const letters = (ascii ? text.match(/[A-Za-z]/g) : text.match(/\p{L}/gu))?.length ?? 0;
  if (letters === 0) return undefined;
  const latin = ascii ? letters : (text.match(/\p{Script=Latin}/gu)?.length ?? 0);
  // Mostly another script: not English whatever the length ("面试后没有回音").
  if (latin < letters / 2) {
    for (const [name, re] of otherScripts()) if (re.test(text)) return name;
    return 'another script';
  }
  const lower = text.toLowerCase();
  const words = ((ascii ? lower.match(/[a-z']+/g) : lower.match(/[\p{L}']+/gu)) ?? []).flatMap((w) => w.split("'")).filter(Boolean);
  let english = 0;
  const foreign = new Map<string, number>();
  for (const w of words) {
    if (ENGLISH_WORDS.has(w.replace(/'/g, ''))) english++;
    let counted = false;
    for (const { language, words: set } of FOREIGN) {
      if (set.has(w)) {
        foreign.set(language, (foreign.get(language) ?? 0) + 1);
        counted = true;
      }
    }
    // A word with a letter English does not use counts for every language that uses it, once.
    if (!counted && !ascii && FOREIGN_LETTERS.test(w)) foreign.set('', (foreign.get('') ?? 0) + 1);
  }
  const accented = foreign.get('') ?? 0;
  let best: { language: string; n: number } | undefined;
  for (const { language } of FOREIGN) {
    const n = (foreign.get(language) ?? 0) + accented;
    if (n > 0 && (!best || n > best.n)) best = { language, n };
  }
  // Two foreign signals and more of them than English words: a sentence in another language. One foreign
  // word in an English sentence is not enough.
  if (best && best.n >= 2 && best.n > english)
    return accented > 0 && (foreign.get(best.language) ?? 0) === 0 ? 'a language other than English' : best.language;
  return undefined;
}

/** The message for a text that is not in English: honest, with what to do instead. */
export function englishOnlyMessage(language: string, what: 'query' | 'description'): string {
  const reads = language.startsWith('a language') || language === 'another script' ? `is written in ${language}` : `looks like ${language}`;
  return `The ${what} ${reads}. The atlas is in English only and hoba does not translate: describe what happened in English (e.g. "ghosted after the final interview", "offer withdrawn").`;
}
