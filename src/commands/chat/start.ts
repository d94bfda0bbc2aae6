/**
 * A chat once its flags are checked (chat.ts): the role and the files read from the disk (each
 * refusal exit 2, nothing sent: an unknown role lists the known ones, a file names itself), then
 * one answer, or the interactive session when asked (-i), or when there is no prompt and a person
 * is at both ends (stdin and stdout are terminals), as docs/chat.md says.
 */
import { describeTotal } from '../../attachments/message.js';
import { readAttachments } from '../../attachments/read.js';
import { prepareImages } from '../../attachments/image-input.js';
import { UsageError } from '../../core/errors.js';
import { promptWithRole, roleToUse } from '../../roles/fill-role.js';
import type { CommandContext } from '../context.js';
import { runOneShot } from './one-shot.js';
import type { ChatInputs, ChatPlan } from './options.js';
import { readPrompt } from './prompt-input.js';

export async function startChat(plan: ChatPlan, context: CommandContext): Promise<void> {
  const { io } = context.factory;
  const inputs = await prepareChat(context, plan);
  const personAtBothEnds = io.stdinKind === 'tty' && io.stdoutIsTTY;
  const noPrompt = plan.words.length === 0 && inputs.files.length === 0;
  // --compact runs once, with or without a message (parseChatOptions refuses it with -i).
  if (plan.dryRun || plan.extract || plan.compact || (!plan.interactive && !(noPrompt && personAtBothEnds))) {
    await runOneShot(plan, inputs, context.factory, context.signal);
    return;
  }
  // --json prints one answer: a session has no place for it (-i --json is refused with the flags).
  if (plan.json) throw new UsageError('--json prints one answer as JSON, and with no prompt svc chat opens an interactive session', { hint: 'give the prompt: svc chat --json "list three primes"' });
  // With -i, piped text (and words, and files) make the first message; a plain `svc chat` on a
  // terminal has none.
  const first = await readPrompt(io, plan, inputs.files, context.signal);
  const { runInteractive } = await import('./interactive/repl.js');
  const firstMessage = first.text === '' && !first.images ? undefined : { ...first, text: promptWithRole(inputs.role, first.text) };
  await runInteractive(plan, inputs.role, context, firstMessage);
}

async function prepareChat(context: CommandContext, plan: ChatPlan): Promise<ChatInputs> {
  const { io } = context.factory;
  // Its blanks are checked and its system message filled here, before stdin is read.
  const role = roleToUse(io.env, plan.role, plan.vars);
  const read = readAttachments(plan.files ?? [], io.cwd);
  // Images are scaled down here, so a refusal (a damaged file) comes before stdin is read too.
  const files = read.some((file) => file.image && 'data' in file.image) ? await prepareImages(read, { max: (await context.factory.settings(plan.settings)).imageInputMax.value, option: '-f' }) : read;
  // On a terminal, the size of what goes out (a glob can match more than meant); scripts get quiet.
  if (files.length > 0 && io.stderrIsTTY) io.note(`attached ${describeTotal(files)}`);
  return { role, files };
}
