/**
 * `svc chat`: one-shot or interactive. Interactive when asked (-i), or when there is no prompt
 * and a person is at both ends (stdin and stdout are terminals), as docs/chat.md says.
 */
import type { CommandContext } from '../context.js';
import type { ChatFlags } from './flags.js';
import { runOneShot } from './one-shot.js';
import { parseChatOptions } from './options.js';
import { prepareChat } from './prepare.js';
import { readPrompt } from './prompt-input.js';
import { promptWithRole } from '../../roles/fill-role.js';
import { UsageError } from '../../core/errors.js';

export async function runChat(words: string[], flags: ChatFlags, context: CommandContext): Promise<void> {
  const { io } = context.factory;
  // Every flag is checked, the role and the files read, before stdin is read or anything is
  // sent (exit 2, nothing sent).
  const plan = parseChatOptions(words, flags);
  const inputs = prepareChat(io, plan);
  const personAtBothEnds = io.stdinKind === 'tty' && io.stdoutIsTTY;
  const noPrompt = plan.words.length === 0 && inputs.files.length === 0;
  if (plan.dryRun || plan.extract || (!plan.interactive && !(noPrompt && personAtBothEnds))) {
    await runOneShot(plan, inputs, context.factory, context.signal);
    return;
  }
  // --json prints one answer: a session has no place for it (-i --json is refused with the flags).
  if (plan.json) throw new UsageError('--json prints one answer as JSON, and with no prompt svc chat opens an interactive session', { hint: 'give the prompt: svc chat --json "list three primes"' });
  // With -i, piped text (and words, and files) make the first message; a plain `svc chat` on a
  // terminal has none.
  const first = await readPrompt(io, plan, inputs.files, context.signal);
  const { runInteractive } = await import('./interactive/repl.js');
  const firstMessage = first.text === '' ? undefined : { ...first, text: promptWithRole(inputs.role, first.text) };
  await runInteractive(plan, inputs.role, context, firstMessage);
}
