/**
 * What each slash command does to the session. Parsing and help text live in slash-commands.ts.
 */
import { withImagesNamed } from '../../../attachments/message.js';
import { firstLineOf } from '../../../conversations/model.js';
import { SvcError, UsageError } from '../../../core/errors.js';
import { forkName, forkRecords } from '../../../conversations/fork.js';
import { ConversationSession } from '../../../conversations/session.js';
import { checkConversationName } from '../../../core/names.js';
import { roleToUse } from '../../../roles/fill-role.js';
import { parseIntegerInRange, parseModelId } from '../../../core/parse-values.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import { costOfSpent, formatUsage } from '../../../settings/prices.js';
import { describeAgainstWindow } from '../../../chat/context-window.js';
import { takeAttachments, fileCommand } from './attach.js';
import { editInEditor } from '../../../terminal/editor.js';
import { copyToClipboard, describeCopy } from '../../../terminal/clipboard.js';
import { runImageCommand } from './image-command.js';
import { showHistory } from './history.js';
import { say, type SessionState } from './session-state.js';
import { extractedCode } from '../../../chat/code-blocks.js';
import { saveMessages, savePath } from './save-messages.js';
import { cachedModelIds } from '../../../storage/models-cache.js';
import { cacheDir } from '../../../storage/paths.js';
import { helpText, type SlashCommandName } from './slash-commands.js';
import { toolsCommand } from './tools-command.js';
import { compactCommand } from './compact-command.js';
import { compactionUndoneNote } from '../compact.js';
import type { Compaction } from '../../../conversations/compaction-record.js';

type Handler = (state: SessionState, arg: string) => void | Promise<void>;

