// A message a person pasted (a rejection email, a portal's status history, a recruiter's text, a letter),
// read against the atlas's specimens: each specimen marks its tell-tale lines and says what each does and
// does not establish. A line of the message is a tell when it holds most of a marked line's words (weighed
// by how rare each word is among the marked lines), so "experience more closely aligns with our needs"
// finds the closer-alignment tell however the rest of the email is worded. The situation reader
// (reader.ts) names observations from these tells and from its classifier, and quotes the lines.
import type { Registry } from '../registry/registry.ts';
import { readText, STOP_WORDS } from './reader-text.ts';

interface MessageTell {
  /** The line of the message, as pasted. */
  line: string;
  /** The specimen's marked line it matches. */
  tell: string;
  /** What that line does and does not establish (the specimen's reading). */
  reading: string;
}

export interface MessageTells {
  artifact: { id: string; title: string };
  tells: MessageTell[];
}

interface Tell {
  artifact: string;
  quote: string;
  reading: string;
  stems: string[];
}

/** A line matches a tell when it holds this share of the tell's weight... */
const MATCH_SHARE = 0.6;
/** ...and at least this many of its words. */
const MATCH_WORDS = 2;

interface TellIndex {
  tells: Tell[];
  idf: Map<string, number>;
}

const indexes = new WeakMap<Registry, TellIndex>();

/** Placeholders of specimens ("[Role]", "[First name]") are not words of the message. */
const PLACEHOLDER = /\[[^\]]*\]/g;

function contentStems(text: string): string[] {
  const read = readText(text.replace(PLACEHOLDER, ' '));
  return [...new Set(read.tokens.filter((t) => !STOP_WORDS.has(t.word) && t.word !== '0' && t.word.length > 1).map((t) => t.stem))];
}

function tellIndex(reg: Registry): TellIndex {
  let index = indexes.get(reg);
  if (index) return index;
  const tells: Tell[] = [];
  for (const a of reg.all('artifact')) {
    if (a.status === 'deprecated') continue;
    for (const sp of a.specimens) {
      for (const t of sp.tells) {
        const stems = contentStems(t.quote);
        if (stems.length >= MATCH_WORDS) tells.push({ artifact: a.id, quote: t.quote, reading: t.reading, stems });
      }
    }
  }
  const df = new Map<string, number>();
  for (const t of tells) for (const s of t.stems) df.set(s, (df.get(s) ?? 0) + 1);
  const idf = new Map([...df].map(([s, n]) => [s, Math.log(1 + tells.length / n)]));
  index = { tells, idf };
  indexes.set(reg, index);
  return index;
}

/** The lines of a message: its lines, and a long line's sentences. */
function messageLines(message: string): string[] {
  return message
    .split('\n')
    .flatMap((l) => (l.length > 160 ? l.split(/(?<=[.!?])\s+/) : [l]))
    .map((l) => l.trim())
    .filter((l) => /[\p{L}\p{N}]/u.test(l));
}

/**
 * The tells a message holds, by observation (best match per line, strongest observations first). A line
 * counts for one tell of an observation at most; an observation is listed when a line matches one of its
 * tells.
 */
export function messageTells(reg: Registry, message: string): MessageTells[] {
  const { tells, idf } = tellIndex(reg);
  const lines = messageLines(message).map((line) => ({ line, stems: new Set(contentStems(line)) }));
  const byArtifact = new Map<string, Array<MessageTell & { share: number }>>();
  for (const { line, stems } of lines) {
    const best = new Map<string, { tell: Tell; share: number }>();
    for (const t of tells) {
      let total = 0;
      let found = 0;
      let shared = 0;
      for (const s of t.stems) {
        const w = idf.get(s) ?? 0;
        total += w;
        if (stems.has(s)) {
          found += w;
          shared++;
        }
      }
      const share = total > 0 ? found / total : 0;
      if (shared < Math.min(MATCH_WORDS + 1, t.stems.length) || share < MATCH_SHARE) continue;
      const prev = best.get(t.artifact);
      if (!prev || share > prev.share) best.set(t.artifact, { tell: t, share });
    }
    for (const [artifact, { tell, share }] of best) {
      const list = byArtifact.get(artifact) ?? [];
      if (!list.some((x) => x.tell === tell.quote)) list.push({ line, tell: tell.quote, reading: tell.reading.trim(), share });
      byArtifact.set(artifact, list);
    }
  }
  const strength = (xs: Array<{ share: number }>) => xs.reduce((s, x) => s + x.share, 0);
  return [...byArtifact.entries()]
    .sort((a, b) => strength(b[1]) - strength(a[1]) || (a[0] < b[0] ? -1 : 1))
    .map(([id, found]) => ({
      artifact: { id, title: reg.get(id)?.kind === 'artifact' ? (reg.get(id) as { title: string }).title : id },
      tells: found.map(({ line, tell, reading }) => ({ line, tell, reading })),
    }));
}
