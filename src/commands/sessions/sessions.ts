/**
 * `svc sessions list|show|search|fork|rename|export|delete`: the saved conversations. Search and
 * export are modules of their own (search.ts, export.ts).
 */
import { Argument, Command, Option } from '@commander-js/extra-typings';
import type { LogEntry } from '../../conversations/timeline.js';
import { keptImageUrls, type Conversation } from '../../conversations/model.js';
import type { Usage } from '../../api/chat-types.js';
import { withImagesNamed } from '../../attachments/message.js';
import { checkConversationName } from '../../core/names.js';
import type { ConversationStore } from '../../conversations/store.js';
import { UsageError } from '../../core/errors.js';
import { jsonForOutput } from '../../core/json.js';
import { parseIntegerInRange } from '../../core/parse-values.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import { costOfSpent, formatUsage } from '../../settings/prices.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { ASKS_FIRST, confirmDeletion, describeMany, yesOption } from '../deletion.js';
import { exportCommand } from './export.js';
import { filterOf, filterOptions, searchCommand, type FilterFlags } from './search.js';

export function sessionsCommand(context: CommandContext): Command {
  return new Command('sessions')
    .summary('list, show, search, fork, rename, export or delete saved conversations')
    .description(
      'Saved conversations, kept in $XDG_DATA_HOME/svc/conversations (default ~/.local/share/svc). Where a command reads one ' +
        '(show, fork, rename, export), a beginning of its name that no other name shares is enough.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc sessions list\n  $ svc sessions search "rate limit"\n  $ svc sessions show work --json > work.json\n  $ svc sessions fork work work-b --at 2\n' +
        '  $ svc sessions rename work work-old\n  $ svc sessions export work-old -o work.md\n  $ svc sessions delete work-old',
    )
    .addCommand(listCommand(context))
    .addCommand(showCommand(context))
    .addCommand(forkCommand(context))
    .addCommand(searchCommand(context))
    .addCommand(exportCommand(context))
    .addCommand(renameCommand(context))
    .addCommand(deleteCommand(context));
}

/** The list, as `svc chat --list` gives it too (conversation-list.ts, loaded when it runs). */
function listCommand(context: CommandContext) {
  return filterOptions(new Command('list').alias('ls').description('Newest first: name, last change, turns, first line. On a terminal a table with a header; in a pipe one tab-separated line each, no header.'))
    .option('--json', 'print a JSON array instead')
    .option('--usage', 'add a tokens column (and the cost, with prices set: svc config set prices.MODEL IN/OUT)')
    // What shell completion asks (completion/*.ts): each name and its first line; not for people.
    .addOption(new Option('--for-completion').hideHelp())
    .addHelpText('after', '\nExamples:\n  $ svc sessions list -n 20\n  $ svc sessions list --usage\n  $ svc sessions list --since 2d --model svc-mini\n  $ svc sessions list --since 2026-11-01 --json | jq -r \'.[].name\'')
    .action((flags) => runList(context.factory, flags));
}

async function runList(factory: Factory, flags: FilterFlags & { json?: boolean; usage?: boolean; forCompletion?: boolean }): Promise<void> {
  const list = await import('../conversation-list.js');
  if (flags.forCompletion === true) return list.runCompletionList(factory);
  return list.runList(factory, flags.json === true, filterOf(flags), flags.usage === true);
}

function showCommand(context: CommandContext) {
  return new Command('show')
    .description('Print a conversation as a transcript, or its messages array with --json. Without NAME: the one changed last.')
    .addArgument(completes(new Argument('[name]', 'conversation name, or a beginning of it no other name shares (see `svc sessions list`)'), { kind: 'sessions' }))
    .option('--json', 'the messages array, as the service would be sent it (after /compact: the summary, then the later turns)')
    .option('--all', 'also the turns dropped by /undo, /retry and /rewind, marked "dropped", and those a /compact summarised, with the compaction where it was made')
    .option('--usage', "each reply's tokens, and the conversation's total (with its cost, when prices are set)")
    .addHelpText('after', '\nExamples:\n  $ svc sessions show\n  $ svc sessions show work\n  $ svc sessions show work --all\n  $ svc sessions show work --json | jq length')
    .action((name, options) => runShow(context.factory, name, options));
}

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
  const active = conversation.compactions.at(-1);
  const { compactedMessages, coveredTurns, inTheirPlace } = await import('../../conversations/compaction.js');
  if (options.json) {
    // What the service would be sent: after a compaction, its summary in the system message and the turns after it.
    io.stdout.write(jsonForOutput(compactedMessages(conversation, active, keptImageUrls(store.dataDir)), io.stdoutIsTTY));
    return;
  }
  const clean = (text: string): string => forOutput(text, io.stdoutIsTTY);
  const parts: string[] = [];
  if (conversation.system) parts.push(`[system]\n${clean(conversation.system)}`);
  const { imageOptionsText, logTimeline, timeline } = await import('../../conversations/timeline.js');
  const { callName, prettyArguments, resultKind } = await import('../../conversations/tool-steps.js');
  const tokensOf = (usage: Usage | undefined): string => (options.usage && usage ? ` · ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens` : '');
  const entries: LogEntry[] = options.all ? logTimeline(store.records(name)) : nowTimeline(conversation, timeline);
  for (const entry of entries) {
    if (entry.kind === 'compact') {
      // --all: where it was made, after the turns it covers and those it kept; else in their place.
      const { compaction, undone } = entry;
      const covered = coveredTurns(compaction);
      const heading = options.all
        ? `[compaction: ${covered} summarised, ${compaction.kept === 0 ? 'none' : `the last ${compaction.kept}`} kept${undone ? ', undone' : ''}${tokensOf(compaction.usage)}]`
        : `[summary of ${covered}, ${inTheirPlace(compaction)}; --all shows ${compaction.through === 1 ? 'it' : 'them'}${tokensOf(compaction.usage)}]`;
      parts.push(`${heading}\n${clean(compaction.summary)}`);
      continue;
    }
    if (entry.kind === 'image') {
      const { image } = entry;
      const imageOptions = imageOptionsText(image);
      parts.push(`[image${imageOptions === '' ? '' : ` ${clean(imageOptions)}`}]\n${clean(image.prompt)}\nsaved ${clean(image.path)}${image.revisedPrompt ? `\nrevised: ${clean(image.revisedPrompt)}` : ''}`);
      continue;
    }
    const { turn, dropped } = entry;
    const mark = dropped ? ', dropped' : '';
    parts.push(`[user${mark}]\n${clean(withImagesNamed(turn.user, turn.images, '\n'))}`);
    for (const step of turn.steps ?? []) {
      if (step.text !== '') parts.push(`[assistant${mark}]\n${clean(step.text)}`);
      for (const call of step.calls) {
        const kind = resultKind(call);
        parts.push(`[tool call ${clean(callName(call))}${mark}]\n${clean(prettyArguments(call.arguments))}`, `[tool result${kind ? `, ${kind}` : ''}${mark}]\n${clean(call.result)}`);
      }
    }
    parts.push(`[assistant${turn.interrupted ? ', interrupted' : ''}${mark}${tokensOf(turn.usage)}]\n${clean(turn.assistant)}`);
  }
  if (options.usage) {
    // Every reply the conversation had, undone and retried ones included: their tokens were used.
    const cost = costOfSpent(conversation.spentByModel, await factory.prices());
    parts.push(`${formatUsage(conversation.spent, cost)}, over ${conversation.turns.length} turn${conversation.turns.length === 1 ? '' : 's'} (undone and retried replies included)`);
  }
  io.stdout.write(parts.length > 0 ? `${parts.join('\n\n')}\n` : '');
}

