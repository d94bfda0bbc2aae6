/** The chat request body (docs/service-api.md, "Chat: the request"), for a one-shot answer or a session's turn (a batch line's is its own, batch/requests.ts). */
import type { ChatMessage, ChatRequest } from '../../api/chat-types.js';
import type { Role } from '../../roles/role-file.js';
import type { ChatPlan } from './options.js';
import type { RequestFields } from '../../chat/request-fields.js';
import { withParams } from '../../core/request-params.js';

/** The body for `messages` (the conversation so far and the new prompt), with the plan's fields. */
export function buildChatRequest(model: string, messages: ChatMessage[], plan: Pick<ChatPlan, 'fields' | 'stream' | 'params'> & { streamUsage?: boolean }): ChatRequest {
  const request: ChatRequest = { model, messages, ...plan.fields };
  if (plan.stream) {
    request.stream = true;
    // OpenAI convention: without this, a stream carries no token counts (for --usage and --json);
    // the streamUsage setting leaves it out for a server that refuses it (chat/stream-usage.ts).
    if (plan.streamUsage !== false) request.stream_options = { include_usage: true };
  }
  return plan.params ? withParams(request, plan.params) : request;
}

/** The request fields of a chat with a role: the role's defaults, and the flags given over them. */
export function fieldsWithRole(fields: RequestFields, role: Role | undefined): RequestFields {
  return role ? { ...role.fields, ...fields } : fields;
}