const handlers: Record<SlashCommandName, Handler> = {
  help: (state) => say(state, helpText()),
  exit: (state) => {
    state.leaving = true;
  },
  quit: (state) => {
    state.leaving = true;
  },
  clear: (state) => {
    const before = state.session;
    state.startNewConversation();
    say(state, before.turns.length > 0 && before.saved ? `(new conversation; "${before.name}" stays saved)` : '(new conversation)');
  },
  system: (state, arg) => {
    const text = arg.trim();
    if (text === '') say(state, state.session.system ? `system: ${neutraliseForTerminal(state.session.system)}` : '(no system message)');
    else if (text === 'off') {
      if (state.session.system === undefined) return say(state, '(there is no system message to remove)');
      state.session.setSystem(undefined);
      say(state, '(system message removed)');
    } else if (text === state.session.system) {
      say(state, '(the system message is that already)');
    } else {
      state.session.setSystem(text);
      say(state, '(system message set; it goes first in every request)');
    }
  },
  model: (state, arg) => {
    if (arg.trim() === '') return say(state, `model: ${neutraliseForTerminal(state.model)}`);
    let next: string;
    try {
      next = parseModelId(arg, '/model');
    } catch (error) {
      return say(state, (error as Error).message);
    }
    if (next === state.model) return say(state, `(already using ${next})`);
    // On trial until it answers once: if the service refuses it, the session goes back (ask.ts).
    state.modelTrial ??= { model: state.model, conversationModel: state.session.model };
    state.model = next;
    state.session.setModel(next);
    say(state, `(model: ${next}, from the next message)`);
    // Only what is kept is looked at: /model never asks the service (the list may be old: a warning, not a refusal).
    const listed = cachedModelIds(cacheDir(state.io.env), state.deps.client.baseUrl);
    if (listed.length > 0 && !listed.includes(next)) {
      say(state, `svc: warning: the service did not list ${next} when last asked (${listed.length} model${listed.length === 1 ? '' : 's'}; \`svc models\` shows them); if it refuses it, the session goes back to ${neutraliseForTerminal(state.modelTrial.model)}`);
    }
  },
  retry: async (state) => {
    if (state.unsent !== undefined) return state.ask(state.unsent);
    const before = state.session.activeCompaction;
    const last = state.session.undo();
    if (!last) return say(state, '(nothing to retry yet)');
    sayUndone(state, before);
    // The images go again as they went: their bytes from this run, or read back from where they are kept.
    await state.ask({ text: last.user, files: last.files ?? [], ...(last.images ? { images: last.images.map((ref) => ({ ref })) } : {}) });
  },
  undo: (state) => {
    const before = state.session.activeCompaction;
    const last = state.session.undo();
    say(state, last ? `(dropped: "${neutraliseForTerminal(firstLineOf(last.user))}" and its reply)` : '(nothing to undo)');
    sayUndone(state, before);
  },
  rewind,
  compact: compactCommand,
  fork,
  edit: async (state, arg) => {
    const giveBack = state.reader.lend();
    const result = editInEditor(state.io.env, arg, state.terminal.fd);
    giveBack();
    if (result.text === undefined) return say(state, result.problem ?? '(nothing sent)');
    if (result.text.trim() === '') return say(state, '(empty message; nothing sent)');
    say(state, neutraliseForTerminal(result.text));
    await state.ask(takeAttachments(state, result.text));
  },
  save: (state, arg) => {
    const name = arg.trim();
    if (name === '') return say(state, 'usage: /save <file.json>');
    say(state, neutraliseForTerminal(saveMessages(savePath(name, state.io.cwd, state.io.env), state.session.messages(), /[\\/]$/.test(name))));
  },
  usage: async (state) => {
    // Both count every reply kept, undone and retried ones included (their tokens were used),
    // so on a conversation's first session the two lines agree.
    const count = state.session.turns.length;
    const prices = state.deps.prices ?? new Map();
    say(state, `this session:       ${formatUsage(state.usage, costOfSpent(state.usageByModel, prices))}`);
    say(state, `whole conversation: ${formatUsage(state.session.spent, costOfSpent(state.session.spentByModel, prices))}, over ${count} turn${count === 1 ? '' : 's'}`);
    const window = await lastRequestAgainstWindow(state);
    if (window) say(state, `last request:       ${window}`);
  },
  history: showHistory,
  file: fileCommand,
  role: (state, arg) => {
    const name = arg.trim();
    if (name === '') return say(state, state.role ? `role: ${state.role.name}` : '(no role; /role <name> uses one, `svc roles list` lists them)');
    try {
      // Its blanks filled from this session's --var; vars meant for another role are not an error here.
      say(state, state.useRole(roleToUse(state.io.env, name, state.deps.plan.vars, { source: '/role', unknownVars: 'ignore' })!));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      say(state, neutraliseForTerminal(error.message));
    }
  },
  name: (state) => say(state, state.session.saved ? `conversation: ${state.session.name}` : `conversation: ${state.session.name} (not saved: --no-save)`),
  image: runImageCommand,
  tools: toolsCommand,
  copy: async (state, arg) => {
    const what = arg.trim();
    if (what !== '' && what !== 'code') return say(state, `/copy takes nothing (the last reply) or "code" (its code blocks); got "${neutraliseForTerminal(what)}"`);
    const last = state.session.turns.at(-1);
    if (!last || last.assistant === '') return say(state, '(no reply to copy yet)');
    const text = what === 'code' ? extractedCode(last.assistant, 'all') : last.assistant;
    if (text === undefined) return say(state, '(the last reply has no fenced code block; /copy copies all of it)');
    // OSC 52 and the system's clipboard tool, when there is one (terminal/clipboard.ts).
    const outcome = await copyToClipboard(state.io, text);
    for (const line of describeCopy(outcome, what === 'code' ? "the last reply's code" : 'last reply')) say(state, neutraliseForTerminal(line));
  },
};

/**
 * /rewind N: the last N turns go, as N undo records naming each turn (what /undo writes), so the
 * saved file keeps them and `svc sessions show NAME --all` still shows them. What goes is shown
 * first and, on a terminal, asked about (y to drop, anything else keeps them).
 */
