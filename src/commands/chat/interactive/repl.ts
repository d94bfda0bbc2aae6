/**
 * The interactive session: read a message, stream the reply, keep the whole conversation and
 * send it each turn, until the user leaves. Every turn is saved as it happens.
 */
import { PlainLineReader } from './plain-reader.js';
import type { Price } from '../../../settings/prices.js';
import type { ApiClient } from '../../../api/client.js';
import { firstLineOf, noUsage } from '../../../conversations/model.js';
import { ConversationSession, type SaveFailure } from '../../../conversations/session.js';
import type { ConversationStore } from '../../../conversations/store.js';
import type { Prompt } from '../../../attachments/message.js';
import { InterruptedError } from '../../../core/errors.js';
import type { RoleInUse } from '../../../roles/fill-role.js';
import type { IO } from '../../../terminal/io.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import type { CommandContext } from '../../context.js';
import { applySystemFlag, chooseChatModel, contextWindowSettings, openConversation } from '../open-conversation.js';
import { ContextWindows } from '../../../chat/server-window.js';
import type { DefaultModelPlace } from '../../../chat/model-choice.js';
import type { ChatPlan } from '../options.js';
import { rendersReplies, StreamUsageAsk } from '../reply.js';
import { askTurn } from './ask.js';
import { takeAttachments } from './attach.js';
import { applyRole } from './role.js';
import { runSlashCommand } from './commands.js';
import { MessageComposer } from './composer.js';
import { LineReader, openTerminalInput, type TerminalInput } from './line-reader.js';
import { say, type SessionDeps, type SessionReader, type SessionState } from './session-state.js';
import { parseInput, unknownCommandHint } from './slash-commands.js';
import { openChatTools } from '../tool-turn.js';
import { ToolSet } from '../../../chat/tool-runner.js';
import { toolNameText } from '../../../core/names.js';

/** ` · tools calc, text.echo` in the first line, when tools are offered. */
function toolsNote(tools: ToolSet): string {
  return tools.selection.length > 0 ? ` · tools ${neutraliseForTerminal(tools.selection.map(toolNameText).join(', '))}` : '';
}

const PROMPT = '› ';
const CONTINUATION = '… ';

/** A line for the person at the session, as the slash commands say theirs (session-state.ts). */
function note(io: IO, text: string): void {
  say({ io }, text);
}

/** Said once, when a write fails: the session goes on in memory. */
function noticeSaveFailure(io: IO, session: ConversationSession): void {
  session.onSaveFailure = (failure: SaveFailure) => {
    note(io, `svc: the conversation is no longer being saved: cannot write ${failure.path}: ${failure.reason}`);
    note(io, `(it goes on in memory; free some space or fix ${failure.dir}; /save <file.json> keeps a copy)`);
  };
}

export async function runInteractive(plan: ChatPlan, role: RoleInUse | undefined, context: CommandContext, firstMessage?: Prompt): Promise<void> {
  const { factory } = context;
  const { io } = factory;
  const terminal = openTerminalInput(io);
  const settings = await factory.settings(plan.settings);
  const render = rendersReplies(io, settings);
  const client = await factory.apiClient(settings);
  // Before the terminal goes raw: a conversation that cannot be opened or saved ends here.
  const store = await factory.conversationStore();
  const session = openConversation(store, plan.conversation);
  // Started before the terminal goes raw too: a server that cannot start ends here.
  const tools = await openChatTools((servers, stop) => factory.openTools(servers, stop), plan.tools, role, () => settings.tools.value, context.signal);
  const history = await factory.inputHistory(plan.conversation.save);
  // Plain mode: lines as the terminal edits them, nothing redrawn (plain-reader.ts).
  const reader = io.plain ? new PlainLineReader(terminal.stream, io.stderr, context.interrupts) : new LineReader(terminal, io.stderr, history, { cwd: io.cwd, env: io.env });
  const choice = await chooseChatModel(io.env, settings, session, role, client, context.signal);
  const windows = ContextWindows.of(await contextWindowSettings(factory, settings), client);
  await runSession({ plan, role, context, client, store, session, model: choice.model, unsetModel: choice.unset, reader, terminal, render, tools, storedParams: settings.params.value, prices: await factory.prices(), windows, autoCompact: settings.autoCompact.value, streamUsage: new StreamUsageAsk(settings.streamUsage.value === 'on') }, firstMessage);
}

export interface SessionStart {
  plan: ChatPlan;
  /** The role of --role, if any. */
  role?: RoleInUse | undefined;
  context: CommandContext;
  client: ApiClient;
  /** Where a conversation started with /clear is saved (unless --no-save). */
  store: ConversationStore;
  session: ConversationSession;
  model: string;
  reader: SessionReader;
  terminal: Pick<TerminalInput, 'fd'>;
  /** Replies rendered as Markdown (stdout is a terminal and --raw was not asked for); default false. */
  render?: boolean;
  /** The `params` setting (JSON text), sent with every request under the role's and --param's. */
  storedParams?: string | undefined;
  /** The prices set, for /usage. */
  prices?: ReadonlyMap<string, Price> | undefined;
  /** Asking streams for token counts (the streamUsage setting), for the whole session. */
  streamUsage?: StreamUsageAsk | undefined;
  /** The context windows of the models (settings, else the server's); by default the server's alone. */
  windows?: ContextWindows | undefined;
  /** The `autoCompact` setting; off by default. */
  autoCompact?: number | 'off' | undefined;
  /** Set when svc chose `model` itself, none being set (chat/model-choice.ts). */
  unsetModel?: DefaultModelPlace | undefined;
  /** The tools offered, opened (tool-turn.ts openChatTools); none by default. Closed when the session ends. */
  tools?: ToolSet | undefined;
}

