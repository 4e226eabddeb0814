// The texts of `hoba show <id>` for every entity and of `hoba explain <artifact>` for every observation,
// laid out when the package is built (stored-text-build.ts), as a system keeps preformatted manual pages
// beside their sources. A reading command whose output is not a terminal, given a canonical ID and no
// option, prints the stored text: the bytes it would lay out itself (the build lays them out with the same
// code, and the tests compare every one), without opening the atlas (only its content hash is needed:
// locateAtlas in atlas.ts), reading the entities, working out the explanation or wrapping the lines, which
// is most of such a command's own time. On a terminal (its width, its colours),
// with an option, or for an atlas other than the one the texts were laid out from, the command lays its
// text out itself.
//
//   dist/atlas.texts   line 1: {built_by, content_hash, names, lengths}; then each text's UTF-8 bytes,
//                      one after the other, in the order of names (lengths in bytes)
import { fstatSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { firstLine, readAt, readOpen } from '../registry/snapshot.ts';
import { stdoutIsTerminal } from './out.ts';

/** Bump when the layout of the file changes. */
const TEXTS_FORMAT = 1;
export const TEXTS_BUILT_BY = `hoba@${pkg.version}+texts.${TEXTS_FORMAT}`;
export const TEXTS_FILE = 'atlas.texts';
/** Beside the bundled snapshot (dist/); run from source there is none, and every text is laid out. */
const BUNDLED_TEXTS = fileURLToPath(new URL(`./${TEXTS_FILE}`, import.meta.url));

/** The commands whose texts are stored: `show <id>` and `explain <artifact id>`, with no option. */
export type StoredCommand = 'show' | 'explain';

export interface TextsHead {
  built_by: string;
  /** The content hash of the atlas the texts were laid out from (the bundled snapshot's). */
  content_hash: string;
  /** "explain A-009", "show M-001"…, sorted. */
  names: string[];
  /** Each text's length in bytes, in the order of names. */
  lengths: number[];
}

/**
 * The stored text of `hoba <command> <id>` (the ID as the atlas writes it), or undefined when the command
 * has to lay it out: standard output is a terminal, the texts are missing or were laid out from another
 * atlas or by other code, or there is none for that ID.
 */
export function storedText(
  atlas: { content_hash: string | undefined },
  command: StoredCommand,
  id: string,
  path = BUNDLED_TEXTS,
): Buffer | undefined {
  if (atlas.content_hash === undefined || stdoutIsTerminal()) return undefined;
  return readOpen(path, (fd) => {
    const first = firstLine(fd, fstatSync(fd).size, 16 * 1024);
    if (first === undefined) return undefined;
    const { bytes, split } = first;
    const head = JSON.parse(bytes.toString('utf8', 0, split)) as TextsHead;
    if (head.built_by !== TEXTS_BUILT_BY || head.content_hash !== atlas.content_hash || head.names.length !== head.lengths.length)
      return undefined;
    const i = head.names.indexOf(`${command} ${id}`);
    if (i < 0) return undefined;
    let at = split + 1;
    for (let j = 0; j < i; j++) at += head.lengths[j]!;
    const text = readAt(fd, at, head.lengths[i]!);
    return text.length === head.lengths[i] ? text : undefined;
  });
}
