#!/usr/bin/env node
// hoba: the command-line door to the atlas.
import { Command, CommanderError } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { CliError, EXIT } from './io.ts';
import { registerValidate } from './validate.ts';
import { registerBuild } from './build.ts';
import { registerServe } from './serve.ts';

export function buildProgram(): Command {
  const program = new Command()
    .name('hoba')
    .description('Hiring Obstacles & Barriers Atlas: why hiring processes stall, reject or go silent, and what an observation can and cannot tell you.')
    .version(pkg.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  registerValidate(program);
  registerBuild(program);
  registerServe(program);
  program.addHelpText(
    'after',
    `
Examples:
  $ hoba validate --strict          check the content of this checkout
  $ hoba validate --json            the same, as JSON
  $ hoba build                      write the site (REST mirror, OpenAPI, pages) to _site/
  $ hoba serve                      serve it at http://127.0.0.1:8080/

Environment: HOBA_DIR (checkout to use), NO_COLOR (no colours).`,
  );
  // Subcommands report usage errors through the same path as the program.
  for (const command of program.commands) command.exitOverride().showHelpAfterError('(add --help for usage)');
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are not errors; anything else commander raises is a usage error.
      // Help asked for (--help, `hoba help …`) and --version exit 0; `hoba` with no command, like every
      // other commander error, is a usage error.
      const asked = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || (err.code === 'commander.help' && err.exitCode === 0);
      return asked ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliError) {
      process.stderr.write(`hoba: ${err.message}\n`);
      return err.code;
    }
    process.stderr.write(`hoba: unexpected error: ${(err as Error).message ?? String(err)}\n`);
    if (process.env['HOBA_DEBUG']) process.stderr.write(`${(err as Error).stack}\n`);
    process.stderr.write('This is a bug; please report it with the command you ran (set HOBA_DEBUG=1 for details).\n');
    return EXIT.failure;
  }
}

// A closed pipe (hoba … | head) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
