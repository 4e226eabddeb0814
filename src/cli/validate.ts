// hoba validate: check content, the barrier DAG, loop declarations and the sources against the rules.
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { bibliographyPath, loadBibliography } from '../registry/bibliography.ts';
import { loadAtlas } from '../registry/load.ts';
import { RULES, sortProblems, type Problem } from '../registry/rules.ts';
import { scenarioProblems } from '../analysis/scenario-checks.ts';
import { validateAtlas } from '../registry/validate.ts';
import { compareMirror, defaultMirror, isUrl } from '../publish/parity.ts';
import { buildAtlasSite, buildInfo } from '../workflows/build.ts';
import { releaseProblems } from '../workflows/release.ts';
import { colour, EXIT, resolveCheckout, writeJson } from './io.ts';

interface Options {
  strict?: boolean;
  json?: boolean;
  dir?: string;
  listRules?: boolean;
  /** A site directory or deployed base URL; false with --no-mirror. */
  mirror?: string | false;
}

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Validate content, the barrier DAG, loop declarations and sources (local checkout only)')
    .option('--strict', 'fail on warnings too')
    .option('--json', 'print the full report as JSON')
    .option('--dir <checkout>', 'atlas checkout to validate (default: $HOBA_DIR, then the nearest ancestor holding content/atlas.yaml)')
    .option('--list-rules', 'list every rule with its severity and exit')
    .option(
      '--mirror <dir|url>',
      'check mirror parity against this site directory or deployed base URL (default: _site/ in the checkout, when present)',
    )
    .option('--no-mirror', 'skip the mirror parity check')
    .addHelpText(
      'after',
      `
Exit status: 0 clean, 1 problems found (with --strict, warnings count), 2 usage error.

Examples:
  $ hoba validate --strict
  $ hoba validate --json --dir ~/src/hoba | jq '.problems[] | select(.rule == "dangling-reference")'
  $ hoba validate --list-rules
  $ hoba validate --strict --mirror https://atlas.example.org   compare a deployed site with the content`,
    )
    .action(async (opts: Options) => {
      process.exitCode = opts.listRules ? listRules(opts) : await runValidate(opts);
    });
}

function listRules(opts: Options): number {
  const rules = Object.entries(RULES).map(([id, r]) => ({ id, severity: r.severity, checks: r.checks }));
  if (opts.json) writeJson({ rules });
  else for (const r of rules) console.log(`${r.id.padEnd(28)} ${r.severity.padEnd(8)} ${r.checks}`);
  return EXIT.ok;
}

async function runValidate(opts: Options): Promise<number> {
  const dir = resolveCheckout(opts.dir);
  const load = loadAtlas(dir);
  const notes: string[] = [];
  const bibPath = bibliographyPath(dir);
  const bibliography = loadBibliography(bibPath);
  if (!bibliography)
    notes.push(
      `The shared bibliography was not found at ${bibPath}, so sources were not compared with it (set HOBA_BIBLIOGRAPHY to check them).`,
    );
  const checked = validateAtlas(load, { bibliography });
  // Scenarios are regression tests of the analysis, which the registry's validator cannot run: merged here.
  // Content with errors is not analysed (an answer built on a broken atlas says nothing about the scenarios).
  const contentErrors = checked.some((p) => p.severity === 'error');
  if (contentErrors && load.registry.all('scenario').length > 0)
    notes.push('The worked scenarios were not checked: the content has errors, so its analysis would not say whether they hold.');
  const problems = sortProblems([
    ...checked,
    ...(contentErrors ? [] : scenarioProblems(load.registry, (id, path) => load.sourceMap.locate(id, path))),
    // The version against the latest recorded release (releases/): the diff is analysis, so it is merged here too.
    ...(contentErrors ? [] : releaseProblems(dir, load.registry)),
  ]);
  // Mirror parity: a fresh in-memory build of this content against the published mirror.
  const mirror = opts.mirror === false ? undefined : (opts.mirror ?? defaultMirror(dir));
  let mirrorReport: { source: string; files: number } | null = null;
  if (mirror !== undefined) {
    // A --mirror path is relative to the working directory, like any path on a command line.
    const source = isUrl(mirror) ? mirror : resolve(mirror);
    if (problems.some((p) => p.severity === 'error')) {
      notes.push(`Mirror parity with ${mirror} was not checked: the content has errors, so it cannot be built.`);
    } else {
      const inside = relative(dir, source);
      const shown = isUrl(mirror) || inside.startsWith('..') ? source : inside || '.';
      const parity = await compareMirror(buildAtlasSite(load.registry, buildInfo(dir)), source, shown);
      problems.push(...parity.problems);
      notes.push(...parity.notes);
      mirrorReport = { source, files: parity.compared };
    }
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  const ok = errors === 0 && (!opts.strict || warnings === 0);
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;

  if (opts.json) {
    writeJson({
      registry_version: load.registry.version,
      ok,
      strict: opts.strict === true,
      entities: load.registry.entities.length,
      errors,
      warnings,
      problems,
      notes,
      mirror: mirrorReport,
      // A failed validation carries the code and message every --json failure has.
      ...(ok
        ? {}
        : {
            code: 'invalid-content',
            message: `${counts}${errors === 0 ? ' (warnings fail under --strict)' : ''}: see problems for what and where.`,
          }),
    });
  } else {
    printReport(problems, notes);
    const mirrored = mirrorReport ? `, mirror ${mirrorReport.files} files` : '';
    const scope = `${load.registry.entities.length} entities, registry ${load.registry.version}${mirrored}`;
    if (ok) {
      console.log(colour.green(`✔ valid${opts.strict ? ' (strict)' : ''}: ${counts} (${scope})`));
    } else {
      const hint = errors === 0 ? ' — warnings fail under --strict' : '';
      console.log(colour.red(`✖ ${counts}${hint} (${scope})`));
    }
  }
  return ok ? EXIT.ok : EXIT.failure;
}

function printReport(problems: Problem[], notes: string[]): void {
  const byFile = new Map<string, Problem[]>();
  for (const p of problems) {
    const key = p.file ?? '(atlas)';
    byFile.set(key, [...(byFile.get(key) ?? []), p]);
  }
  for (const [file, list] of byFile) {
    console.log(colour.bold(file));
    for (const p of list) {
      const sev = p.severity === 'error' ? colour.red('error  ') : colour.yellow('warning');
      const line = p.line !== undefined ? `${p.line}`.padStart(4) : '    ';
      const entity = p.entity ? `${p.entity}: ` : '';
      console.log(`  ${colour.dim(line)}  ${sev}  ${colour.cyan(p.rule)}  ${entity}${p.message}`);
    }
    console.log('');
  }
  for (const n of notes) console.log(colour.yellow(`note: ${n}`));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
