/**
 * A service's "the request does not fit the model's context window" answer, told from its status,
 * code and words, whatever server sent it, so that the error can say what to do: compact the
 * conversation, or send less. Servers word it each their own way:
 *
 *   - OpenAI (and the emulator, Groq, vLLM's older releases): 400, `code: context_length_exceeded`,
 *     "This model's maximum context length is 8192 tokens. However, your messages resulted in …"
 *   - llama.cpp's llama-server: 400 (or an `error` inside a 200 stream), `type:
 *     exceed_context_size_error` beside a numeric `code` (which svc reads first, so the words
 *     decide), "the request exceeds the available context size, try increasing it", "request
 *     (600 tokens) exceeds the available context size (512 tokens), try increasing it", or in
 *     older builds "input (600 tokens) is larger than the max context size (512 tokens)".
 *   - llama-server again, when the prompt fitted but the reply ran into the end of the window
 *     (started with --no-context-shift): "context shift is disabled", as a server error (500)
 *     inside the stream, after some of the reply.
 *   - vLLM: "This model's maximum context length is …" or "The decoder prompt (length 5000) is
 *     longer than the maximum model length of 4096."
 *   - LM Studio: "… the model is loaded with context length of only 4096 tokens …"
 *   - Mistral: "… too large for model with 32768 maximum context length"
 *   - Anthropic's compatible endpoint: "prompt is too long: 215000 tokens > 200000 maximum"
 *   - Gemini's: "The input token count (N) exceeds the maximum number of tokens allowed (M)."
 */

/** Codes that say it whatever the words. */
const CODES = new Set(['context_length_exceeded', 'exceed_context_size_error', 'model_context_window_exceeded']);

/** Words that name the window (or the longest input), and words that say the request went past it. */
const WINDOW = /context (?:length|size|window)|n_ctx|maximum (?:model|prompt|input) length|prompt is too long|input token count|maximum number of tokens/i;
const PAST = /exceed|too (?:long|large)|(?:larger|longer|greater|more) than|maximum|max |only \d|reduce the length/i;

/** llama-server's words when a reply reached the end of the window: whatever its status, the conversation is what filled it. */
const FILLED_WHILE_REPLYING = /^context shift is disabled\b/i;

/**
 * True when an answer says the request is larger than the model's context window: a 4xx (or an
 * error inside a stream, `status` 0) whose code says so, or whose message names the window and
 * says the request went past it (or llama-server's reply ran into its end). A 400 about
 * something else ("max_tokens is too large", a bad parameter) is not.
 */
export function isContextExceeded(status: number, serviceMessage: string | undefined, code: string | undefined): boolean {
  if (serviceMessage !== undefined && FILLED_WHILE_REPLYING.test(serviceMessage)) return true;
  if (status !== 0 && (status < 400 || status >= 500)) return false;
  if (code !== undefined && CODES.has(code)) return true;
  return serviceMessage !== undefined && WINDOW.test(serviceMessage) && PAST.test(serviceMessage);
}

/** What to do about it: shown under the service's own words. */
export const CONTEXT_EXCEEDED_HINT = "too long for the model's context window: /compact in the session, or svc chat --continue --compact, summarises earlier turns; or send less";
