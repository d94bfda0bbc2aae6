/**
 * One reply, from request to screen: spinner until the first token, text streamed through the
 * ReplyWriter, a final newline. Used by the one-shot command and by each turn of the session;
 * it reports what happened instead of throwing, so the caller can keep what arrived.
 */
import { partialOf, runChat } from '../../api/chat.js';
import type { ChatCompletion, ChatRequest } from '../../api/chat-types.js';
import type { ApiClient } from '../../api/client.js';
import type { Prompt } from '../../attachments/message.js';
import type { Turn } from '../../conversations/model.js';
import { startSpinner, type IO } from '../../terminal/io.js';
import { stdoutFailure } from '../../terminal/stdout-check.js';
import { loadReplyRenderer } from './reply-renderer.js';
import { ReplyWriter } from './reply-writer.js';

export interface ReplyOutcome {
  /** The whole completion, or as much of it as arrived (finish_reason null then). */
  completion: ChatCompletion | undefined;
  /** The failure, when there was one (the user's abort included). */
  error: unknown;
  /** The reader of stdout went away (`| head -1`): not a failure. */
  stdoutClosed: boolean;
  /** The reply stopped before its end because the reader went away: kept marked interrupted. */
  cutByReader: boolean;
}

export interface ReplyOptions {
  /** Abort to stop the reply (Ctrl-C). */
  signal: AbortSignal;
  /** Print nothing while streaming (`--json` prints the whole object afterwards). */
  quiet?: boolean;
  /** Render the reply as Markdown (stdout is a terminal: see reply-renderer.ts). */
  render?: boolean;
}

/** The turn to keep for the user's message: the reply as far as it came, marked if unfinished. */
export function turnFrom(prompt: Prompt, model: string, outcome: ReplyOutcome): Omit<Turn, 'at'> {
  const counts = outcome.completion?.usage;
  // Only the three counts are kept: the service's usage object may carry details of its own.
  const usage = counts && { prompt_tokens: counts.prompt_tokens, completion_tokens: counts.completion_tokens, total_tokens: counts.total_tokens };
  const unfinished = outcome.error !== undefined || outcome.cutByReader;
  const files = prompt.files.length > 0 ? { files: prompt.files } : {};
  return { user: prompt.text, ...files, assistant: replyText(outcome.completion), model, ...(unfinished ? { interrupted: true } : {}), ...(usage ? { usage } : {}) };
}

/** The text of a completion's first choice. */
export function replyText(completion: ChatCompletion | undefined): string {
  return completion?.choices[0]?.message.content ?? '';
}

export async function streamReply(io: IO, client: ApiClient, request: ChatRequest, options: ReplyOptions): Promise<ReplyOutcome> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  // The renderer loads while the request is in flight (never for --json: nothing is drawn).
  const renderer = options.render && !options.quiet ? loadReplyRenderer(io) : undefined;
  const writer = new ReplyWriter(io, () => stop.abort(), renderer);
  const spinner = await startSpinner(io, 'waiting for the service…');
  let first = true;
  const outcome: ReplyOutcome = { completion: undefined, error: undefined, stdoutClosed: false, cutByReader: false };
  try {
    outcome.completion = await runChat(client, request, {
      signal: stop.signal,
      onDelta: options.quiet
        ? undefined
        : async (text) => {
            if (first) {
              first = false;
              // The spinner stays until the first text can be drawn, and is gone before it is.
              await writer.ready();
              spinner.stop();
            }
            await writer.write(text);
          },
    });
  } catch (error) {
    outcome.error = error;
    outcome.completion = partialOf(error);
  } finally {
    spinner.stop();
    options.signal.removeEventListener('abort', onAbort);
  }
  await writer.finish();
  writer.dispose();
  if (writer.failure !== undefined) outcome.error = stdoutFailure(writer.failure);
  else if (writer.closed) {
    outcome.stdoutClosed = true;
    // The reader leaving stopped the reply (the abort above), unless all of it had come.
    outcome.cutByReader = outcome.error !== undefined;
    outcome.error = undefined;
  }
  return outcome;
}
