// Readability of a candidate's default text, measured with pinned libraries: the Flesch–Kincaid grade
// (flesch-kincaid) over words, sentences and syllables (syllable). Each line of the text is a unit: a
// heading or a list item without a full stop is still a sentence, as a reader takes it in.
import { fleschKincaid } from 'flesch-kincaid';
import { syllable } from 'syllable';
import { loadAtlas } from '../src/registry/load.ts';
import { FACET_WORDS } from '../src/model/plain.ts';
import type { Registry } from '../src/registry/registry.ts';

interface Counts {
  sentence: number;
  word: number;
  syllable: number;
}

/** Words as a reader counts them: runs of letters (with inner apostrophes and hyphens) or digits. */
export function wordsOf(text: string): string[] {
  return text.match(/[A-Za-zÀ-ÿ0-9]+(?:[’'-][A-Za-zÀ-ÿ0-9]+)*/g) ?? [];
}

function countsOf(text: string): Counts {
  let sentence = 0;
  let word = 0;
  let syl = 0;
  // Measure text rendered without wrapping: every line is then a heading, a paragraph or a list item.
  for (const line of text.split('\n')) {
    const flat = line.replace(/\s+/g, ' ').trim();
    if (wordsOf(flat).length === 0) continue;
    // Sentences end at . ! ? : or ; before a space (a colon or semicolon introduces a clause a reader takes as one).
    const parts = flat.split(/(?<=[.!?])\s+/).filter((p) => wordsOf(p).length > 0);
    sentence += parts.length;
    for (const w of wordsOf(flat)) {
      word += 1;
      syl += /^\d/.test(w) ? 1 : Math.max(1, syllable(w));
    }
  }
  return { sentence, word, syllable: syl };
}

/** The Flesch–Kincaid grade of a text. */
export function grade(text: string): number {
  return fleschKincaid({ ...countsOf(text) });
}

/** What the default text must never hold: atlas IDs, probe, outcome and step slugs, and vocabulary words. */
export function jargonIn(reg: Registry, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b[ABMPLISE]-\d{3,}\b/g)) found.push(m[0]);
  const slugs = new Set<string>();
  for (const a of reg.all('artifact')) {
    for (const p of a.probes) {
      slugs.add(p.id);
      for (const o of p.outcomes) if (o.id.includes('-')) slugs.add(o.id);
    }
    for (const s of a.next_steps) if (s.id.includes('-')) slugs.add(s.id);
  }
  for (const slug of slugs) if (new RegExp(`(^|[^a-z-])${slug}($|[^a-z-])`).test(text)) found.push(slug);
  const lower = text.toLowerCase();
  for (const w of FACET_WORDS) if (lower.includes(w)) found.push(w);
  return found;
}

export { loadAtlas };
