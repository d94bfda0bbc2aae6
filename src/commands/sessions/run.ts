import { imageOptionsText, logTimeline, timeline, type LogEntry } from '../../conversations/timeline.js';
import { toMessages } from '../../conversations/model.js';
import { forkName, forkRecords } from '../../conversations/fork.js';
import { checkConversationName } from '../../core/names.js';
import type { ConversationStore } from '../../conversations/store.js';
import { UsageError } from '../../core/errors.js';
import { costOfSpent } from '../../settings/prices.js';
import { formatUsage } from '../usage-line.js';
import type { Factory } from '../../factory.js';
import { forOutput } from '../../core/terminal-text.js';
import { jsonForOutput } from '../../core/json.js';
import { parseIntegerInRange } from '../../core/parse-values.js';
import { confirmDeletion, describeMany } from '../deletion.js';

export interface ShowOptions {
  /** Each reply's tokens and the conversation's total (and cost). */
  usage?: boolean;
  json?: boolean;
  /** The turns an undo dropped too, marked. */
  all?: boolean;
}

/**
 * `svc sessions show [NAME]`: the conversation NAME names (a unique beginning of it is enough, store.ts
 * resolve), or without NAME the one changed last.
 */
export async function runShow(factory: Factory, text: string | undefined, options: ShowOptions = {}): Promise<void> {
  const { io } = factory;
  if (options.json && options.all) {
    throw new UsageError('--all and --json cannot be used together: --json gives the messages the service would be sent, and dropped turns are not sent', {
      hint: text === undefined ? 'svc sessions show --all' : `svc sessions show ${text} --all`,
    });
  }
  if (options.json && options.usage) throw new UsageError('--usage and --json cannot be used together: --json gives the messages the service would be sent');
  const store = await factory.conversationStore();
  const name = text === undefined ? latestName(store) : store.resolve(text);
  const conversation = store.read(name);
  if (options.json) {
    io.stdout.write(jsonForOutput(toMessages(conversation), io.stdoutIsTTY));
    return;
  }
  const clean = (text: string): string => forOutput(text, io.stdoutIsTTY);
  const parts: string[] = [];
  if (conversation.system) parts.push(`[system]\n${clean(conversation.system)}`);
  const entries: LogEntry[] = options.all ? logTimeline(store.records(name)) : timeline(conversation).map((entry) => (entry.kind === 'turn' ? { ...entry, dropped: false } : entry));
  for (const entry of entries) {
    if (entry.kind === 'image') {
      const { image } = entry;
      const imageOptions = imageOptionsText(image);
      parts.push(`[image${imageOptions === '' ? '' : ` ${clean(imageOptions)}`}]\n${clean(image.prompt)}\nsaved ${clean(image.path)}${image.revisedPrompt ? `\nrevised: ${clean(image.revisedPrompt)}` : ''}`);
      continue;
    }
    const { turn, dropped } = entry;
    const mark = dropped ? ', dropped' : '';
    parts.push(`[user${mark}]\n${clean(turn.user)}`);
    const tokens = options.usage && turn.usage ? ` · ${turn.usage.prompt_tokens} prompt + ${turn.usage.completion_tokens} completion tokens` : '';
    parts.push(`[assistant${turn.interrupted ? ', interrupted' : ''}${mark}${tokens}]\n${clean(turn.assistant)}`);
  }
  if (options.usage) {
    // Every reply the conversation had, undone and retried ones included: their tokens were used.
    const cost = costOfSpent(conversation.spentByModel, await factory.prices());
    parts.push(`${formatUsage(conversation.spent, cost)}, over ${conversation.turns.length} turn${conversation.turns.length === 1 ? '' : 's'} (undone and retried replies included)`);
  }
  io.stdout.write(parts.length > 0 ? `${parts.join('\n\n')}\n` : '');
}

/** The conversation changed last, for a command given no name; exit 2 when there is none. */
function latestName(store: ConversationStore): string {
  const latest = store.latest();
  if (latest === undefined) throw new UsageError('no saved conversations yet', { hint: 'start one with `svc chat`' });
  return latest;
}

export interface ForkOptions {
  /** `--at TURN`: the last turn copied (1-based); all of them when absent. */
  at?: string | undefined;
}

/**
 * `svc sessions fork NAME [NEW] [--at TURN]`: a new conversation, a copy of NAME up to turn TURN.
 * The new name goes to stdout (a script can go on with it), the rest to stderr.
 */
export async function runFork(factory: Factory, text: string, newName: string | undefined, options: ForkOptions): Promise<void> {
  const { io } = factory;
  checkConversationName(text);
  if (newName !== undefined) checkConversationName(newName);
  const store = await factory.conversationStore();
  const name = store.resolve(text);
  const source = store.read(name);
  const count = source.turns.length;
  let upTo = count;
  if (options.at !== undefined) {
    if (count === 0) throw new UsageError(`--at ${options.at}: "${name}" has no turns yet`, { hint: `leave --at out to copy it as it is` });
    upTo = parseIntegerInRange(options.at, '--at', 1, count);
  }
  const target = newName ?? forkName(name, (candidate) => store.isFree(candidate));
  if (target === name) throw new UsageError(`a fork needs a name of its own, not "${name}"`, { hint: `svc sessions fork ${name} <new name>` });
  store.createWith(target, forkRecords(source, target, upTo));
  io.stdout.write(`${target}\n`);
  io.note(`forked "${name}" (${upTo === count ? `all ${count}` : `${upTo} of ${count}`} turn${count === 1 ? '' : 's'}) as "${target}" · go on with: svc chat --session ${target}`);
}

/** `svc sessions rename OLD NEW`: OLD may be a beginning of the name that no other shares. */
export async function runRename(factory: Factory, text: string, newName: string): Promise<void> {
  checkConversationName(newName);
  const store = await factory.conversationStore();
  const name = store.resolve(text);
  if (name === newName) throw new UsageError(`"${name}" has that name already`);
  store.rename(name, newName);
  factory.io.note(`renamed "${name}" to "${newName}" · go on with: svc chat --session ${newName}`);
}

/**
 * `svc sessions delete NAME...`: whole names only (a beginning would be too easy to get wrong for
 * something that cannot be undone); every name is checked before anything is asked or deleted.
 */
export async function runDelete(factory: Factory, names: string[], yes?: boolean): Promise<void> {
  const { io } = factory;
  const store = await factory.conversationStore();
  const unique = [...new Set(names)];
  for (const name of unique) {
    if (!store.exists(checkConversationName(name))) throw new UsageError(`no saved conversation named "${name}"; nothing was deleted`, { hint: 'see them with `svc sessions list`' });
  }
  await confirmDeletion(io, describeMany(unique, 'the conversation', 'conversations'), yes);
  for (const name of unique) {
    store.delete(name);
    io.say(`deleted ${name}`);
  }
}
