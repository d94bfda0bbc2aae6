/**
 * What a model's tokens cost, as the user set it: `svc config set prices.MODEL "IN/OUT"`, dollars
 * per million prompt and completion tokens, for any model id. Kept in config.json as one
 * `prices` object keyed by model id (written whole: model ids hold dots, `gpt-4.1`, which conf
 * would read as nested keys). Without a price no cost is shown: nothing is guessed. The line that
 * shows a reply's token counts, with their cost when a price is set, is made here too.
 */
import type { Usage } from '../api/chat-types.js';
import { UsageError } from '../core/errors.js';
import { parseModelId } from '../core/parse-values.js';

export interface Price {
  /** Dollars per million prompt tokens. */
  input: number;
  /** Dollars per million completion tokens. */
  output: number;
}

export const PRICES_KEY = 'prices';
const PREFIX = `${PRICES_KEY}.`;

/** The model of a `prices.MODEL` key, or undefined for any other key. */
export function priceKeyModel(key: string): string | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  return parseModelId(key.slice(PREFIX.length), key);
}

const NUMBER = String.raw`\$?(\d+(?:\.\d+)?|\.\d+)`;
const PRICE = new RegExp(`^\\s*${NUMBER}\\s*/\\s*${NUMBER}\\s*$`);

/** "IN/OUT" as typed (`2.5/10`, `$0.15/$0.60`); `source` names where it came from. */
export function parsePrice(text: string, source: string): Price {
  const match = PRICE.exec(text);
  if (!match) throw new UsageError(`${source} must be "IN/OUT", dollars per million prompt and completion tokens; got "${text}"`, { hint: `e.g. svc config set ${source} "2.50/10.00"` });
  return { input: Number(match[1]), output: Number(match[2]) };
}

/** How a price is stored and shown: "2.5/10". */
export function formatPrice(price: Price): string {
  return `${price.input}/${price.output}`;
}

/** The prices of a stored `prices` object; an entry that cannot be read is left out (and named). */
export function readPrices(stored: unknown): { prices: Map<string, Price>; broken: string[] } {
  const prices = new Map<string, Price>();
  const broken: string[] = [];
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return { prices, broken: stored === undefined ? [] : [PRICES_KEY] };
  for (const [model, value] of Object.entries(stored)) {
    try {
      prices.set(model, parsePrice(String(value), `${PREFIX}${model}`));
    } catch {
      broken.push(`${PREFIX}${model}`);
    }
  }
  return { prices, broken };
}

/** Dollars for `usage` at `price`. */
export function costOf(usage: Pick<Usage, 'prompt_tokens' | 'completion_tokens'>, price: Price): number {
  return (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1_000_000;
}

/** "$0.0123"; a cost too small for four decimals is "<$0.0001", never a misleading $0.0000. */
export function formatCost(dollars: number): string {
  if (dollars > 0 && dollars < 0.00005) return '<$0.0001';
  return `$${dollars.toFixed(4)}`;
}

/** A model's price: its own id first, then the id the service answered with (often a dated version). */
export function priceFor(prices: ReadonlyMap<string, Price>, ...models: ReadonlyArray<string | undefined>): Price | undefined {
  for (const model of models) {
    if (model !== undefined && prices.has(model)) return prices.get(model);
  }
  return undefined;
}

/** No tokens counted at all: a service that sends no usage, or a reply cut before its counts. */
export function nothingCounted(usage: Usage): boolean {
  return usage.total_tokens === 0 && usage.prompt_tokens === 0 && usage.completion_tokens === 0;
}

/**
 * The cost of tokens spent per model; undefined when a model that used tokens has no price
 * (a partial sum would read as the whole cost), and when no model has a price at all: nothing
 * spent, or a service that counts no tokens, is no reason to show a "$0.0000" nobody priced.
 */
export function costOfSpent(byModel: Readonly<Record<string, Usage>>, prices: ReadonlyMap<string, Price>): number | undefined {
  let dollars = 0;
  let priced = false;
  for (const [model, usage] of Object.entries(byModel)) {
    const price = prices.get(model);
    if (price) priced = true;
    if (nothingCounted(usage)) continue;
    if (!price) return undefined;
    dollars += costOf(usage, price);
  }
  return priced ? dollars : undefined;
}

/** One line: "tokens: 12 prompt + 30 completion = 42 total" (", $0.0004" with a cost), for `--usage`, the session's /usage and batch. */
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
