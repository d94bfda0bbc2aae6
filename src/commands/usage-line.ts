/** Token counts in words, for `--usage`, the session's /usage and batch; the cost when a price is set. */
import type { Usage } from '../api/chat-types.js';
import { costOf, formatCost, nothingCounted, priceFor, type Price } from '../settings/prices.js';

/** One line: "tokens: 12 prompt + 30 completion = 42 total" (", $0.0004" with a cost). */
export function formatUsage(usage: Usage | undefined, cost?: number): string {
  // No reply with counts (a server that sends none, streams cut before their usage chunk): said
  // so, rather than "0 prompt + 0 completion", which reads as counts that were measured.
  if (!usage || nothingCounted(usage)) return 'tokens: the service did not report usage';
  const costText = cost === undefined ? '' : `, ${formatCost(cost)}`;
  return `tokens: ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion = ${usage.total_tokens} total${costText}`;
}

/** The --usage line of one reply (a one-shot answer, or each turn of the session): the cost too when one of `models` has a price. */
export function replyUsageLine(usage: Usage | undefined, prices: ReadonlyMap<string, Price>, ...models: ReadonlyArray<string | undefined>): string {
  const price = priceFor(prices, ...models);
  return formatUsage(usage, usage && price ? costOf(usage, price) : undefined);
}
