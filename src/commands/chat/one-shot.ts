/**
 * `svc chat "question"` and `… | svc chat "instruction"`: one request, the reply streamed to
 * stdout, everything else on stderr; the exchange is saved unless --no-save.
 */
import type { ChatCompletion, ChatRequest, Usage } from '../../api/chat-types.js';
import type { ConversationSession } from '../../conversations/session.js';
import { InterruptedError, SvcError, UsageError } from '../../errors.js';
import type { Factory, SettingFlags } from '../../factory.js';
import type { IO } from '../../io.js';
import { reportError } from '../../report-error.js';
import { applySystemFlag, chatModel, openConversation, type ConversationChoice } from './open-conversation.js';
import { readPrompt } from './prompt-input.js';
import { replyText, streamReply, turnFrom } from './reply.js';
import { parseRequestOptions, type RawRequestOptions } from './request-options.js';

export interface ChatOptions extends RawRequestOptions, ConversationChoice {
  words: string[];
  system?: string | undefined;
  /** `--no-stream` sets this to false. */
  stream: boolean;
  json: boolean;
  usage: boolean;
  /** `--no-stdin` sets this to false. */
  stdin: boolean;
  /** `-i`: after the piped prompt, carry on talking from the terminal. */
  interactive: boolean;
  /** --model, --base-url, --timeout, --max-retries. */
  settings: SettingFlags;
}

/** Token counts for `--usage`, one line on stderr. */
export function formatUsage(usage: Usage | undefined): string {
  if (!usage) return 'tokens: the service did not report usage';
  return `tokens: ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion = ${usage.total_tokens} total`;
}

/** The request body for the conversation so far plus the new prompt. */
export function buildChatRequest(model: string, session: ConversationSession, prompt: string, options: ChatOptions): ChatRequest {
  const request: ChatRequest = { model, messages: session.messages(prompt), ...parseRequestOptions(options) };
  if (options.stream) {
    request.stream = true;
    // OpenAI convention: without this, a stream carries no token counts (for --usage and --json).
    request.stream_options = { include_usage: true };
  }
  return request;
}

function writeJson(io: IO, completion: ChatCompletion): void {
  io.stdout.write(`${JSON.stringify(completion, null, 2)}\n`);
}

export async function runOneShot(options: ChatOptions, factory: Factory, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const settings = await factory.settings(options.settings);
  const text = await readPrompt(io, options, signal);
  if (text === '') {
    throw new UsageError('no prompt: give it as words or pipe it in', { hint: 'svc chat "why is the sky blue?"   or   git diff | svc chat "write a commit message"' });
  }
  const client = await factory.apiClient(settings);
  const session = openConversation(io, options);
  applySystemFlag(session, options.system);
  const model = chatModel(settings, session);
  const request = buildChatRequest(model, session, text, options);

  const outcome = await streamReply(io, client, request, { signal, quiet: options.json });
  const reply = replyText(outcome.completion);
  const finished = outcome.error === undefined;
  // Stopped by the user (Ctrl-C, or the reader of stdout leaving): kept marked interrupted, as in
  // the session. A failure that brought no text keeps nothing: running the command again asks again.
  const stoppedByUser = signal.aborted || outcome.stdoutClosed;
  if (finished || reply !== '' || stoppedByUser) session.addTurn(turnFrom(text, model, outcome));
  const notSaved = notSavedError(session);
  if (outcome.stdoutClosed) {
    if (notSaved) throw notSaved;
    return;
  }
  if (options.json && outcome.completion && (finished || reply !== '')) writeJson(io, outcome.completion);
  if (!finished) {
    if (notSaved) await reportError(io, notSaved, factory.loadedApiKey());
    throw signal.aborted ? new InterruptedError() : outcome.error;
  }
  const finishReason = outcome.completion?.choices[0]?.finish_reason;
  if (finishReason === 'length') io.stderr.write('svc: the reply was cut at the token limit (finish_reason: length)\n');
  // With no text at all it is an error (api/reply-checks.ts); after some, the text stands, cut.
  if (finishReason === 'content_filter') io.stderr.write("svc: the service's content filter cut the reply (finish_reason: content_filter)\n");
  if (options.usage) io.stderr.write(`${formatUsage(outcome.completion?.usage)}\n`);
  if (notSaved) throw notSaved;
}

/** The reply reached stdout but not the disk: exit 1, naming the file and its folder. */
function notSavedError(session: ConversationSession): SvcError | undefined {
  const failure = session.saveFailure;
  if (!failure) return undefined;
  return new SvcError(`the reply was not saved: cannot write ${failure.path}: ${failure.reason}`, {
    hint: `free some space or fix ${failure.dir}, or add --no-save to keep nothing`,
  });
}
