/**
 * An answer that came back whole but holds no reply: no choice at all, a choice with no content
 * (`content: null` beside a refusal or a tool call, or nothing), or a reply the service's content
 * filter withheld. Streamed or not, each is the same error, so nothing empty is shown or saved
 * as if it were the model's answer. An empty string (`content: ""`, a --stop that matched at
 * once) is a reply, and is not an error.
 */
import { MalformedResponseError, RejectedError, type SvcError } from '../core/errors.js';
import { isObject } from '../core/json.js';
import type { CompletionAssembler } from './chat-assembler.js';

function toolNames(toolCalls: unknown): string[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.flatMap((call: unknown) => {
    const name = isObject(call) && isObject(call.function) ? call.function.name : undefined;
    return typeof name === 'string' && name !== '' ? [name] : [];
  });
}

/** The error for an answer with no reply in it, or undefined when it has one. */
export function missingReplyError(assembler: CompletionAssembler, requestId: string | undefined): SvcError | undefined {
  if (!assembler.sawChoice) {
    return new MalformedResponseError('the service answered without choices: no reply came back (`choices` is empty or missing)', {
      hint: 'the service may have failed without saying why; try again',
    });
  }
  if (assembler.text !== '') return undefined;
  const details = { status: 0, requestId };
  if (assembler.finishReason === 'content_filter') {
    const message = "the service's content filter withheld the reply (finish_reason: content_filter)";
    return new RejectedError(message, { ...details, serviceMessage: message });
  }
  const { refusal, tool_calls: toolCalls } = assembler.messageExtra;
  if (typeof refusal === 'string' && refusal.trim() !== '') {
    return new RejectedError(`the model declined to answer: ${refusal.trim()}`, { ...details, serviceMessage: refusal });
  }
  const tools = toolNames(toolCalls);
  if (tools.length > 0 || (Array.isArray(toolCalls) && toolCalls.length > 0)) {
    return new MalformedResponseError(`the model answered with a tool call${tools.length > 0 ? ` (${tools.join(', ')})` : ''} instead of text; svc offers no tools and cannot run it`);
  }
  if (assembler.sawContent) return undefined;
  const finish = assembler.finishReason;
  return new MalformedResponseError(`the service answered without any reply text (the choice has no content${finish ? `, finish_reason: ${finish}` : ''})`, {
    hint: finish === 'length' ? 'the token limit was reached before any text: raise --max-tokens' : 'try again; if it persists, the service or a proxy in front of it is at fault',
  });
}
