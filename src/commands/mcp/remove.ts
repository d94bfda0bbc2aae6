/** `svc mcp remove NAME...`: forget MCP servers (the programs themselves are not touched). */
import { Argument, Command } from '@commander-js/extra-typings';
import { UsageError } from '../../core/errors.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { ASKS_FIRST, confirmDeletion, describeMany, yesOption } from '../deletion.js';

export interface RemoveFlags {
  yes?: true | undefined;
}

export function mcpRemoveCommand(context: CommandContext) {
  return new Command('remove')
    .alias('rm')
    .description(
      'Remove MCP servers from the profile in use (the programs themselves stay installed). ' +
        ASKS_FIRST,
    )
    .addArgument(completes(new Argument('<name...>', 'server name(s) (see `svc mcp list`)'), { kind: 'mcp-servers' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc mcp add scratch -- mcp-server-everything\n  $ svc mcp remove scratch --yes')
    .action((names, flags) => runRemove(context, names, flags));
}

export async function runRemove(context: CommandContext, texts: string[], flags: RemoveFlags): Promise<void> {
  const { factory } = context;
  const { io } = factory;
  const { profileServerStore } = await import('../../tools/servers.js');
  const store = await profileServerStore(await factory.profile(), io, 'read');
  const list = store.read(true);
  const known = [...list.servers.keys(), ...list.broken.map((entry) => entry.name)];
  const names = [...new Set(texts)];
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`no MCP server named ${unknown.map((name) => `"${name}"`).join(', ')}; nothing was removed`, {
      hint: known.length === 0 ? 'this profile has none' : `servers: ${known.join(', ')}`,
    });
  }
  await confirmDeletion(io, describeMany(names, 'the MCP server', 'MCP servers'), flags.yes);
  await store.remove(names);
  for (const name of names) io.note(`removed the MCP server "${name}"`);
}
