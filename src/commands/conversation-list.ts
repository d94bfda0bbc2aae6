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
import { neutraliseForTerminal } from '../core/terminal-text.js';
import { jsonForOutput } from '../core/json.js';
import { LineOutput } from '../terminal/streams.js';
import { cutToColumns } from '../terminal/width.js';
import { tableText, terminalWidth, type Column } from '../terminal/table.js';

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

/** The columns of a listing on a terminal: --usage adds the tokens, and the cost when prices are set. */
function listColumns(usage: boolean, prices: ReadonlyMap<string, Price>): Column[] {
  const spent: Column[] = usage ? [{ title: 'TOKENS', align: 'right' }, ...(prices.size > 0 ? [{ title: 'COST', align: 'right' } as const] : [])] : [];
  return [{ title: 'NAME' }, { title: 'CHANGED' }, { title: 'TURNS', align: 'right' }, ...spent, { title: 'FIRST LINE' }];
}

/**
 * One conversation's cells, as they are: a tab-separated line in a pipe, a row of the table on a
 * terminal (which neutralises them). The time is a record's text too (a hand-edited or foreign file).
 */
function cellsOf(s: ListedConversation, usage: boolean, prices: ReadonlyMap<string, Price>): string[] {
  // --usage: a tokens column after the turns, and the cost where it is known ('-' where not).
  const spent: string[] = [];
  if (usage) {
    const { usage: used, cost } = usageColumns(s, prices);
    spent.push(String(used.total_tokens));
    if (prices.size > 0) spent.push(cost === undefined ? '-' : formatCost(cost));
  }
  return [s.name, s.updated.slice(0, 16).replace('T', ' '), String(s.turns), ...spent, cutToColumns(openingIn(s, OPENING_COLUMNS), OPENING_COLUMNS)];
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
    if (rows.length === 0 && filtered) io.say(`no saved conversation${describeFilter(filter)}`);
    return;
  }
  let listed = 0;
  if (io.stdoutIsTTY) {
    // A table needs every row to know its column widths: all are read, then shown aligned, in
    // the order of their last change (as --json gives them).
    const rows = [...listConversations(store, filter, { withTokens: usage })].sort(newestFirst).map((s) => cellsOf(s, usage, prices));
    listed = rows.length;
    io.stdout.write(tableText(listColumns(usage, prices), rows, { width: terminalWidth(io.stdout) }));
  } else {
    // A line per conversation as it is read, the most recently written first: `| head` stops the
    // listing instead of it reading every file, and so does -n.
    const out = new LineOutput(io.stdout);
    for (const s of listConversations(store, filter, { withTokens: usage })) {
      listed += 1;
      let more = out.add(`${cellsOf(s, usage, prices).join('\t')}\n`);
      if (typeof more !== 'boolean') more = await more;
      if (!more) break;
    }
    await out.close();
  }
  if (listed === 0) io.say(filtered ? `no saved conversation${describeFilter(filter)}` : 'no saved conversations yet');
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
