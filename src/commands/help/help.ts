/**
 * `svc help [command...]`: the help page of any command, as `gh help pr create` and
 * `npm help install` give it; the same page as `svc <command...> --help` (bin/svc.js answers
 * both from the pages rendered at build time).
 */
import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../../core/errors.js';
import { completes } from '../completion-hints.js';

/** The command `words` names below `root`, or a usage error naming the first unknown word. */
export function findCommand(root: CommandUnknownOpts, words: string[]): CommandUnknownOpts {
  let command = root;
  for (const [index, word] of words.entries()) {
    const next = command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (!next) {
      const known = command.commands.map((sub) => sub.name()).join(', ');
      const where = ['svc', ...words.slice(0, index)].join(' ');
      throw new UsageError(`unknown command "${words.slice(0, index + 1).join(' ')}"`, { hint: `the commands of ${where}: ${known}` });
    }
    command = next;
  }
  return command;
}

/** `commandNames`: what the first word completes to on Tab (the root's commands). */
export function helpCommand(root: () => CommandUnknownOpts, commandNames: readonly string[]): CommandUnknownOpts {
  return new Command('help')
    .summary('show help for a command')
    .description('Show the help page of svc or of one of its commands: `svc help auth login` is `svc auth login --help`.')
    .addArgument(completes(new Argument('[command...]', 'the command, e.g. chat or auth login'), commandNames))
    .action((words: string[]) => {
      findCommand(root(), words).outputHelp();
    });
}
