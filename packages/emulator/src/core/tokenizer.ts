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
 * message costs 3 tokens of framing plus its role (1 token) and its content, and every reply is
 * primed with 3 more.
 */
export function countPromptTokens(messages: readonly { role: string; content: string }[]): number {
  return messages.reduce((sum, m) => sum + 3 + 1 + countTokens(m.content), 3);
}
