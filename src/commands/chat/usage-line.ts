/** Token counts in words, for `--usage` and the session's /usage. */
import type { Usage } from '../../api/chat-types.js';

/** One line: "tokens: 12 prompt + 30 completion = 42 total". */
export function formatUsage(usage: Usage | undefined): string {
  if (!usage) return 'tokens: the service did not report usage';
  return `tokens: ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion = ${usage.total_tokens} total`;
}
