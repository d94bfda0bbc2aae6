/**
 * `svc chat "question"` and `… | svc chat "instruction"`: one request, the reply streamed to
 * stdout, everything else on stderr; the exchange is saved unless --no-save.
 */
import type { ChatCompletion, ChatRequest, RequestMessage } from '../../api/chat-types.js';
import type { ConversationSession } from '../../conversations/session.js';
import { InterruptedError, SvcError, UsageError } from '../../core/errors.js';
import type { Factory, ResolvedSettings } from '../../factory.js';
import type { IO } from '../../terminal/io.js';
import { reportError } from '../../terminal/report-error.js';
import { applySystemFlag, chooseChatModel, contextWindowSettings, openConversation } from './open-conversation.js';
import { unsetModelError } from '../../chat/model-choice.js';
import { readPrompt } from './prompt-input.js';
import { promptWithRole } from '../../roles/fill-role.js';
import { promptContent, reasoningShown, rendersReplies, replyText, StreamUsageAsk } from './reply.js';
import { completionWithSteps, declinedError, oneShotApproval, openChatTools, replyWithTools, stepLimitError, toolTurn } from './tool-turn.js';
import { DEFAULT_MAX_STEPS } from './tool-flags.js';
import { emptyReplyNote } from '../../api/reply-checks.js';
import { chatParams } from '../../core/request-params.js';
import { buildChatRequest, fieldsWithRole, type ChatInputs, type ChatPlan } from './options.js';
import { printDryRun } from '../dry-run.js';
import { replyUsageLine, type Price } from '../../settings/prices.js';
import { jsonForOutput } from '../../core/json.js';
import { extractedCode } from '../../chat/code-blocks.js';
import { forOutput } from '../../core/terminal-text.js';
import type { ApiClient } from '../../api/client.js';
import { DEFAULT_KEEP } from '../../conversations/compaction.js';
import { compactedNote, compactSession, EmptySummaryError, nothingNote, rewindPast } from './compact.js';

function writeJson(io: IO, completion: ChatCompletion): void {
  io.stdout.write(jsonForOutput(completion, io.stdoutIsTTY));
}

