/** `svc mcp import FILE`: the servers of another client's settings (Claude Desktop, gemini-cli), added to the profile. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Argument, Command } from '@commander-js/extra-typings';
import { UsageError } from '../../core/errors.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

export interface ImportFlags {
  force?: true | undefined;
}

export function mcpImportCommand(context: CommandContext) {
  return new Command('import')
    .description(
      'Add the MCP servers of another client\'s settings file to the profile in use: the "mcpServers" object of Claude Desktop\'s ' +
        'claude_desktop_config.json or gemini-cli\'s settings.json ({"NAME": {"command", "args", "env", "cwd"} or {"url" or "httpUrl", ' +
        '"headers"}}). Says what was added and what was skipped, and why; a server whose name is taken is skipped unless --force. ' +
        'FILE - reads standard input.',
    )
    .addArgument(completes(new Argument('<file>', 'the settings file, or - for standard input'), { kind: 'files' }))
    .option('--force', 'replace servers of the same names')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ svc mcp import ~/.config/Claude/claude_desktop_config.json\n' +
        '  $ echo \'{"mcpServers": {"demo": {"command": "mcp-server-everything"}}}\' | svc mcp import -',
    )
    .action((file, flags) => runImport(context, file, flags));
}

export async function runImport(context: CommandContext, file: string, flags: ImportFlags): Promise<void> {
  const { factory } = context;
  const { io } = factory;
  const [{ profileServerStore, planImport, describeTarget }, { readAllText }] = await Promise.all([import('../../tools/servers.js'), import('../../terminal/streams.js')]);
  let text: string;
  const source = file === '-' ? 'standard input' : file;
  if (file === '-') {
    if (io.stdinKind === 'tty') throw new UsageError('- reads the settings from standard input, which is this terminal', { hint: 'pipe or redirect them: svc mcp import - < settings.json' });
    text = await readAllText(io.stdin);
  } else {
    try {
      text = readFileSync(resolve(io.cwd, file), 'utf8');
    } catch (error) {
      throw new UsageError(errnoCode(error) === 'ENOENT' ? `${file}: no such file; nothing was imported` : `cannot read ${file}: ${describeSystemError(error)}; nothing was imported`);
    }
  }
  const store = await profileServerStore(await factory.profile(), io, 'create');
  const plan = planImport(text, source, store.read(true), flags.force === true);
  if (plan.add.length > 0) await store.put(plan.add.map((server) => [server.name, server.config] as const));
  for (const server of plan.add) {
    const ignored = server.ignored.length > 0 ? `svc has no use for its ${server.ignored.map((field) => `"${field}"`).join(', ')}` : undefined;
    io.note(`${server.replaces ? 'replaced' : 'added'} "${server.name}": ${describeTarget(server.config)}`, ignored);
    if (server.literalDollars.length > 0) {
      const names = server.literalDollars.join(', ');
      io.warn(`"${server.name}": the value of ${names} looks like a variable ($NAME), which svc passes as written`, 'write ${NAME} for svc to take it from your environment when the server starts');
    }
  }
  for (const skipped of plan.skip) io.warn(`skipped "${skipped.name}": ${skipped.reason}`);
  const total = plan.add.length + plan.skip.length;
  io.note(plan.add.length === 0 ? `nothing was imported from ${source}` : `imported ${plan.add.length} of ${total} MCP server${total === 1 ? '' : 's'} from ${source} into ${store.path}`);
}
