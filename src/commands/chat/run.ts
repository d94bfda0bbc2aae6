/**
 * `svc chat`: one-shot or interactive. Interactive when asked (-i), or when there is no prompt
 * and a person is at both ends (stdin and stdout are terminals), as cli.md says.
 */
import type { CommandContext } from '../context.js';
import type { ChatFlags } from './flags.js';
import { runOneShot } from './one-shot.js';
import { parseChatOptions } from './options.js';
import { readPrompt } from './prompt-input.js';

export async function runChat(words: string[], flags: ChatFlags, context: CommandContext): Promise<void> {
  const { io } = context.factory;
  // Every flag is checked before stdin is read or anything is sent (exit 2, nothing sent).
  const plan = parseChatOptions(words, flags);
  const personAtBothEnds = io.stdinKind === 'tty' && io.stdoutIsTTY;
  if (!plan.interactive && !(plan.words.length === 0 && personAtBothEnds)) {
    await runOneShot(plan, context.factory, context.signal);
    return;
  }
  // With -i, piped text (and words) make the first message; a plain `svc chat` on a terminal has none.
  const first = await readPrompt(io, plan, context.signal);
  const { runInteractive } = await import('./interactive/repl.js');
  await runInteractive(plan, context, first === '' ? undefined : first);
}