async function rewind(state: SessionState, arg: string): Promise<void> {
  const turns = state.session.turns;
  if (turns.length === 0) return say(state, '(nothing to rewind)');
  let count: number;
  try {
    count = arg.trim() === '' ? 1 : parseIntegerInRange(arg, '/rewind', 1, turns.length);
  } catch (error) {
    return say(state, `${neutraliseForTerminal((error as Error).message)} (the conversation has ${turns.length} turn${turns.length === 1 ? '' : 's'})`);
  }
  const first = turns.length - count;
  say(state, `${count === 1 ? 'this turn goes' : `these ${count} turns go`}:`);
  turns.slice(first).forEach((turn, index) => {
    say(state, `  ${first + index + 1}. [you] ${neutraliseForTerminal(withImagesNamed(firstLineOf(turn.user), turn.images, ' '))}`);
    say(state, `     [${neutraliseForTerminal(turn.model ?? 'assistant')}] ${neutraliseForTerminal(firstLineOf(turn.assistant))}${turn.interrupted ? ' [interrupted]' : ''}`);
  });
  if (state.io.stderrIsTTY) {
    const answer = await state.reader.read(`drop ${count === 1 ? 'it' : 'them'}? [y/N] `, { remember: false });
    if (answer.kind !== 'line' || !/^\s*y(es)?\s*$/i.test(answer.text)) return say(state, '(nothing dropped)');
  }
  const before = state.session.activeCompaction;
  for (let n = 0; n < count; n++) state.session.undo();
  const kept = state.session.saved ? `; \`svc sessions show ${state.session.name} --all\` still shows ${count === 1 ? 'it' : 'them'}` : '';
  say(state, `(dropped ${count} turn${count === 1 ? '' : 's'}; ${state.session.turns.length} left${kept})`);
  sayUndone(state, before);
}

/** After an undo: say so when it took back the compaction that was in force (`before`). */
function sayUndone(state: SessionState, before: Compaction | undefined): void {
  const note = compactionUndoneNote(before, state.session.activeCompaction);
  if (note) say(state, `(${note})`);
}

/**
 * /fork [name]: a copy of the conversation as it is now, saved under `name` (or NAME-fork), and
 * the session goes on there; the conversation it came from stays as it was.
 */
function fork(state: SessionState, arg: string): void {
  const source = state.session;
  if (!source.saved) return say(state, '(/fork copies the conversation into a new saved one, and this session saves nothing: --no-save, or a failed write)');
  const wanted = arg.trim();
  let name: string;
  try {
    name = wanted === '' ? forkName(source.name, (candidate) => state.store.isFree(candidate)) : checkConversationName(wanted);
    state.store.createWith(name, forkRecords(source, name));
    state.switchTo(ConversationSession.resume(state.store, name, true));
  } catch (error) {
    if (!(error instanceof SvcError)) throw error;
    return say(state, neutraliseForTerminal(error.message));
  }
  const count = source.turns.length;
  say(state, `(forked "${source.name}" as "${name}", ${count} turn${count === 1 ? '' : 's'}; going on in "${name}", "${source.name}" stays as it was)`);
}

export async function runSlashCommand(name: SlashCommandName, arg: string, state: SessionState): Promise<void> {
  await handlers[name](state, arg);
}

/**
 * The prompt tokens of the last request against its model's context window, when the service
 * counted them (a reply after tool calls sums several requests: not one to show) and the window
 * is known (a setting, or the server asked now if not before).
 */
async function lastRequestAgainstWindow(state: SessionState): Promise<string | undefined> {
  const turn = state.session.turns.at(-1);
  const windows = state.deps.windows;
  if (!windows || !turn?.usage || turn.usage.prompt_tokens <= 0 || (turn.steps?.length ?? 0) > 0) return undefined;
  const window = await windows.of(turn.model ?? state.model, state.deps.context.signal);
  return window ? describeAgainstWindow(turn.usage.prompt_tokens, window) : undefined;
}
