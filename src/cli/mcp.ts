// hoba mcp: the atlas as an MCP tool server, on stdio or over Streamable HTTP. The same command line as
// the hoba-mcp bin (src/mcp/cli.ts), passed through whole: its options, help and errors are that one's.
import type { Command } from 'commander';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the atlas as an MCP tool server: on stdio (what a client starts), or over HTTP with --http; hoba mcp --help for its options',
    )
    .usage('[--dir <checkout>] [--http [--port <n>] [--host <address>]]')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[options...]')
    .action(async (args: string[]) => {
      const { mcpMain } = await import('../mcp/cli.ts');
      const code = await mcpMain(args, 'hoba mcp');
      if (code !== undefined) process.exitCode = code;
    });
}
