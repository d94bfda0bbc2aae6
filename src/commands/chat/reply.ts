/**
 * One reply, from request to screen: spinner until the first token, text streamed through the
 * ReplyWriter, a final newline. Used by the one-shot command and by each turn of the session;
 * it reports what happened instead of throwing, so the caller can keep what arrived.
 */
import { runChat } from '../../api/chat.js';
import { ApiError, ReplyCutError } from '../../core/errors.js';
import type { ChatCompletion, ChatRequest, ContentPart } from '../../api/chat-types.js';
import type { ApiClient } from '../../api/client.js';
import type { Prompt } from '../../attachments/message.js';
import { userContent, type Turn } from '../../conversations/model.js';
import type { ConversationSession } from '../../conversations/session.js';
import { startSpinner, type IO } from '../../terminal/io.js';
import { stdoutFailure } from '../../terminal/stdout-check.js';
import { ReplyWriter, type OpenRenderer, type ReasoningShown } from './reply-writer.js';
import type { ResolvedSettings } from '../../factory.js';
import type { RenderTarget } from '../../render/terminal-renderer.js';
import { reasoningOf } from '../../api/chat-assembler.js';

/**
 * Whether replies are rendered as Markdown: only when stdout is a terminal and the render setting
 * (--raw, SVC_RENDER, `svc config set render`) is `auto`; in a pipe or a file the reply is the
 * service's text, byte for byte. The setting is read only for a terminal, so a pipe's output
 * never depends on it (and a mistyped SVC_RENDER does not stop a script). TERM=dumb (Emacs'
 * shell, some CI consoles) understands no escape sequence, styles or line redraws: text as sent.
 */
export function rendersReplies(io: IO, settings: Pick<ResolvedSettings, 'render'>): boolean {
  return io.stdoutIsTTY && !io.plain && settings.render.value === 'auto';
}

/**
 * Start loading the renderer (and highlight.js) for stdout. Called as the request goes out, so
 * the load runs while the service thinks and adds nothing before the first token.
 */
async function loadReplyRenderer(io: IO): Promise<OpenRenderer> {
  const { terminalRenderer } = await import('../../render/terminal-renderer.js');
  return (write) => terminalRenderer({ stream: io.stdout as RenderTarget['stream'], env: io.env, write });
}

/**
 * Whether a streamed chat asks for token counts (`stream_options.include_usage`, the OpenAI
 * convention: without it a stream carries none, for --usage, /usage, cost and the saved turn).
 * The `streamUsage` setting turns it off for a server that refuses the field; left on, a server
 * that answers 400 naming `stream_options` gets the request again without it, and is not asked
 * again for the rest of the run (one session, one batch), so one refusal costs one round trip.
 */
export class StreamUsageAsk {
  #on: boolean;

  constructor(on: boolean) {
    this.#on = on;
  }

  get on(): boolean {
    return this.#on;
  }

  /** True when `error` is the service refusing the field: it is then not asked for again. */
  refusedBy(error: unknown): boolean {
    if (!this.#on || !(error instanceof ApiError) || error.status !== 400) return false;
    const said = `${error.serviceMessage ?? ''} ${error.body ?? ''}`;
    if (!said.includes('stream_options') && !said.includes('include_usage')) return false;
    this.#on = false;
    return true;
  }
}

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
  /** Render the reply as Markdown (stdout is a terminal: see rendersReplies). */
  render?: boolean;
  /** Where reasoning text goes (reply-writer.ts); never shown unless asked. */
  reasoning?: ReasoningShown;
  /** Asking for token counts in a stream, for this run: a refusal is answered by asking once more without. */
  streamUsage?: StreamUsageAsk;
  /** The request offers tools svc runs (tool-turn.ts): a reply that only calls them is a reply. */
  runsTools?: boolean;
}

/**
 * Where reasoning goes for a reply: on a terminal above the answer; in a pipe nowhere unless
 * --show-reasoning asks for stderr; with --json nowhere (the object keeps it).
 */
export function reasoningShown(io: IO, options: { json: boolean; showReasoning: boolean }): ReasoningShown {
  if (options.json) return 'hidden';
  if (io.stdoutIsTTY) return 'terminal';
  return options.showReasoning ? 'stderr' : 'hidden';
}

