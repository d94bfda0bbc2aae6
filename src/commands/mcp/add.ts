/** `svc mcp add NAME -- COMMAND [ARGS...]` or `svc mcp add NAME --url URL`: keep a server in the profile (nothing is started). */
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { UsageError } from '../../core/errors.js';
import type { ServerConfig } from '../../tools/servers.js';
import type { CommandContext } from '../context.js';
import { collect } from '../setting-flags.js';

export interface AddFlags {
  url?: string | undefined;
  env: string[];
  header: string[];
  cwd?: string | undefined;
  force?: true | undefined;
}

export function mcpAddCommand(context: CommandContext) {
  return new Command('add')
    .description(
      'Keep an MCP server in the profile in use: a program svc starts when its tools are used (COMMAND and its ARGS, after --), ' +
        'or one already running at a URL (Streamable HTTP). Nothing is started now. The program gets only PATH, HOME and the ' +
        '--env variables, never svc\'s key; a value may name a variable of your environment as ${NAME}, taken when it starts.',
    )
    .addArgument(new Argument('<name>', 'what to call it: letters, digits, "-" and "_" (NAME.TOOL names one of its tools)'))
    .addArgument(new Argument('[command...]', 'the program and its arguments, after --'))
    .addOption(new Option('--url <url>', 'a server already running at this http(s) address, instead of a program'))
    .addOption(new Option('--env <KEY=VALUE>', 'a variable of the program\'s environment (repeatable)').argParser(collect).default([] as string[]))
    .addOption(new Option('--header <"Name: value">', 'an HTTP header sent to a --url server (repeatable)').argParser(collect).default([] as string[]))
    .addOption(new Option('--cwd <folder>', 'the folder the program runs in (default: the one svc is run from)'))
    .addOption(new Option('--force', 'replace a server of the same name'))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ svc mcp add notes -- mcp-server-filesystem ~/notes   # npm install -g @modelcontextprotocol/server-filesystem\n' +
        '  $ svc mcp add demo --env LOG_LEVEL=debug -- mcp-server-everything\n' +
        "  $ svc mcp add remote --url https://mcp.example.com/mcp --header 'Authorization: Bearer ${MCP_TOKEN}'\n" +
        '  $ svc mcp tools notes',
    )
    .action((name, command, flags) => runAdd(context, name, command, flags));
}

export async function runAdd(context: CommandContext, nameText: string, command: string[], flags: AddFlags): Promise<void> {
  const { factory } = context;
  const { io } = factory;
  const { parseServerName, parseEnvAssignments, parseHeaders, httpUrl, profileServerStore, describeTarget } = await import('../../tools/servers.js');
  const name = parseServerName(nameText);
  if ((flags.url === undefined) === (command.length === 0)) {
    throw new UsageError(flags.url === undefined ? `svc mcp add ${name}: give the program to run after --, or --url` : 'give either a program to run or --url, not both', {
      hint: `for example: svc mcp add ${name} -- mcp-server-filesystem ~/notes`,
    });
  }
  let config: ServerConfig;
  if (flags.url !== undefined) {
    if (flags.env.length > 0 || flags.cwd !== undefined) throw new UsageError('--env and --cwd are for a program svc starts, not a --url server', { hint: 'a --url server takes --header' });
    const url = httpUrl(flags.url);
    if (url === undefined) throw new UsageError(`--url ${flags.url}: not an http:// or https:// address`);
    config = { kind: 'url', url, headers: parseHeaders(flags.header) };
  } else {
    if (flags.header.length > 0) throw new UsageError('--header is for a --url server', { hint: 'a program gets --env variables instead' });
    config = { kind: 'command', command: command[0]!, args: command.slice(1), env: parseEnvAssignments(flags.env) };
    if (flags.cwd !== undefined) config.cwd = flags.cwd;
  }
  const store = await profileServerStore(await factory.profile(), io, 'create');
  const list = store.read(true);
  const exists = list.servers.has(name) || list.broken.some((entry) => entry.name === name);
  if (exists && flags.force !== true) {
    throw new UsageError(`an MCP server named "${name}" exists; nothing was changed`, { hint: `replace it with --force, or remove it first: svc mcp remove ${name}` });
  }
  await store.put([[name, config]]);
  io.note(`${exists ? 'replaced' : 'added'} the MCP server "${name}": ${describeTarget(config)}`, `see its tools: svc mcp tools ${name}`);
}
