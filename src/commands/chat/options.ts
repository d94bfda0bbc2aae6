/**
 * What a chat was asked to do: the plan its flags were checked into (chat.ts parseChatOptions),
 * what it read from the disk before sending (start.ts), and the request body it sends
 * (docs/service-api.md, "Chat: the request"), for a one-shot answer and for a session's turn.
 */
import type { ChatRequest, RequestMessage } from '../../api/chat-types.js';
import type { ImageDetail } from '../../api/content-parts.js';
import type { AttachedFile } from '../../attachments/read.js';
import type { RequestFields } from '../../chat/request-fields.js';
import { withParams, type RequestParams } from '../../core/request-params.js';
import type { SettingFlags } from '../../factory.js';
import type { RoleInUse } from '../../roles/fill-role.js';
import type { Role } from '../../roles/role-file.js';
import type { ToolFlags } from './tool-flags.js';

/** --continue, --session and --no-save: the conversation a chat adds to. */
export interface ConversationChoice {
  /** `--continue`: the conversation changed last. */
  continueLatest: boolean;
  /** `--session <name>`: that one, created if new. */
  sessionName: string | undefined;
  /** `--no-save` sets this to false. */
  save: boolean;
}

export interface ChatPlan {
  /** The prompt words; piped stdin is read later, when `stdin` allows it (prompt-input.ts). */
  words: string[];
  /** The request's optional fields, checked and converted (request-fields.ts). */
  fields: RequestFields;
  /** `-s`, as given: the conversation's system message becomes it ('' removes it). */
  system: string | undefined;
  /** `--no-stream` sets this to false. */
  stream: boolean;
  json: boolean;
  usage: boolean;
  /** `--show-reasoning`: in a pipe, the model's reasoning goes to stderr (reply.ts reasoningShown). */
  showReasoning?: boolean;
  /** `--no-stdin` sets this to false. */
  stdin: boolean;
  /** `-i`: after the prompt, carry on talking from the terminal. */
  interactive: boolean;
  conversation: ConversationChoice;
  /** --model, --base-url, --timeout, --max-retries and --raw (the render setting): resolved with the environment and stored settings. */
  settings: SettingFlags;
  /** `-f`: the files (or quoted globs) whose text joins the message, read before anything is sent. */
  files?: readonly string[];
  /** `--image-detail`: the `detail` of each image part (the service's default when not given). */
  imageDetail?: ImageDetail;
  /** `--role`: the saved role whose system message and defaults apply (flags given beat it). */
  role?: string | undefined;
  /** `--compact`: summarise the conversation's earlier turns before anything else (commands/chat/compact.ts). */
  compact?: boolean;
  /** `--dry-run`: print the request as a curl command instead of sending it. */
  dryRun?: boolean;
  /** `--var NAME=VALUE`: values for the role's blanks (roles/template.ts). */
  vars?: Record<string, string>;
  /** `-x/--extract` (all blocks) or `--extract-last`: stdout gets only the answer's code. */
  extract?: 'all' | 'last' | undefined;
  /** `--param KEY=VALUE`: fields added to the request body as given (core/request-params.ts). */
  params?: RequestParams;
  /** `--tools`, `--no-tools`, `--allow`, `--max-steps` (tool-flags.ts). */
  tools?: ToolFlags;
}

/** What a chat reads from the disk before stdin is read or anything is sent: the role of --role and the files of -f. */
export interface ChatInputs {
  role: RoleInUse | undefined;
  files: AttachedFile[];
}

/** The body for `messages` (the conversation so far and the new prompt), with the plan's fields. */
export function buildChatRequest(model: string, messages: RequestMessage[], plan: Pick<ChatPlan, 'fields' | 'stream' | 'params'> & { streamUsage?: boolean }): ChatRequest {
  const request: ChatRequest = { model, messages, ...plan.fields };
  if (plan.stream) {
    request.stream = true;
    // OpenAI convention: without this, a stream carries no token counts (for --usage and --json);
    // the streamUsage setting leaves it out for a server that refuses it (StreamUsageAsk in reply.ts).
    if (plan.streamUsage !== false) request.stream_options = { include_usage: true };
  }
  return plan.params ? withParams(request, plan.params) : request;
}

/** The request fields of a chat with a role: the role's defaults, and the flags given over them. */
export function fieldsWithRole(fields: RequestFields, role: Role | undefined): RequestFields {
  return role ? { ...role.fields, ...fields } : fields;
}
