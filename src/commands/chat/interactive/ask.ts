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
import { reasoningShown, replyText, streamReply, turnFrom } from '../reply.js';
import { emptyReplyNote } from '../../../api/reply-checks.js';
import { chatParams } from '../../../core/request-params.js';
import { buildChatRequest, fieldsWithRole } from '../request.js';
import { replyUsageLine } from '../../usage-line.js';
import { say, type SessionDeps, type SessionState } from './session-state.js';

export type TurnDeps = SessionDeps;

/** What became of a message that brought no reply, in a few words. */
function unsentFate(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return 'the service turned your message down';
  if (error instanceof ApiError) return 'your message got no reply';
  return 'your message was not sent';
}

export async function askTurn(state: SessionState, prompt: Prompt, deps: TurnDeps): Promise<void> {
  const { context, client, plan } = deps;
  const { io } = state;
  const stop = new AbortController();
  // Ctrl-C from the keyboard (raw mode: the reader sees it) or as a signal (kill -INT).
  const releaseKeys = state.reader.whileBusy(() => stop.abort());
  const release = context.interrupts.push(() => stop.abort());
  const onLeave = (): void => stop.abort();
  context.signal.addEventListener('abort', onLeave, { once: true });
  state.unsent = undefined;
  const request = buildChatRequest(state.model, state.session.messages(prompt.text), { streamUsage: deps.streamUsage?.on, fields: fieldsWithRole(plan.fields, state.role), stream: plan.stream, params: chatParams(deps.storedParams, state.role?.params, plan.params) });
  let outcome;
  try {
    const reasoning = reasoningShown(io, { json: false, showReasoning: plan.showReasoning === true });
    outcome = await streamReply(io, client, request, { signal: stop.signal, render: state.render, reasoning, ...(deps.streamUsage ? { streamUsage: deps.streamUsage } : {}) });
  } finally {
    releaseKeys();
    release();
    context.signal.removeEventListener('abort', onLeave);
  }
  const reply = replyText(outcome.completion);
  const finished = outcome.error === undefined;
  if (finished || reply !== '' || stop.signal.aborted) {
    state.session.addTurn(turnFrom(prompt, state.model, outcome));
    // Counted with the turn it belongs to, so "this session" and "whole conversation" agree.
    addUsage(state.usage, outcome.completion?.usage);
    addUsageOfModel(state.usageByModel, state.model, outcome.completion?.usage);
  } else {
    state.unsent = prompt;
  }
  if (finished) {
    state.modelTrial = undefined; // the new model answered: it stays
    const empty = emptyReplyNote(outcome.completion);
    if (empty) say(state, `(${empty})`);
    else if (outcome.completion?.choices[0]?.finish_reason === 'length') say(state, '(the reply was cut at the token limit)');
    // --usage: the counts of each reply, as a one-shot answer prints them (/usage sums them up).
    if (plan.usage) say(state, replyUsageLine(outcome.completion?.usage, deps.prices ?? new Map(), state.model, outcome.completion?.model));
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
