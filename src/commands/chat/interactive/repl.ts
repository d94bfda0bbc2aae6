/**
 * The interactive session: read a message, stream the reply, keep the whole conversation and
 * send it each turn, until the user leaves. Every turn is saved as it happens.
 */
import type { Usage } from '../../../api/chat-types.js';
import type { ApiClient } from '../../../api/client.js';
import type { ConversationSession } from '../../../conversations/session.js';
import { InterruptedError } from '../../../errors.js';
import type { IO } from '../../../io.js';
import { reportError } from '../../../report-error.js';
import type { CommandContext } from '../../context.js';
import { buildChatRequest, type ChatOptions } from '../one-shot.js';
import { applySystemFlag, chatModel, openConversation } from '../open-conversation.js';
import { replyText, streamReply, turnFrom } from '../reply.js';
import { runSlashCommand } from './commands.js';
import { MessageComposer } from './composer.js';
import { InputHistory } from './input-history.js';
import { LineReader } from './line-reader.js';
import { parseInput, unknownCommandHint } from './slash-commands.js';
import { openTerminalInput, type TerminalInput } from './terminal-input.js';

const PROMPT = '› ';
const CONTINUATION = '… ';

/** What the slash commands may look at and change. */
export interface SessionState {
  io: IO;
  session: ConversationSession;
  model: string;
  /** Tokens used since this session started. */
  usage: Usage;
  terminal: TerminalInput;
  reader: LineReader;
  /** Set by /exit and /quit. */
  leaving: boolean;
  /** Send `text` as the next turn (for /retry and /edit). */
  ask(text: string): Promise<void>;
  startNewConversation(): void;
}

function note(io: IO, text: string): void {
  io.stderr.write(`${text}\n`);
}

export async function runInteractive(options: ChatOptions, context: CommandContext, firstMessage?: string): Promise<void> {
  const { factory, signal, interrupts } = context;
  const { io } = factory;
  const terminal = openTerminalInput(io);
  const settings = await factory.settings(options.settings);
  const client: ApiClient = await factory.apiClient(settings);
  const history = options.save ? InputHistory.load(io.env) : InputHistory.memory();
  const reader = new LineReader(terminal, io.stderr, history);
  const composer = new MessageComposer();

  const state: SessionState = {
    io,
    session: openConversation(io, options),
    model: '',
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    terminal,
    reader,
    leaving: false,
    ask: (text) => ask(text),
    startNewConversation: () => {
      state.session = openConversation(io, { ...options, continueLatest: false, sessionName: undefined });
      if (options.system) state.session.setSystem(options.system);
    },
  };
  applySystemFlag(state.session, options.system);
  state.model = chatModel(settings, state.session);

  /** One turn: send the conversation plus `text`, stream the reply, keep what came. */
  async function ask(text: string): Promise<void> {
    const stop = new AbortController();
    // Ctrl-C from the keyboard (raw mode: the reader sees it) or as a signal (kill -INT).
    const releaseKeys = reader.whileBusy(() => stop.abort());
    const release = interrupts.push(() => stop.abort());
    const onLeave = (): void => stop.abort();
    signal.addEventListener('abort', onLeave, { once: true });
    const request = buildChatRequest(state.model, state.session, text, options);
    let outcome;
    try {
      outcome = await streamReply(io, client, request, { signal: stop.signal });
    } finally {
      releaseKeys();
      release();
      signal.removeEventListener('abort', onLeave);
    }
    const reply = replyText(outcome.completion);
    const usage = outcome.completion?.usage;
    if (usage) {
      state.usage.prompt_tokens += usage.prompt_tokens;
      state.usage.completion_tokens += usage.completion_tokens;
      state.usage.total_tokens += usage.total_tokens;
    }
    const finished = outcome.error === undefined;
    if (finished || reply !== '' || stop.signal.aborted) {
      state.session.addTurn(turnFrom(text, state.model, outcome));
    }
    if (finished) {
      if (outcome.completion?.choices[0]?.finish_reason === 'length') note(io, '(the reply was cut at the token limit)');
    } else if (stop.signal.aborted) {
      note(io, '(reply interrupted; kept as far as it came: /retry asks again)');
    } else {
      await reportError(io, outcome.error, factory.loadedApiKey());
      if (reply !== '') note(io, '(the partial reply is kept: /retry asks again)');
    }
  }

  const earlier = state.session.turns.length;
  note(
    io,
    `svc chat · ${state.model} · ${earlier > 0 ? `resuming "${state.session.name}" (${earlier} turn${earlier === 1 ? '' : 's'})` : 'new conversation'}` +
      ' · /help for commands, Ctrl-D to leave',
  );

  let lastWasEmptyInterrupt = false;
  // SIGTERM / SIGHUP while waiting for input: stop waiting, leave as after Ctrl-D.
  const onStop = (): void => reader.cancel();
  signal.addEventListener('abort', onStop, { once: true });
  try {
    if (firstMessage !== undefined) {
      const lines = firstMessage.split('\n').length;
      note(io, `(sent the prompt: ${lines} line${lines === 1 ? '' : 's'}, ${firstMessage.length} characters)`);
      await ask(firstMessage);
    }
    while (!state.leaving && !signal.aborted) {
      const result = await reader.read(composer.pending ? CONTINUATION : PROMPT);
      if (result.kind === 'eof') break;
      if (result.kind === 'interrupt') {
        if (result.hadText || composer.pending) {
          composer.reset();
          lastWasEmptyInterrupt = false;
          continue;
        }
        if (lastWasEmptyInterrupt) break;
        lastWasEmptyInterrupt = true;
        note(io, '(press Ctrl-C again or Ctrl-D to leave)');
        continue;
      }
      lastWasEmptyInterrupt = false;
      const composed = composer.feed(result.text);
      if (!composed.done) continue;
      const text = composed.text;
      if (text.trim() === '') continue;
      const input = parseInput(text.trim().startsWith('/') ? text.trim() : text);
      if (input.kind === 'unknown') note(io, unknownCommandHint(input.name));
      else if (input.kind === 'command') await runSlashCommand(input.name, input.arg, state);
      else await ask(input.text);
    }
  } finally {
    signal.removeEventListener('abort', onStop);
    reader.close();
  }
  if (state.session.saved && state.session.turns.length > 0) {
    note(io, `saved as "${state.session.name}" · resume with: svc chat --continue   (or --session ${state.session.name})`);
  }
  if (signal.aborted) throw new InterruptedError();
}
