/** `svc completion <bash|zsh|fish>`: print the completion script for a shell. */
import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
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
    .action(async (shell: (typeof SHELLS)[number]) => {
      const { renderCompletion } = await import('./render.js');
      context.factory.io.stdout.write(renderCompletion(root(), shell));
    });
}
