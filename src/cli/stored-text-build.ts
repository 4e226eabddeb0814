// Lays out the texts the reading commands print from the file (stored-text.ts says what and why): run by
// the build (scripts/build-snapshot.ts) beside the snapshot, with the commands' own code.
import { renameSync, writeFileSync } from 'node:fs';
import { getNode } from '../analysis/node.ts';
import { explainArtifacts } from '../analysis/protocol.ts';
import type { OpenedAtlas } from '../registry/snapshot.ts';
import { renderCandidate } from './candidate-text.ts';
import { stdoutIsTerminal } from './out.ts';
import { renderNode } from './show.ts';
import { TEXTS_BUILT_BY, type StoredCommand, type TextsHead } from './stored-text.ts';
import { terminalWidth } from './text.ts';

/** The text of `hoba <command> <id>` as the command lays it out with standard output not a terminal. */
export function layOut(atlas: Pick<OpenedAtlas, 'registry'>, command: StoredCommand, id: string): string {
  const { registry } = atlas;
  return command === 'show'
    ? renderNode(getNode(registry, id), registry)
    : renderCandidate(explainArtifacts(registry, { artifacts: [id], probes: [] }), { width: terminalWidth() });
}

/**
 * Writes the texts of every entity's `show` and every observation's `explain` of `atlas` to `path`
 * (atomically; the same bytes for the same atlas and code). Run with standard output not a terminal, so
 * that the layout is the one a pipe gets (no colours; 100 columns for show, 80 for explain): refused otherwise.
 */
export function writeTexts(path: string, atlas: Pick<OpenedAtlas, 'registry' | 'content_hash'>): void {
  if (stdoutIsTerminal())
    throw new Error('The CLI texts are laid out as a pipe gets them: run this with standard output redirected (| cat).');
  const names: string[] = [];
  for (const { id, kind } of atlas.registry.entities) {
    names.push(`show ${id}`);
    if (kind === 'artifact') names.push(`explain ${id}`);
  }
  names.sort();
  const texts = names.map((name) => {
    const [command, id] = name.split(' ') as [StoredCommand, string];
    return Buffer.from(layOut(atlas, command, id), 'utf8');
  });
  const head: TextsHead = { built_by: TEXTS_BUILT_BY, content_hash: atlas.content_hash, names, lengths: texts.map((t) => t.length) };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`, 'utf8'), ...texts]));
  renameSync(tmp, path);
}
