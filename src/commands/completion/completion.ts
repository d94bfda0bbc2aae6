/**
 * `svc completion <bash|zsh|fish>`: print the completion script for a shell, made from the
 * program's own declarations (model.ts, then bash.ts, zsh.ts or fish.ts, loaded when it runs).
 */
import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { IO } from '../../terminal/io.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionCommand(context: CommandContext, root: () => CommandUnknownOpts): CommandUnknownOpts {
  return new Command('completion')
    .summary('print the shell completion script')
    .description('Print the Tab-completion script for bash, zsh or fish (the same as the files in completions/).')
    .addArgument(completes(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS), SHELLS))
    .addHelpText(
      'after',
      '\nExamples:\n  $ source <(svc completion bash)                      # try it in this shell\n' +
        '  $ svc completion bash > ~/.local/share/bash-completion/completions/svc\n' +
        '  $ svc completion zsh > ~/.zfunc/_svc\n  $ svc completion fish > ~/.config/fish/completions/svc.fish',
    )
    .action((shell) => runCompletion(context.factory.io, root(), shell));
}

/** The model and the one shell's script load when the command runs, never as the program starts. */
async function runCompletion(io: IO, program: CommandUnknownOpts, shell: (typeof SHELLS)[number]): Promise<void> {
  const model = (await import('./model.js')).completionModel(program);
  const script =
    shell === 'bash' ? (await import('./bash.js')).renderBash(model) : shell === 'zsh' ? (await import('./zsh.js')).renderZsh(model) : (await import('./fish.js')).renderFish(model);
  io.stdout.write(script);
}
