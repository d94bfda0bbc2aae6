/**
 * One turn of the session: send the conversation plus the new message, stream the reply, keep
 * what came. Nothing the user typed is dropped: a message whose send failed with no reply stays
 * as "not sent" for /retry, and a model the service refuses after /model is undone at once.
 */
import type { Prompt } from '../../../attachments/message.js';
import { addUsage, addUsageOfModel } from '../../../conversations/model.js';
import { ApiError } from '../../../core/errors.js';
import { refusesModel, unsetModelError } from '../../../chat/model-choice.js';
import { reportError } from '../../../terminal/report-error.js';
import { promptContent, reasoningShown, replyText } from '../reply.js';
import { replyWithTools, toolTurn } from '../tool-turn.js';
import { DEFAULT_MAX_STEPS } from '../tool-flags.js';
import type { ChatRequest, RequestMessage } from '../../../api/chat-types.js';
import type { Approval, CallView } from '../../../chat/tool-loop.js';
import { askByKeys, askByLine } from '../../../terminal/tool-approval.js';
import { emptyReplyNote } from '../../../api/reply-checks.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import { replyUsageLine } from '../../../settings/prices.js';
import { say, sessionRequest, type SessionDeps, type SessionState } from './session-state.js';
import { beforeSend } from '../../../chat/server-window.js';
import { tooLongWarning } from '../../../chat/context-window.js';
import { DEFAULT_KEEP } from '../../../conversations/compaction.js';
import { compactInSession } from './compact-command.js';

export type TurnDeps = SessionDeps;

/** What became of a message that brought no reply, in a few words. */
function unsentFate(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return 'the service turned your message down';
  if (error instanceof ApiError) return 'your message got no reply';
  return 'your message was not sent';
}

/**
 * How the session asks about a tool call: one key, the keys taken from the line reader while the
 * question is up (typed-ahead text stays for the next prompt); in plain mode, or with a reader
 * that has no keys of its own, a line.
 */
function sessionApproval(state: SessionState): (call: CallView, signal: AbortSignal) => Promise<Approval> {
  const { reader, io } = state;
  const divert = reader.divertKeys?.bind(reader);
  if (divert) return (call, signal) => askByKeys(divert, io.stderr, call, { colour: io.colorEnabled, scope: 'session', signal });
  return (call) => askByLine((prompt) => reader.read(prompt, { remember: false }), io.stderr, call, 'session');
}

/**
 * Before a send that follows earlier turns (chat/server-window.ts beforeSend): `autoCompact`
 * compacts first as /compact does (Ctrl-C or a failure leaves the conversation as it was, and the
 * message is sent all the same); a request that will still not fit is said in one line. Returns
 * the messages to send.
 */
async function beforeSessionSend(state: SessionState, prompt: Prompt): Promise<RequestMessage[]> {
  const { windows, autoCompact = 'off', context } = state.deps;
  const messages = (): RequestMessage[] => state.session.messages(promptContent(state.session, prompt));
  if (!windows || state.session.turns.length === 0) return messages();
  return beforeSend({
    windows,
    conversation: state.session,
    request: () => sessionRequest(state, messages()),
    autoCompact,
    compact: async () => void (await compactInSession(state, DEFAULT_KEEP)),
    note: (text) => say(state, `(${text})`),
    warn: (check) => say(state, `(${tooLongWarning(check, neutraliseForTerminal(state.model), 'session')})`),
    signal: context.signal,
  });
}

export async function askTurn(state: SessionState, prompt: Prompt, deps: TurnDeps): Promise<void> {
  const { context, client, plan } = deps;
  const { io } = state;
  const messages = await beforeSessionSend(state, prompt);
  const stop = new AbortController();
  // Ctrl-C from the keyboard (raw mode: the reader sees it) or as a signal (kill -INT).
  const releaseKeys = state.reader.whileBusy(() => stop.abort());
  const release = context.interrupts.push(() => stop.abort());
  const onLeave = (): void => stop.abort();
  context.signal.addEventListener('abort', onLeave, { once: true });
  state.unsent = undefined;
  const requestFor = (messages: RequestMessage[]): ChatRequest => sessionRequest(state, messages);
  const maxSteps = plan.tools?.maxSteps ?? DEFAULT_MAX_STEPS;
  let loop;
  try {
    const reasoning = reasoningShown(io, { json: false, showReasoning: plan.showReasoning === true });
    const reply = { signal: stop.signal, render: state.render, reasoning, ...(deps.streamUsage ? { streamUsage: deps.streamUsage } : {}) };
    loop = await replyWithTools(io, client, messages, { tools: state.tools, maxSteps, request: requestFor, reply, ask: sessionApproval(state) });
  } finally {
    releaseKeys();
    release();
    context.signal.removeEventListener('abort', onLeave);
  }
  // Ctrl-C while a tool call was asked about stops the reply as Ctrl-C while it streams does.
  if (loop.stopped === 'interrupted') stop.abort();
  const outcome = loop.last;
  const reply = replyText(outcome.completion);
  const finished = outcome.error === undefined;
  const turn = toolTurn(prompt, state.model, loop);
  if (finished || reply !== '' || stop.signal.aborted || loop.steps.length > 0) {
    state.session.addTurn(turn);
    // Counted with the turn it belongs to, so "this session" and "whole conversation" agree.
    addUsage(state.usage, turn.usage);
    addUsageOfModel(state.usageByModel, state.model, turn.usage);
  } else {
    state.unsent = prompt;
  }
  if (finished && !stop.signal.aborted) {
    state.modelTrial = undefined; // the new model answered: it stays
    if (loop.stopped === 'limit') {
      say(state, `(the model was still calling tools after ${maxSteps} request${maxSteps === 1 ? '' : 's'}; stopped there, its last calls not run: /retry asks again)`);
      return;
    }
    const empty = emptyReplyNote(outcome.completion);
    if (empty) say(state, `(${empty})`);
    else if (outcome.completion?.choices[0]?.finish_reason === 'length') say(state, '(the reply was cut at the token limit)');
    // --usage: the counts of each reply, as a one-shot answer prints them (/usage sums them up).
    if (plan.usage) say(state, replyUsageLine(turn.usage, deps.prices ?? new Map(), state.model, outcome.completion?.model));
    return;
  }
  if (stop.signal.aborted) {
    say(state, '(reply interrupted; kept as far as it came: /retry asks again)');
    return;
  }
  // The model svc chose itself (none is set), refused: said as that, with the models the service has.
  const unset = deps.unsetModel !== undefined && state.modelTrial === undefined && state.model === deps.unsetModel.model ? deps.unsetModel.place : undefined;
  const error = unset ? await unsetModelError(outcome.error, state.model, unset, client, context.signal) : outcome.error;
  await reportError(io, error, context.factory.loadedApiKey());
  const trial = state.modelTrial;
  if (trial && refusesModel(outcome.error)) {
    const refused = state.model;
    state.model = trial.model;
    state.session.setModel(trial.conversationModel);
    state.modelTrial = undefined;
    say(state, `(the service refused ${refused}; back to ${state.model})`);
  }
  // Say what became of it: turned down (4xx), sent but unanswered (the service failed), or never sent.
  if (state.unsent !== undefined) say(state, `(${unsentFate(outcome.error)}: /retry sends it again, Up recalls it to change it)`);
  else if (reply !== '') say(state, '(the partial reply is kept: /retry asks again)');
}
