/**
 * `svc chat`: one-shot or interactive. Interactive when asked (-i), or when there is no prompt
 * and a person is at both ends (stdin and stdout are terminals), as cli.md says.
 */
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { type ChatOptions, runOneShot } from './one-shot.js';
import { checkConversationChoice } from './open-conversation.js';
import { composePrompt, readPipedPrompt, stdinHasInput } from './prompt-input.js';
import { parseRequestOptions } from './request-options.js';

export async function runChat(options: ChatOptions, context: CommandContext): Promise<void> {
  const { io } = context.factory;
  // Every flag is checked before stdin is read or anything is sent (exit 2, nothing sent).
  parseRequestOptions(options);
  checkConversationChoice(options);
  if (options.interactive && options.json) throw new UsageError('--json is for one-shot answers, not the interactive session');
  const personAtBothEnds = io.stdinKind === 'tty' && io.stdoutIsTTY;
  if (!options.interactive) {
    if (options.words.length === 0 && personAtBothEnds) {
      const { runInteractive } = await import('./interactive/repl.js');
      return runInteractive(options, context);
    }
    await runOneShot(options, context.factory, context.signal);
    return;
  }
  const piped = stdinHasInput(io, options.stdin) ? await readPipedPrompt(io, options.words, context.signal) : undefined;
  const first = composePrompt(options.words, piped);
  const { runInteractive } = await import('./interactive/repl.js');
  await runInteractive(options, context, first === '' ? undefined : first);
}