export async function runOneShot(plan: ChatPlan, inputs: ChatInputs, factory: Factory, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const settings = await factory.settings(plan.settings);
  // With --extract stdout gets only the code: the answer itself goes to a terminal on stderr, or nowhere.
  const replyIO = plan.extract ? answerOnStderr(io) : io;
  // Decided before anything is sent: a mistyped SVC_RENDER on a terminal is a usage error (exit 2).
  const render = !plan.json && !plan.dryRun && rendersReplies(replyIO, settings);
  const typed = await readPrompt(io, plan, inputs.files, signal);
  const prompt = { ...typed, text: promptWithRole(inputs.role, typed.text) };
  const text = prompt.text;
  const message = text !== '' || prompt.images !== undefined;
  // --compact alone prints the summary: the flags that shape an answer need a message to answer.
  if (!message && plan.compact && (plan.json || plan.extract)) throw new UsageError(`--compact with no message prints the summary; ${plan.json ? '--json' : '-x'} needs a message to answer`, { hint: 'svc chat --continue --compact "the next question"' });
  if (!message && !plan.compact) {
    // -x on its own would otherwise read as a session: it takes the code of one answer.
    if (plan.extract) throw new UsageError(`${plan.extract === 'last' ? '--extract-last' : '-x'} needs a one-shot prompt: words, -f files or piped text`, { hint: 'svc chat -x "a bash script that counts lines" > count.sh   (in a session, /copy code copies the code of the last reply)' });
    throw new UsageError('no prompt: give it as words or pipe it in', { hint: 'svc chat "why is the sky blue?"   or   git diff | svc chat "write a commit message"' });
  }
  const { role } = inputs;
  // A dry run changes nothing on disk: the conversation is read, never written. With the setting
  // saveOneShots off, an answer to no named or continued conversation is kept nowhere either.
  const oneShot = !plan.conversation.continueLatest && plan.conversation.sessionName === undefined;
  const unsaved = plan.dryRun === true || (oneShot && settings.saveOneShots.value === 'off');
  const conversation = unsaved ? { ...plan.conversation, save: false } : plan.conversation;
  const client = plan.dryRun ? undefined : await factory.apiClient(settings);
  const session = openConversation(await factory.conversationStore(), conversation);
  applySystemFlag(session, plan.system ?? role?.system);
  const choice = await chooseChatModel(io.env, settings, session, role, client, signal);
  const model = choice.model;
  const streamUsage = new StreamUsageAsk(settings.streamUsage.value === 'on');
  const requestFor = (messages: RequestMessage[]): ChatRequest => buildChatRequest(model, messages, { streamUsage: streamUsage.on, fields: fieldsWithRole(plan.fields, role), stream: plan.stream, params: chatParams(settings.params.value, role?.params, plan.params) });
  // --usage: the summary's counts are printed too, as a reply's are (the prices are read once, when first asked for).
  const prices = async (): Promise<ReadonlyMap<string, Price> | undefined> => (plan.usage ? factory.prices() : undefined);
  if (plan.compact && client) {
    await compactBeforeSending(io, client, session, DEFAULT_KEEP, { request: requestFor, signal, streamUsage, message, settings, prices: await prices() });
    if (!message) {
      const notSaved = notSavedError(session);
      if (notSaved) throw notSaved;
      return;
    }
  }
  const tools = await openChatTools((servers, stop) => factory.openTools(servers, stop), plan.tools, role, () => settings.tools.value, signal);
  if (!client) {
    const request = requestFor(session.messages(promptContent(session, prompt)));
    if (tools.definitions.length > 0) request.tools = tools.definitions;
    await tools.close();
    printDryRun(io, settings, 'chat/completions', request, plan.stream);
    return;
  }

  let messages: RequestMessage[];
  // Only a conversation with earlier turns is checked: a plain question costs no lookup.
  if (session.turns.length === 0) messages = session.messages(promptContent(session, prompt));
  else {
    const { beforeSend, ContextWindows } = await import('../../chat/server-window.js');
    const { tooLongWarning } = await import('../../chat/context-window.js');
    messages = await beforeSend({
      windows: ContextWindows.of(await contextWindowSettings(factory, settings), client),
      conversation: session,
      request: () => requestFor(session.messages(promptContent(session, prompt))),
      // --compact has just compacted: once is enough.
      autoCompact: plan.compact ? 'off' : settings.autoCompact.value,
      compact: async () => compactBeforeSending(io, client, session, DEFAULT_KEEP, { request: requestFor, signal, streamUsage, message: true, settings, prices: await prices() }),
      note: (text) => io.note(text),
      warn: (check) => io.warn(tooLongWarning(check, model, 'one-shot')),
      signal,
    });
  }
  const reasoning = reasoningShown(replyIO, { json: plan.json, showReasoning: plan.showReasoning === true });
  const quiet = plan.json || (plan.extract !== undefined && !io.stderrIsTTY);
  const maxSteps = plan.tools?.maxSteps ?? DEFAULT_MAX_STEPS;
  const approval = tools.definitions.length > 0 ? oneShotApproval(io) : undefined;
  let loop;
  try {
    loop = await replyWithTools(replyIO, client, messages, { tools, maxSteps, request: requestFor, reply: { signal, quiet, render, reasoning, streamUsage }, ask: approval?.ask });
  } finally {
    approval?.close();
    await tools.close();
  }
  const outcome = loop.last;
  const reply = replyText(outcome.completion);
  const finished = outcome.error === undefined;
  // Stopped by the user (Ctrl-C, or the reader of stdout leaving): kept marked interrupted, as in
  // the session. A failure that brought no text keeps nothing: running the command again asks
  // again. Tools that ran are kept whatever came after them: what they did is done.
  const interrupted = loop.stopped === 'interrupted';
  const stoppedByUser = signal.aborted || outcome.stdoutClosed || interrupted;
  const turn = toolTurn(prompt, model, loop);
  if (finished || reply !== '' || stoppedByUser || loop.steps.length > 0) session.addTurn(turn);
  const notSaved = notSavedError(session);
  if (outcome.stdoutClosed) {
    if (notSaved) throw notSaved;
    return;
  }
  if (plan.json && outcome.completion && (finished || reply !== '')) writeJson(io, completionWithSteps(outcome.completion, loop));
  if (!finished || interrupted) {
    if (notSaved) await reportError(io, notSaved, factory.loadedApiKey());
    if (signal.aborted || interrupted) throw new InterruptedError();
    // A model svc chose itself and the service refused: say that none is set, and what it has.
    throw choice.unset ? await unsetModelError(outcome.error, model, choice.unset, client, signal) : outcome.error;
  }
  const limit = stepLimitError(loop, maxSteps);
  const finishReason = outcome.completion?.choices[0]?.finish_reason;
  const empty = limit ? undefined : emptyReplyNote(outcome.completion);
  if (empty) io.note(empty);
  else if (finishReason === 'length') io.note('the reply was cut at the token limit (finish_reason: length)');
  // With no text at all it is an error (api/reply-checks.ts); after some, the text stands, cut.
  if (finishReason === 'content_filter') io.note("the service's content filter cut the reply (finish_reason: content_filter)");
  if (plan.usage) io.say(replyUsageLine(turn.usage, await factory.prices(), model, outcome.completion?.model));
  if (notSaved) throw notSaved;
  if (limit) throw limit;
  if (plan.extract) writeExtracted(io, reply, plan.extract);
  const declined = declinedError(loop);
  if (declined) throw declined;
}