/**
 * The content of the user's message as sent: its text, or its text and images as parts. The
 * session holds each image's bytes from then on, to send again and to keep with the turn.
 */
export function promptContent(session: ConversationSession, prompt: Prompt): string | ContentPart[] {
  for (const image of prompt.images ?? []) {
    if (image.input && image.ref.sha256 !== undefined && image.ref.ext !== undefined) session.rememberImage(image.ref.sha256, image.ref.ext, image.input.bytes);
  }
  return userContent(prompt.text, prompt.images?.map((image) => image.ref), (image) => session.imageUrl(image));
}

/** The turn to keep for the user's message: the reply as far as it came, marked if unfinished. */
export function turnFrom(prompt: Prompt, model: string, outcome: ReplyOutcome): Omit<Turn, 'at'> {
  const counts = outcome.completion?.usage;
  // Only the three counts are kept: the service's usage object may carry details of its own.
  const usage = counts && { prompt_tokens: counts.prompt_tokens, completion_tokens: counts.completion_tokens, total_tokens: counts.total_tokens };
  const unfinished = outcome.error !== undefined || outcome.cutByReader;
  const files = prompt.files.length > 0 ? { files: prompt.files } : {};
  const images = prompt.images ? { images: prompt.images.map((image) => image.ref) } : {};
  const reasoning = reasoningText(outcome.completion);
  return {
    user: prompt.text,
    ...files,
    ...images,
    assistant: replyText(outcome.completion),
    ...(reasoning ? { reasoning } : {}),
    model,
    ...(unfinished ? { interrupted: true } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** The reasoning text of a completion's first choice ('' when none): kept with the turn, never sent again. */
function reasoningText(completion: ChatCompletion | undefined): string {
  const message = completion?.choices[0]?.message;
  return message ? (reasoningOf(message) ?? '') : '';
}

/** The text of a completion's first choice. */
export function replyText(completion: ChatCompletion | undefined): string {
  return completion?.choices[0]?.message.content ?? '';
}

/**
 * The reply to `request`. A server that refuses `stream_options` (400 naming it, before any text)
 * is asked again without it, once; the run does not ask for it again (StreamUsageAsk).
 */
export async function streamReply(io: IO, client: ApiClient, request: ChatRequest, options: ReplyOptions): Promise<ReplyOutcome> {
  const outcome = await streamOnce(io, client, request, options);
  if (request.stream_options === undefined || !options.streamUsage?.refusedBy(outcome.error)) return outcome;
  io.note('the service refused stream_options (token counts in a stream): asking again without it, and not asking again in this run (`svc config set streamUsage off` keeps it off)');
  const { stream_options: _refused, ...without } = request;
  return streamOnce(io, client, without, options);
}

async function streamOnce(io: IO, client: ApiClient, request: ChatRequest, options: ReplyOptions): Promise<ReplyOutcome> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  // The renderer loads while the request is in flight (never for --json: nothing is drawn).
  const renderer = options.render && !options.quiet ? loadReplyRenderer(io) : undefined;
  const reasoning = options.quiet ? 'hidden' : (options.reasoning ?? 'hidden');
  const writer = new ReplyWriter(io, () => stop.abort(), renderer, reasoning);
  const spinner = await startSpinner(io, 'waiting for the service…');
  let first = true;
  let firstReasoning = true;
  const outcome: ReplyOutcome = { completion: undefined, error: undefined, stdoutClosed: false, cutByReader: false };
  try {
    outcome.completion = await runChat(client, request, {
      signal: stop.signal,
      runsTools: options.runsTools === true,
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
      onReasoning: options.quiet
        ? undefined
        : async (text) => {
            if (firstReasoning && first) {
              firstReasoning = false;
              // Shown: the spinner makes way for it. Not shown: the spinner says why nothing comes yet.
              if (reasoning === 'hidden') spinner.setText('the model is reasoning…');
              else spinner.stop();
            }
            await writer.reasoning(text);
          },
    });
  } catch (error) {
    const cut: ReplyCutError<ChatCompletion> | undefined = error instanceof ReplyCutError ? error : undefined;
    outcome.error = cut ? cut.cause : error;
    outcome.completion = cut?.partial;
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
