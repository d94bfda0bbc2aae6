/** `svc sessions list|show|delete`: the saved conversations. */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

export function sessionsCommand(context: CommandContext): Command {
  const load = () => import('./run.js');
  const sessions = new Command('sessions')
    .summary('list, show or delete saved conversations')
    .description('Saved conversations, kept in $XDG_DATA_HOME/svc/conversations (default ~/.local/share/svc).')
    .addHelpText('after', '\nExamples:\n  $ svc sessions list\n  $ svc sessions show work --json > work.json\n  $ svc sessions delete work');
  sessions
    .command('list')
    .description('One line each, newest first: name, last change, turns, first line.')
    .option('--json', 'print a JSON array instead')
    .action(async (options: { json?: boolean }) => (await load()).runList(context.factory, options.json === true));
  sessions
    .command('show')
    .description('Print a conversation as a transcript, or its messages array with --json.')
    .addArgument(completes(new Argument('<name>', 'conversation name (see `svc sessions list`)'), { kind: 'sessions' }))
    .option('--json', 'the messages array, as the service expects it')
    .action(async (name: string, options: { json?: boolean }) => (await load()).runShow(context.factory, name, options.json === true));
  sessions
    .command('delete')
    .description('Delete a saved conversation.')
    .addArgument(completes(new Argument('<name...>', 'conversation name(s)'), { kind: 'sessions' }))
    .action(async (names: string[]) => (await load()).runDelete(context.factory, names));
  return sessions;
}