/**
 * --compact: the conversation's turns but the last `keep` summarised before the message is sent.
 * Alone, the summary is the output (stdout); before a message, stdout is the reply's, so the
 * summary goes to a terminal on stderr, or nowhere. What it did is said on stderr; a failure ends
 * the run before the message is sent (exit as for a reply's error), Ctrl-C too (130), keeping
 * nothing.
 */
export async function compactBeforeSending(
  io: IO,
  client: ApiClient,
  session: ConversationSession,
  keep: number,
  how: { request: (messages: RequestMessage[]) => ChatRequest; signal: AbortSignal; streamUsage: StreamUsageAsk; message: boolean; settings: ResolvedSettings; prices: ReadonlyMap<string, Price> | undefined },
): Promise<void> {
  const shownOn = how.message ? answerOnStderr(io) : io;
  const quiet = how.message && !io.stderrIsTTY;
  const outcome = await compactSession(shownOn, client, session, keep, { request: how.request, signal: how.signal, render: !quiet && rendersReplies(shownOn, how.settings), quiet, streamUsage: how.streamUsage });
  switch (outcome.kind) {
    case 'nothing':
      io.note(nothingNote(outcome, keep, session.activeCompaction));
      return;
    case 'interrupted':
      throw new InterruptedError();
    case 'failed':
      throw outcome.error instanceof EmptySummaryError ? new SvcError(outcome.error.message, { hint: 'run it again, or with another model (-m)' }) : outcome.error;
    case 'compacted':
      io.note(compactedNote(outcome, session.saved ? `/rewind ${rewindPast(outcome.record)} in \`svc chat --session ${session.name}\` undoes it` : 'not saved (--no-save)'));
      // --usage: the summary's counts, as a reply's are printed.
      if (how.prices) io.say(replyUsageLine(outcome.record.usage, how.prices, outcome.record.model));
  }
}

/** The IO a reply is drawn on under --extract: stderr in stdout's place. */
function answerOnStderr(io: IO): IO {
  return { ...io, stdout: io.stderr, stdoutIsTTY: io.stderrIsTTY };
}

/** --extract: the code blocks on stdout, or exit 1 when the answer has none (as grep finding nothing). */
function writeExtracted(io: IO, reply: string, which: 'all' | 'last'): void {
  const code = extractedCode(reply, which);
  if (code === undefined) throw new SvcError('the answer has no fenced code block, so --extract printed nothing', { hint: 'ask for the code in a fenced block, or leave out --extract to see the whole answer' });
  io.stdout.write(`${forOutput(code, io.stdoutIsTTY)}\n`);
}

/** The reply reached stdout but not the disk: exit 1, naming the file and its folder. */
function notSavedError(session: ConversationSession): SvcError | undefined {
  const failure = session.saveFailure;
  if (!failure) return undefined;
  return new SvcError(`the reply was not saved: cannot write ${failure.path}: ${failure.reason}`, {
    hint: `free some space or fix ${failure.dir}, or add --no-save to keep nothing`,
  });
}
