/** `svc mcp add|list|remove|tools|import`: the MCP servers whose tools a chat model can use (docs/tools.md). */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { mcpAddCommand } from './add.js';
import { mcpImportCommand } from './import.js';
import { mcpListCommand } from './list.js';
import { mcpRemoveCommand } from './remove.js';
import { mcpToolsCommand } from './tools.js';

export function mcpCommand(context: CommandContext): Command {
  const mcp = new Command('mcp')
    .summary('MCP servers: programs that give a chat model tools')
    .description(
      'An MCP (Model Context Protocol) server offers tools: read a file, query a database, fetch a page. svc keeps a list of them ' +
        'per profile (mcp.json beside its settings, owner-only) and starts one only when its tools are used, with only PATH, HOME ' +
        'and the variables you give it, and stops it when the command ends or on Ctrl-C. A tool runs with your rights, and what it ' +
        'returns is untrusted text: see docs/tools.md.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ svc mcp add notes -- mcp-server-filesystem ~/notes\n' +
        '  $ svc mcp list\n' +
        '  $ svc mcp tools notes\n' +
        '  $ svc mcp import ~/.config/Claude/claude_desktop_config.json\n' +
        '  $ svc mcp remove notes --yes',
    );
  for (const sub of [mcpAddCommand(context), mcpListCommand(context), mcpRemoveCommand(context), mcpToolsCommand(context), mcpImportCommand(context)]) mcp.addCommand(sub);
  return mcp;
}
