/**
 * A simple deterministic tokenizer, close enough to GPT-style byte-pair counts for usage numbers.
 *
 * Pieces, in the spirit of the GPT-2 pre-tokenizer: English contraction endings, a run of letters
 * (with their combining marks) or of digits with its one leading space, a single other character
 * with its leading space, and runs of whitespace. It is lossless — `tokenize(t).join('') === t` for every string — which is
 * what lets the streamed deltas add up to exactly the non-streamed reply.
 */

// A run of letters carries its combining marks (`é` written as e + U+0301, Devanagari vowel
// signs): counting each mark as a token would make accented and Indic words cost several.
const TOKEN = /'(?:s|t|re|ve|m|ll|d)\b| ?\p{L}[\p{L}\p{M}]*| ?\p{N}+| ?[^\s\p{L}\p{N}]|\s+(?!\S)|\s+/gu;

/** Splits `text` into tokens; joining them gives back `text` exactly. */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The number of tokens in `text`. */
export function countTokens(text: string): number {
  return tokenize(text).length;
}

/**
 * Prompt tokens for a conversation, counted the way OpenAI documents for its chat models: each
 * message costs 3 tokens of framing plus its role (1 token) and its content (an assistant's tool
 * calls: each call's name and arguments), and every reply is primed with 3 more. Images are
 * counted apart ({@link imageTokens}), as are the tools offered.
 */
export function countPromptTokens(messages: readonly { role: string; content: string; toolCalls?: readonly { name: string; arguments: string }[] }[]): number {
  return messages.reduce((sum, m) => {
    const calls = (m.toolCalls ?? []).reduce((total, call) => total + countTokens(call.name) + countTokens(call.arguments), 0);
    return sum + 3 + 1 + countTokens(m.content) + calls;
  }, 3);
}

/**
 * An image's tokens as OpenAI counts them for its vision models: 85 at `detail: "low"`; otherwise
 * the image is scaled to fit 2048×2048, then so that its short side is at most 768, and each
 * 512-pixel tile of that costs 170 more. A linked image the emulator does not fetch has no
 * known size: it counts as a low-detail one.
 */
export function imageTokens(size: { width: number; height: number } | undefined, detail: 'low' | 'high' | 'auto'): number {
  if (size === undefined || detail === 'low') return 85;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, 768 / Math.min(width, height));
  width = Math.round(width * short);
  height = Math.round(height * short);
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}
