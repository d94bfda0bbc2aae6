/**
 * What the session loop (repl.ts), its turns (ask.ts) and the slash commands (commands.ts) share:
 * the state of one interactive session. Kept apart so those modules depend on it, not on each other.
 */
import { noteFor } from '../../../terminal/wrap-note.js';
import { chatParams } from '../../../core/request-params.js';
import { buildChatRequest, fieldsWithRole } from '../options.js';
import type { ChatRequest, RequestMessage, Usage } from '../../../api/chat-types.js';
import type { StreamUsageAsk } from '../reply.js';
import type { DefaultModelPlace } from '../../../chat/model-choice.js';
import type { Price } from '../../../settings/prices.js';
import type { ApiClient } from '../../../api/client.js';
import type { Prompt } from '../../../attachments/message.js';
import type { AttachedFile } from '../../../attachments/read.js';
import type { RoleInUse } from '../../../roles/fill-role.js';
import type { ConversationSession } from '../../../conversations/session.js';
import type { ConversationStore } from '../../../conversations/store.js';
import type { IO } from '../../../terminal/io.js';
import type { CommandContext } from '../../context.js';
import type { ChatPlan } from '../options.js';
import type { LineReader, TerminalInput } from './line-reader.js';
import type { ToolSet } from '../../../chat/tool-runner.js';
import type { ContextWindows } from '../../../chat/server-window.js';

/** What the session needs of the line reader (a test drives the session with its own). */
export type SessionReader = Pick<LineReader, 'read' | 'whileBusy' | 'lend' | 'cancel' | 'close'> & Partial<Pick<LineReader, 'remember' | 'divertKeys'>>;

/** What a turn or a command needs to reach the service: fixed for the whole session. */
export interface SessionDeps {
  context: CommandContext;
  client: ApiClient;
  plan: ChatPlan;
  /** The `params` setting (JSON text) of the profile in use. */
  storedParams?: string | undefined;
  /** Asking streams for token counts, for the whole session (one refusal turns it off). */
  streamUsage?: StreamUsageAsk | undefined;
  /** Prices set with `svc config set prices.MODEL` (/usage shows a cost when every model has one). */
  prices?: ReadonlyMap<string, Price> | undefined;
  /** The context window of each model: checked before a send that follows earlier turns, shown by /usage. */
  windows?: ContextWindows | undefined;
  /** The `autoCompact` setting: compact before a send that would fill more than this share of the window. */
  autoCompact?: number | 'off' | undefined;
  /** The model svc chose because none is set, and where it looked (a refusal then says to set one). */
  unsetModel?: { model: string; place: DefaultModelPlace } | undefined;
}

/** What the slash commands may look at and change. */
export interface SessionState {
  io: IO;
  deps: SessionDeps;
  session: ConversationSession;
  model: string;
  /** Tokens of the replies kept since this session started. */
  usage: Usage;
  /** The same, per model. */
  usageByModel: Record<string, Usage>;
  terminal: Pick<TerminalInput, 'fd'>;
  reader: SessionReader;
  /** Set by /exit and /quit. */
  leaving: boolean;
  /** A message whose send failed with nothing back: /retry sends it. */
  unsent: Prompt | undefined;
  /** Files attached with /file, sent with the next message. */
  attachments: AttachedFile[];
  /** The file of the newest image /image saved in this session (/file last), whatever conversation it went to. */
  lastImage: string | undefined;
  /** The role in use (--role, /role): its request defaults apply under the flags given. */
  role: RoleInUse | undefined;
  /** After /model, until the new model has answered once: what to go back to if it is refused. */
  modelTrial: { model: string; conversationModel: string | undefined } | undefined;
  /** Replies are rendered as Markdown (stdout is a terminal, the render setting is auto). */
  render: boolean;
  /** The tools offered to the model (--tools, the role's, the profile's; /tools changes them). */
  tools: ToolSet;
  /** Send `prompt` as the next turn (for /retry and /edit). */
  ask(prompt: Prompt): Promise<void>;
  startNewConversation(): void;
  /** Where the session's conversations are saved (/fork writes its copy there). */
  store: ConversationStore;
  /** Go on in `session` from now on (/fork). */
  switchTo(session: ConversationSession): void;
  /** Use `role` from now on (/role); returns what changed, to tell the user. */
  useRole(role: RoleInUse): string;
}

/** One line for the person at the session (stderr: stdout holds only the replies). */
export function say(state: Pick<SessionState, 'io'>, text: string): void {
  // A one-line note wraps at the terminal's width with a hanging indent; a block (/help, /history) is drawn as it is.
  const { io } = state;
  io.stderr.write(`${text.includes('\n') ? text : noteFor(text, io.stderr as { columns?: number }, io.stderrIsTTY)}\n`);
}

/** The request for `messages` in this session: its model, the flags' fields and params under the role's. */
export function sessionRequest(state: Pick<SessionState, 'deps' | 'model' | 'role'>, messages: RequestMessage[]): ChatRequest {
  const { deps } = state;
  const { plan } = deps;
  return buildChatRequest(state.model, messages, { streamUsage: deps.streamUsage?.on, fields: fieldsWithRole(plan.fields, state.role), stream: plan.stream, params: chatParams(deps.storedParams, state.role?.params, plan.params) });
}
