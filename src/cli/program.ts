// The whole command line, parsed by commander: every command, --help, --version and usage errors.
// main.ts runs the reading commands' usual forms without it (reading.ts) and everything else here.
import type { Command, CommanderError } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { CliError, EXIT, reportError, reportFailure } from './io.ts';

/** Commander, loaded with the first program: start-up time is part of the interface (bench/cli-start.mjs). */
let commander: typeof import('commander') | undefined;

/**
 * Every command, in help order, with the module that defines it. Only the module of the command being
 * run is loaded (help and unknown commands load them all), so `hoba show` does not pay for the YAML
 * parser, the schemas or the site builder: start-up time is part of the interface (bench/cli-start.mjs).
 */
const COMMANDS: Array<[name: string, load: () => Promise<(program: Command) => void>]> = [
  ['search', async () => (await import('./search.ts')).registerSearch],
  ['show', async () => (await import('./show.ts')).registerShow],
  ['explain', async () => (await import('./explain.ts')).registerExplain],
  ['graph', async () => (await import('./graph.ts')).registerGraph],
  ['methodology', async () => (await import('./methodology.ts')).registerMethodology],
  ['stats', async () => (await import('./stats.ts')).registerStats],
  ['validate', async () => (await import('./validate.ts')).registerValidate],
  ['build', async () => (await import('./build.ts')).registerBuild],
  ['serve', async () => (await import('./serve.ts')).registerServe],
  ['diff', async () => (await import('./diff.ts')).registerDiff],
  ['release', async () => (await import('./release.ts')).registerRelease],
  ['mcp', async () => (await import('./mcp.ts')).registerMcp],
];

/** --version needs no command; a command's name loads that command; anything else (help, a typo) all. */
function commandsFor(first: string | undefined): typeof COMMANDS {
  if (first === '--version' || first === '-V') return [];
  const named = COMMANDS.filter(([name]) => name === first);
  return named.length > 0 ? named : COMMANDS;
}

/** The program with the commands `command` (the first argument) needs registered. */
export async function buildProgram(command?: string): Promise<Command> {
  commander ??= await import('commander');
  const program = new commander.Command()
    .name('hoba')
    .description(
      'Hiring Obstacles & Barriers Atlas: why hiring processes stall, reject or go silent, and what an observation can and cannot tell you.',
    )
    .version(pkg.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Commander's own error lines are not printed: main() reports every failure, as text or JSON.
    .configureOutput({ outputError: () => {} })
    .exitOverride();
  for (const [, load] of commandsFor(command)) (await load())(program);
  program.addHelpText(
    'after',
    `
Examples:
  $ hoba search "ghosted after final interview"   find observations, mechanisms, patterns…
  $ hoba show M-001                 one entity, with its relations both ways and its sources
  $ hoba explain A-009              the HOBA protocol for an observation
  $ hoba explain A-009 --stage team --probe final-silence-ask-timeline-once=no-reply
  $ hoba graph P-005 --depth 2 --format mermaid
  $ hoba stats                      the atlas in numbers, and its depth targets
  $ hoba validate --strict          check the content of this checkout
  $ hoba validate --json            the same, as JSON
  $ hoba build                      write the site (REST mirror, OpenAPI, pages) to _site/
  $ hoba serve                      serve it at http://127.0.0.1:8080/
  $ hoba diff 0.2.0 0.3.0           what changed between two releases, and the bump it needs
  $ hoba release                    record this checkout's content as a release, and update CHANGELOG.md

Every command takes --help, and all but mcp take --json (machine-readable output carrying registry_version).
Reading commands use --dir, else $HOBA_DIR, else the checkout around the working directory, else the
atlas bundled with hoba.

hoba mcp is the MCP tool server on stdio (what a client starts: npx -y ${pkg.name} mcp); hoba mcp --help
shows the local (--dir) and HTTP (--http) forms.

Environment: HOBA_DIR (checkout to use), HOBA_CACHE_DIR (snapshot and code caches), NO_COLOR (no colours).`,
  );
  // Subcommands report usage errors through the same path as the program, naming the command whose help
  // to read.
  for (const command of program.commands) {
    command.configureOutput({ outputError: () => {} }).exitOverride((err) => {
      throw Object.assign(err, { command: command.name() });
    });
  }
  return program;
}

/** --json anywhere before a `--`: errors are then JSON too, even when parsing failed around it. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** A commander parsing error as a usage error of hoba, pointing at the help of the command that failed. */
function usageError(err: CommanderError & { command?: string }): CliError {
  // "error: unknown option '--jsn'\n(Did you mean --json?)" → "unknown option '--jsn' (Did you mean --json?)"
  const message = err.message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/'([^']{61,})'/g, (_, value: string) => `'${value.slice(0, 60)}…'`) // a value echoed back may be any length
    .trim();
  const help = `hoba${err.command ? ` ${err.command}` : ''} --help`;
  const stop = /[.!?)]$/.test(message) ? '' : '.';
  return new CliError(`${message}${stop} Run ${help} for usage.`, EXIT.usage, 'usage');
}

/** Parses and runs a command line with commander; returns the exit status. */
export async function runProgram(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  try {
    await (await buildProgram(argv[0])).parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    // Commander is loaded whenever it threw.
    if (commander !== undefined && err instanceof commander.CommanderError) {
      // Help asked for (--help, `hoba help …`) and --version exit 0. `hoba` with no command has had the
      // help printed to stderr already; every other commander error is a usage error.
      const asked =
        err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || (err.code === 'commander.help' && err.exitCode === 0);
      if (asked) return EXIT.ok;
      if (err.code === 'commander.help') return EXIT.usage;
      return reportError(usageError(err), json);
    }
    return reportFailure(err, json);
  }
}