/** The session itself: read, answer, until the user leaves. The reader is closed at the end. */
export async function runSession(start: SessionStart, firstMessage?: Prompt): Promise<void> {
  const { plan, context, client, reader } = start;
  const { signal } = context;
  const { io } = context.factory;
  const composer = new MessageComposer();
  /** The lines of the message being composed, as typed: taken back out of history for the whole. */
  const typed: string[] = [];
  const windows = start.windows ?? ContextWindows.of({}, client);
  const deps: SessionDeps = { context, client, plan, storedParams: start.storedParams, prices: start.prices, streamUsage: start.streamUsage, windows, autoCompact: start.autoCompact, ...(start.unsetModel ? { unsetModel: { model: start.model, place: start.unsetModel } } : {}) };

  const state: SessionState = {
    io,
    deps,
    session: start.session,
    model: start.model,
    usage: noUsage(),
    usageByModel: {},
    terminal: start.terminal,
    reader,
    leaving: false,
    unsent: undefined,
    attachments: [],
    lastImage: undefined,
    role: start.role,
    modelTrial: undefined,
    render: start.render ?? false,
    tools: start.tools ?? new ToolSet((servers, stop) => start.context.factory.openTools(servers, stop), [], start.plan.tools?.allow ?? []),
    ask: async (prompt) => {
      try {
        await askTurn(state, prompt, deps);
      } finally {
        // A blank line between a turn and the next prompt (stderr: stdout holds only the replies).
        io.stderr.write('\n');
      }
    },
    startNewConversation: () => {
      state.session = ConversationSession.fresh(plan.conversation.save ? start.store : undefined);
      noticeSaveFailure(io, state.session);
      const system = plan.system ?? state.role?.system;
      if (system) state.session.setSystem(system);
    },
    store: start.store,
    switchTo: (next) => {
      state.session = next;
      noticeSaveFailure(io, next);
    },
    useRole: (role) => applyRole(state, role, { modelFlag: plan.settings.model !== undefined }),
  };
  noticeSaveFailure(io, state.session);
  applySystemFlag(state.session, plan.system ?? start.role?.system);

  const earlier = state.session.turns.length;
  const images = state.session.images.length;
  const imagesNote = images > 0 ? `, ${images} image${images === 1 ? '' : 's'}: /history lists them` : '';
  const summarised = state.session.activeCompaction?.through;
  const compactedNote = summarised === undefined ? '' : `, the first ${summarised === 1 ? '' : `${summarised} `}summarised`;
  note(
    io,
    `svc chat · ${neutraliseForTerminal(state.model)}${state.role ? ` · role ${state.role.name}` : ''}${toolsNote(state.tools)} · ${earlier + images > 0 ? `resuming "${state.session.name}" (${earlier} turn${earlier === 1 ? '' : 's'}${compactedNote}${imagesNote})` : 'new conversation'}` +
      ' · /help for commands, Ctrl-D to leave',
  );

  let lastWasEmptyInterrupt = false;
  // SIGTERM / SIGHUP while waiting for input: stop waiting, leave as after Ctrl-D.
  const onStop = (): void => reader.cancel();
  signal.addEventListener('abort', onStop, { once: true });
  try {
    if (firstMessage !== undefined) {
      const lines = firstMessage.text.split('\n').length;
      note(io, `(sent the prompt: ${lines} line${lines === 1 ? '' : 's'}, ${firstMessage.text.length} characters)`);
      await state.ask(firstMessage);
    }
    while (!state.leaving && !signal.aborted) {
      const result = await reader.read(composer.pending ? CONTINUATION : PROMPT);
      if (result.kind === 'eof') break;
      if (result.kind === 'interrupt') {
        if (result.hadText || composer.pending) {
          composer.reset();
          typed.length = 0;
          lastWasEmptyInterrupt = false;
          continue;
        }
        if (lastWasEmptyInterrupt) break;
        lastWasEmptyInterrupt = true;
        note(io, '(press Ctrl-C again or Ctrl-D to leave)');
        continue;
      }
      lastWasEmptyInterrupt = false;
      typed.push(result.text);
      const composed = composer.feed(result.text);
      if (!composed.done) continue;
      const text = composed.text;
      // One history entry for the whole message, however many lines it was typed as.
      reader.remember?.(text, typed.splice(0));
      if (text.trim() === '') continue;
      const input = parseInput(text.trim().startsWith('/') ? text.trim() : text);
      if (input.kind === 'unknown') note(io, unknownCommandHint(input.name));
      else if (input.kind === 'command') await runSlashCommand(input.name, input.arg, state);
      else await state.ask(takeAttachments(state, input.text));
    }
  } finally {
    signal.removeEventListener('abort', onStop);
    reader.close();
    await state.tools.close();
  }
  if (state.unsent !== undefined) {
    note(io, `(your last message was not sent: "${neutraliseForTerminal(firstLineOf(state.unsent.text))}"${plan.conversation.save ? '; Up recalls it next time' : ''})`);
  }
  if (state.attachments.length > 0) {
    const count = state.attachments.length;
    note(io, `(${count} file${count === 1 ? '' : 's'} attached with /file went unsent)`);
  }
  if (state.session.saved && state.session.turns.length + state.session.images.length > 0) {
    note(io, `saved as "${state.session.name}" · resume with: svc chat --continue   (or --session ${state.session.name})`);
  }
  if (signal.aborted) throw new InterruptedError();
}
