/**
 * `svc chat`: one-shot or interactive. Interactive when asked (-i), or when there is no prompt
 * and a person is at both ends (stdin and stdout are terminals), as cli.md says.
 */
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { settingFlagsFrom } from '../setting-flags.js';
import type { ChatFlags } from './flags.js';
import { type ChatOptions, runOneShot } from './one-shot.js';
import { checkConversationChoice } from './open-conversation.js';
import { readPrompt } from './prompt-input.js';
import { parseRequestOptions } from './request-options.js';

export async function runChat(words: string[], flags: ChatFlags, context: CommandContext): Promise<void> {
  const { io } = context.factory;
  const options: ChatOptions = {
    words,
    system: flags.system,
    maxTokens: flags.maxTokens,
    temperature: flags.temperature,
    topP: flags.topP,
    stop: flags.stop,
    presencePenalty: flags.presencePenalty,
    frequencyPenalty: flags.frequencyPenalty,
    user: flags.user,
    stream: flags.stream,
    json: flags.json === true,
    usage: flags.usage === true,
    stdin: flags.stdin,
    interactive: flags.interactive === true,
    continueLatest: flags.continue === true,
    sessionName: flags.session,
    save: flags.save,
    settings: settingFlagsFrom(flags, 'model'),
  };
  // Every flag is checked before stdin is read or anything is sent (exit 2, nothing sent).
  parseRequestOptions(options);
  checkConversationChoice(options);
  if (options.interactive && options.json) throw new UsageError('--json is for one-shot answers, not the interactive session');
  const personAtBothEnds = io.stdinKind === 'tty' && io.stdoutIsTTY;
  if (!options.interactive && !(options.words.length === 0 && personAtBothEnds)) {
    await runOneShot(options, context.factory, context.signal);
    return;
  }
  // With -i, piped text (and words) make the first message; a plain `svc chat` on a terminal has none.
  const first = await readPrompt(io, options, context.signal);
  const { runInteractive } = await import('./interactive/repl.js');
  await runInteractive(options, context, first === '' ? undefined : first);
}
