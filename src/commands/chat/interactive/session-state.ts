/**
 * What the session loop (repl.ts), its turns (ask.ts) and the slash commands (commands.ts) share:
 * the state of one interactive session. Kept apart so those modules depend on it, not on each other.
 */
import type { Usage } from '../../../api/chat-types.js';
import type { ConversationSession } from '../../../conversations/session.js';
import type { IO } from '../../../io.js';
import type { LineReader } from './line-reader.js';
import type { TerminalInput } from './terminal-input.js';

/** What the session needs of the line reader (a test drives the session with its own). */
export type SessionReader = Pick<LineReader, 'read' | 'whileBusy' | 'lend' | 'cancel' | 'close'>;

/** What the slash commands may look at and change. */
export interface SessionState {
  io: IO;
  session: ConversationSession;
  model: string;
  /** Tokens of the replies kept since this session started. */
  usage: Usage;
  terminal: Pick<TerminalInput, 'fd'>;
  reader: SessionReader;
  /** Set by /exit and /quit. */
  leaving: boolean;
  /** A message whose send failed with nothing back: /retry sends it. */
  unsent: string | undefined;
  /** After /model, until the new model has answered once: what to go back to if it is refused. */
  modelTrial: { model: string; conversationModel: string | undefined } | undefined;
  /** Replies are rendered as Markdown (stdout is a terminal, the render setting is auto). */
  render: boolean;
  /** Send `text` as the next turn (for /retry and /edit). */
  ask(text: string): Promise<void>;
  startNewConversation(): void;
}
