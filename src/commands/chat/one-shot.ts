/**
 * `svc chat "question"` and `… | svc chat "instruction"`: one request, the reply streamed to
 * stdout, everything else on stderr.
 */
import { partialOf, runChat } from '../../api/chat.js';
import type { ChatCompletion, ChatMessage, ChatRequest, Usage } from '../../api/chat-types.js';
import { InterruptedError, SvcError, UsageError } from '../../errors.js';
import type { Factory, SettingFlags } from '../../factory.js';
import { startSpinner, type IO } from '../../io.js';
import { composePrompt, readAllText, stdinHasInput } from './prompt-input.js';
import { ReplyWriter } from './reply-writer.js';
import { parseRequestOptions, type RawRequestOptions } from './request-options.js';

export interface OneShotOptions extends RawRequestOptions {
  words: string[];
  system?: string | undefined;
  /** `--no-stream` sets this to false. */
  stream: boolean;
  json: boolean;
  usage: boolean;
  /** `--no-stdin` sets this to false. */
  stdin: boolean;
  /** --model, --base-url, --timeout, --max-retries. */
  settings: SettingFlags;
}

/** Token counts for `--usage`, one line on stderr. */
export function formatUsage(usage: Usage | undefined): string {
  if (!usage) return 'tokens: the service did not report usage';
  return `tokens: ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion = ${usage.total_tokens} total`;
}

/** Build the request body from the checked options and the prompt. */
export function buildChatRequest(model: string, prompt: string, options: OneShotOptions): ChatRequest {
  const messages: ChatMessage[] = [];
  if (options.system !== undefined && options.system.trim() !== '') messages.push({ role: 'system', content: options.system });
  messages.push({ role: 'user', content: prompt });
  const request: ChatRequest = { model, messages, ...parseRequestOptions(options) };
  if (options.stream) {
    request.stream = true;
    // OpenAI convention: without this, a stream carries no token counts (for --usage and --json).
    request.stream_options = { include_usage: true };
  }
  return request;
}

async function writeJson(io: IO, completion: ChatCompletion): Promise<void> {
  io.stdout.write(`${JSON.stringify(completion, null, 2)}\n`);
}

export async function runOneShot(options: OneShotOptions, factory: Factory, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  // Check every flag before reading stdin or touching the network (exit 2, nothing sent).
  parseRequestOptions(options);
  const settings = await factory.settings(options.settings);
  const stdinText = stdinHasInput(io, options.stdin) ? await readAllText(io.stdin) : undefined;
  const prompt = composePrompt(options.words, stdinText);
  if (prompt === '') {
    throw new UsageError('no prompt: give it as words or pipe it in', { hint: 'svc chat "why is the sky blue?"   or   git diff | svc chat "write a commit message"' });
  }
  const client = await factory.apiClient(options.settings);
  const request = buildChatRequest(settings.model.value ?? 'svc-pro', prompt, options);

  // Our own abort: the user's Ctrl-C, or stdout closing under us.
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  signal.addEventListener('abort', onSignal, { once: true });
  const writer = new ReplyWriter(io, () => stop.abort());
  const spinner = await startSpinner(io, 'waiting for the service…');
  let completion: ChatCompletion | undefined;
  try {
    completion = await runChat(client, request, {
      signal: stop.signal,
      onDelta: options.json
        ? undefined
        : async (text) => {
            spinner.stop();
            await writer.write(text);
          },
    });
  } catch (error) {
    spinner.stop();
    if (writer.closed && !writer.failure) return; // `| head -1`: the reader has what it wanted
    if (writer.failure) throw new SvcError(`cannot write the reply: ${writer.failure.message}`);
    const partial = partialOf(error);
    if (options.json && partial && partial.choices[0]?.message.content) await writeJson(io, partial);
    else await writer.finish();
    throw signal.aborted ? new InterruptedError() : error;
  } finally {
    spinner.stop();
    signal.removeEventListener('abort', onSignal);
  }
  if (options.json) await writeJson(io, completion);
  else await writer.finish();
  writer.dispose();
  if (writer.failure) throw new SvcError(`cannot write the reply: ${writer.failure.message}`);
  const finish = completion.choices[0]?.finish_reason;
  if (finish === 'length') io.stderr.write('svc: the reply was cut at the token limit (finish_reason: length)\n');
  if (options.usage) io.stderr.write(`${formatUsage(completion.usage)}\n`);
}
