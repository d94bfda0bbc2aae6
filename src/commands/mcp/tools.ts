/** `svc mcp tools NAME`: start a server and list its tools. */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

export interface ToolsFlags {
  json?: true | undefined;
}

export function mcpToolsCommand(context: CommandContext) {
  return new Command('tools')
    .description(
      'Start an MCP server, list its tools, and stop it: each tool\'s name, whether the server marks it read-only (a hint, not ' +
        'a promise), and the first line of its description. NAME.TOOL shows one tool. On a terminal a table with a header; in a ' +
        'pipe one tab-separated line each (name, read-only or -, description), no header. A server that cannot start is an ' +
        'error naming it and quoting the last line it wrote on stderr.',
    )
    .addArgument(completes(new Argument('<name>', 'server name (see `svc mcp list`), or NAME.TOOL'), { kind: 'mcp-servers' }))
    .option('--json', 'print a JSON array instead: [{name, function, readOnly, description, inputSchema}] (function: the name a model calls it by)')
    .addHelpText('after', '\nExamples:\n  $ svc mcp add demo -- mcp-server-everything\n  $ svc mcp tools demo\n  $ svc mcp tools demo.echo --json')
    .action((name, flags) => runTools(context, name, flags));
}

export async function runTools(context: CommandContext, name: string, flags: ToolsFlags): Promise<void> {
  const { factory, signal } = context;
  const { io } = factory;
  const [{ profileServerStore }, { openToolbox }, { listingOutput }] = await Promise.all([
    import('../../tools/servers.js'),
    import('../../tools/toolbox.js'),
    import('../../terminal/table.js'),
  ]);
  const servers = (await profileServerStore(await factory.profile(), io, 'read')).read();
  const toolbox = await openToolbox([name], { servers, env: io.env, cwd: io.cwd, signal });
  try {
    const failed = toolbox.failures[0];
    if (failed) throw failed;
    const tools = toolbox.tools;
    const oneLine = (text: string): string => text.trim().split('\n')[0]!.trim();
    const listing = {
      columns: [{ title: 'TOOL' }, { title: 'READ-ONLY' }, { title: 'DESCRIPTION' }],
      rows: tools.map((tool) => [tool.tool, tool.readOnly ? (io.stdoutIsTTY ? 'yes' : 'read-only') : io.stdoutIsTTY ? 'no' : '-', oneLine(tool.description)]),
      json: tools.map((tool) => ({ name: tool.tool, function: tool.functionName, readOnly: tool.readOnly, description: tool.description, inputSchema: tool.inputSchema })),
    };
    io.stdout.write(listingOutput(listing, flags.json === true, io));
    if (tools.length === 0 && flags.json !== true && io.stderrIsTTY) io.note(`the MCP server "${name}" offers no tools`);
  } finally {
    await toolbox.close();
  }
}