/**
 * The conversation as it now stands: after a compaction, its summary in place of the turns it
 * covers (and of the images made among them), then what came after.
 */
function nowTimeline(conversation: Conversation, timeline: typeof import('../../conversations/timeline.js').timeline): LogEntry[] {
  const active = conversation.compactions.at(-1);
  const from = active?.through ?? 0;
  const images = conversation.images.filter((image) => image.afterTurn >= from).map((image) => ({ ...image, afterTurn: image.afterTurn - from }));
  const later = timeline({ turns: conversation.turns.slice(from), images }).map((entry): LogEntry => (entry.kind === 'turn' ? { ...entry, dropped: false } : entry));
  return active ? [{ kind: 'compact', compaction: active, undone: false }, ...later] : later;
}

/** The conversation changed last, for a command given no name; exit 2 when there is none. */
function latestName(store: ConversationStore): string {
  const latest = store.latest();
  if (latest === undefined) throw new UsageError('no saved conversations yet', { hint: 'start one with `svc chat`' });
  return latest;
}

function forkCommand(context: CommandContext) {
  return new Command('fork')
    .description(
      'Copy a conversation into a new one, whole or up to a turn, to go on from there differently; the original is ' +
        'never changed. Prints the new name on stdout. Without NEW the name is NAME-fork (then NAME-fork-2, ...).',
    )
    .addArgument(completes(new Argument('<name>', 'the conversation to copy, or a beginning of its name no other name shares'), { kind: 'sessions' }))
    .argument('[new]', 'the name of the copy (it must not exist yet)')
    .addOption(new Option('--at <turn>', 'copy turns 1 to TURN only (default: all of them)'))
    .addHelpText('after', '\nExamples:\n  $ svc sessions fork work\n  $ svc sessions fork work work-b --at 3\n  $ svc chat --session "$(svc sessions fork work)" "now try it in Go"')
    .action((name, newName, options) => runFork(context.factory, name, newName, options));
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
  const { forkName, forkRecords } = await import('../../conversations/fork.js');
  const target = newName ?? forkName(name, (candidate) => store.isFree(candidate));
  if (target === name) throw new UsageError(`a fork needs a name of its own, not "${name}"`, { hint: `svc sessions fork ${name} <new name>` });
  store.createWith(target, forkRecords(source, target, upTo));
  io.stdout.write(`${target}\n`);
  io.note(`forked "${name}" (${upTo === count ? `all ${count}` : `${upTo} of ${count}`} turn${count === 1 ? '' : 's'}) as "${target}" · go on with: svc chat --session ${target}`);
}

function renameCommand(context: CommandContext) {
  return new Command('rename')
    .description('Give a conversation another name (its file moves, keeping its time and place in the list). NEW must not be taken.')
    .addArgument(completes(new Argument('<old>', 'conversation name, or a beginning of it no other name shares'), { kind: 'sessions' }))
    .argument('<new>', 'the new name (letters, digits, ".", "-" and "_")')
    .addHelpText('after', '\nExamples:\n  $ svc sessions rename work notes\n  $ svc chat --session notes "go on from here"')
    .action((oldName, newName) => runRename(context.factory, oldName, newName));
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

function deleteCommand(context: CommandContext) {
  return new Command('delete')
    .alias('rm')
    .description(`Delete saved conversations (whole names only). ${ASKS_FIRST}`)
    .addArgument(completes(new Argument('<name...>', 'conversation name(s)'), { kind: 'sessions' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc sessions delete work\n  $ svc sessions rm work-fork work-b --yes')
    .action((names, options) => runDelete(context.factory, names, options.yes));
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
