/** `svc mcp list`: the MCP servers of the profile in use (nothing is started). */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';

export interface ListFlags {
  json?: true | undefined;
}

export function mcpListCommand(context: CommandContext) {
  return new Command('list')
    .alias('ls')
    .description(
      'Each MCP server of the profile in use: its name, how it is reached (stdio: a program svc starts; http: a URL), the names ' +
        'of the variables or headers it is given (never their values), and its command line or URL. On a terminal a table with ' +
        'a header; in a pipe one tab-separated line each (name, transport, command or URL, names), no header.',
    )
    .option('--json', 'print a JSON array instead: [{name, transport, command, args, cwd, env} or {name, transport, url, headers}]')
    .action((flags) => runList(context, flags));
}

export async function runList(context: CommandContext, flags: ListFlags): Promise<void> {
  const { factory } = context;
  const { io } = factory;
  const [{ profileServerStore, describeTarget, secretNames }, { listingOutput }] = await Promise.all([import('../../tools/servers.js'), import('../../terminal/table.js')]);
  const list = (await profileServerStore(await factory.profile(), io, 'read')).read();
  for (const entry of list.broken) io.warn(`the entry "${entry.name}" in ${list.path} cannot be used: ${entry.problem}`);
  const servers = [...list.servers];
  const json = servers.map(([name, config]) =>
    config.kind === 'url'
      ? { name, transport: 'http', url: config.url, headers: secretNames(config) }
      : { name, transport: 'stdio', command: config.command, args: config.args, cwd: config.cwd ?? null, env: secretNames(config) },
  );
  const rows = servers.map(([name, config]) => [name, config.kind === 'url' ? 'http' : 'stdio', secretNames(config).join(',') || '-', describeTarget(config)]);
  const columns = [{ title: 'NAME' }, { title: 'TRANSPORT' }, { title: 'ENV/HEADERS' }, { title: 'COMMAND OR URL' }];
  // In a pipe the command line comes before the names: a script's `cut -f3` gets it whatever it sets.
  const pipeRows = rows.map(([name, transport, names, target]) => [name!, transport!, target!, names!]);
  io.stdout.write(listingOutput({ columns, rows: io.stdoutIsTTY ? rows : pipeRows, json }, flags.json === true, io));
  if (servers.length === 0 && flags.json !== true && io.stderrIsTTY) io.note('no MCP servers in this profile', 'add one: svc mcp add NAME -- COMMAND [ARGS...] (svc mcp add --help)');
}
