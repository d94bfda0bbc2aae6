/**
 * What each slash command does to the session. Parsing and help text live in slash-commands.ts.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { firstLineOf } from '../../../conversations/model.js';
import { parseModelId } from '../../../parse-values.js';
import { neutraliseForTerminal } from '../../../terminal-text.js';
import { formatUsage } from '../one-shot.js';
import { editInEditor } from './editor.js';
import type { SessionState } from './repl.js';
import { helpText, type SlashCommandName } from './slash-commands.js';

function say(state: SessionState, text: string): void {
  state.io.stderr.write(`${text}\n`);
}

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
      state.session.setSystem(undefined);
      say(state, '(system message removed)');
    } else {
      state.session.setSystem(text);
      say(state, '(system message set; it goes first in every request)');
    }
  },
  model: (state, arg) => {
    if (arg.trim() === '') return say(state, `model: ${state.model}`);
    try {
      state.model = parseModelId(arg, '/model');
      state.session.setModel(state.model);
      say(state, `(model: ${state.model})`);
    } catch (error) {
      say(state, (error as Error).message);
    }
  },
  retry: async (state) => {
    const last = state.session.undo();
    if (!last) return say(state, '(nothing to retry yet)');
    await state.ask(last.user);
  },
  undo: (state) => {
    const last = state.session.undo();
    say(state, last ? `(dropped: "${neutraliseForTerminal(firstLineOf(last.user))}" and its reply)` : '(nothing to undo)');
  },
  edit: async (state, arg) => {
    const giveBack = state.reader.lend();
    const result = editInEditor(state.io.env, arg, state.terminal.fd);
    giveBack();
    if (result.text === undefined) return say(state, result.problem ?? '(nothing sent)');
    if (result.text.trim() === '') return say(state, '(empty message; nothing sent)');
    say(state, neutraliseForTerminal(result.text));
    await state.ask(result.text);
  },
  save: (state, arg) => {
    const name = arg.trim();
    if (name === '') return say(state, 'usage: /save <file.json>');
    const path = resolve(state.io.cwd, name);
    const messages = state.session.messages();
    try {
      // 'wx': an existing file is never replaced.
      writeFileSync(path, `${JSON.stringify(messages, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
      say(state, `(saved ${messages.length} messages to ${path})`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') say(state, `${path} exists; not overwritten (choose another name)`);
      else say(state, `could not save: ${(error as Error).message}`);
    }
  },
  usage: (state) => {
    const turns = state.session.turns.filter((turn) => turn.usage);
    say(state, `this session: ${formatUsage(state.usage)}`);
    const total = turns.reduce((sum, turn) => sum + (turn.usage?.total_tokens ?? 0), 0);
    const count = state.session.turns.length;
    say(state, `whole conversation: ${total} tokens over ${count} turn${count === 1 ? '' : 's'}`);
  },
  history: (state) => {
    if (state.session.system) say(state, `[system] ${neutraliseForTerminal(state.session.system)}`);
    for (const turn of state.session.turns) {
      say(state, `[you] ${neutraliseForTerminal(turn.user)}`);
      say(state, `[${turn.model ?? 'assistant'}] ${neutraliseForTerminal(turn.assistant)}${turn.interrupted ? ' [interrupted]' : ''}`);
    }
    if (state.session.turns.length === 0) say(state, '(nothing yet)');
  },
  name: (state) => say(state, state.session.saved ? `conversation: ${state.session.name}` : `conversation: ${state.session.name} (not saved: --no-save)`),
  copy: (state) => {
    const last = state.session.turns.at(-1);
    if (!last || last.assistant === '') return say(state, '(no reply to copy yet)');
    // OSC 52: the terminal puts the text on the clipboard; it works over ssh, no helper needed.
    state.io.stderr.write(`\u001b]52;c;${Buffer.from(last.assistant).toString('base64')}\u0007`);
    say(state, '(last reply copied, if your terminal allows OSC 52)');
  },
};

export async function runSlashCommand(name: SlashCommandName, arg: string, state: SessionState): Promise<void> {
  await handlers[name](state, arg);
}
