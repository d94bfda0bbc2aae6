/**
 * The list of saved conversations: `svc sessions list` and its alias `svc chat --list`.
 */
import { describeFilter, type ConversationFilter } from '../conversations/filter.js';
import { openingIn, spentOf, tokensIn, usageByModel, type ListedConversation } from '../conversations/listed.js';
import { listConversations } from '../conversations/listing.js';
import { newestFirst } from '../conversations/store.js';
import { costOfSpent, formatCost, type Price } from '../settings/prices.js';
import type { Usage } from '../api/chat-types.js';
import type { Factory } from '../factory.js';
import { forOutput, neutraliseForTerminal } from '../core/terminal-text.js';
import { jsonForOutput } from '../core/json.js';
import { LineOutput } from '../terminal/streams.js';
import { cutToColumns } from '../render/width.js';

/** The first line of each conversation is cut to this many terminal columns (wide characters take two). */
const OPENING_COLUMNS = 60;

/**
 * `--usage`: the tokens a conversation's replies used (undone and retried ones included), and
 * their cost when every model it used has a price.
 */
function usageColumns(listed: ListedConversation, prices: ReadonlyMap<string, Price>): { usage: Usage; cost: number | undefined } {
  const tokens = tokensIn(listed);
  return { usage: spentOf(tokens), cost: costOfSpent(usageByModel(tokens), prices) };
}

export async function runList(factory: Factory, json: boolean, filter: ConversationFilter = {}, usage = false): Promise<void> {
  const { io } = factory;
  const store = await factory.conversationStore();
  const filtered = filter.since !== undefined || filter.model !== undefined;
  const prices = usage ? await factory.prices() : new Map<string, Price>();
  if (json) {
    const rows = [...listConversations(store, filter, { withTokens: usage })].sort(newestFirst).map((s) => {
      const columns = usage ? usageColumns(s, prices) : undefined;
      return {
        name: s.name,
        updated: s.updated,
        turns: s.turns,
        ...(columns ? { usage: columns.usage, cost_usd: columns.cost ?? null } : {}),
        first: openingIn(s, 200),
      };
    });
    io.stdout.write(jsonForOutput(rows, io.stdoutIsTTY));
    if (rows.length === 0 && filtered) io.stderr.write(`no saved conversation${describeFilter(filter)}\n`);
    return;
  }
  // A line per conversation as it is read, the most recently written first: `| head` stops the
  // listing instead of it reading every file, and so does -n.
  const clean = (text: string): string => forOutput(text, io.stdoutIsTTY);
  const out = new LineOutput(io.stdout);
  let listed = 0;
  for (const s of listConversations(store, filter, { withTokens: usage })) {
    listed += 1;
    // --usage: a tokens column after the turns, and the cost where it is known ('-' where not).
    let spent = '';
    if (usage) {
      const { usage: used, cost } = usageColumns(s, prices);
      spent = `\t${used.total_tokens}${prices.size > 0 ? `\t${cost === undefined ? '-' : formatCost(cost)}` : ''}`;
    }
    // The time is a record's text too (a hand-edited or foreign file): cleaned like the first line.
    let more = out.add(`${s.name}\t${clean(s.updated.slice(0, 16).replace('T', ' '))}\t${s.turns}${spent}\t${clean(cutToColumns(openingIn(s, OPENING_COLUMNS), OPENING_COLUMNS))}\n`);
    if (typeof more !== 'boolean') more = await more;
    if (!more) break;
  }
  await out.close();
  if (listed === 0) io.stderr.write(filtered ? `no saved conversation${describeFilter(filter)}\n` : 'no saved conversations yet\n');
}

/**
 * `svc sessions list --for-completion` (hidden; what shell completion calls): `name<TAB>first line`
 * a conversation, newest first, for zsh and fish to show the first line as its description. The
 * shell prints that line to the terminal, so it is always neutralised, in a pipe too.
 */
export async function runCompletionList(factory: Factory): Promise<void> {
  const store = await factory.conversationStore();
  const out = new LineOutput(factory.io.stdout);
  for (const s of listConversations(store, {})) {
    const first = neutraliseForTerminal(cutToColumns(openingIn(s, OPENING_COLUMNS), OPENING_COLUMNS)).replace(/\s+/g, ' ').trim();
    let more = out.add(first === '' ? `${s.name}\n` : `${s.name}\t${first}\n`);
    if (typeof more !== 'boolean') more = await more;
    if (!more) break;
  }
  await out.close();
}
