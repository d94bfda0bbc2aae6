/**
 * An answer that came back whole but holds no reply: no choice at all, a choice with no content
 * beside a refusal or a tool call when no tools were offered, or a reply the service's content filter withheld. Streamed or
 * not, each is the same error, so nothing is shown or saved as if it were the model's answer.
 *
 * A choice whose content is empty or null and says nothing more (a reasoning model that spent
 * its tokens thinking, a --stop that matched at once) is a reply, an empty one: exit 0, with one
 * line on stderr saying so and why ({@link emptyReplyNote}).
 */
import { MalformedResponseError, RejectedError, type SvcError } from '../core/errors.js';
import { isObject, type JsonObject } from '../core/json.js';
import { reasoningOf, type CompletionAssembler } from './chat-assembler.js';
import type { ChatCompletion } from './chat-types.js';

function toolNames(toolCalls: unknown): string[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.flatMap((call: unknown) => {
    const name = isObject(call) && isObject(call.function) ? call.function.name : undefined;
    return typeof name === 'string' && name !== '' ? [name] : [];
  });
}

/**
 * The error for an answer with no reply in it, or undefined when it has one. With `toolsOffered`
 * (the request had `tools`), a tool call is the reply: the tool loop runs it.
 */
export function missingReplyError(assembler: CompletionAssembler, requestId: string | undefined, toolsOffered = false): SvcError | undefined {
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
  if (toolsOffered && Array.isArray(toolCalls) && toolCalls.length > 0) return undefined;
  if (tools.length > 0 || (Array.isArray(toolCalls) && toolCalls.length > 0)) {
    return new MalformedResponseError(`the model answered with a tool call${tools.length > 0 ? ` (${tools.join(', ')})` : ''} instead of text; no tools were offered, so svc cannot run it`, { hint: 'svc chat --tools NAME offers the tools of an MCP server (docs/chat.md, "Tools")' });
  }
  return undefined;
}

/**
 * Why a reply is empty, for the one stderr line that says so, or undefined when it has text.
 * `finish_reason: length` means the token limit came first (a reasoning model may have spent it
 * all thinking): raising --max-tokens is the way out.
 */
export function emptyReplyNote(completion: ChatCompletion | undefined): string | undefined {
  const choice = completion?.choices[0];
  if (!choice || (choice.message.content ?? '') !== '') return undefined;
  const reasoned = reasoningOf(choice.message as JsonObject) ? ' (only reasoning came back)' : '';
  const finish = choice.finish_reason;
  if (finish === 'length') return `the reply was empty${reasoned}: the token limit was reached first (finish_reason: length); raise --max-tokens`;
  return `the reply was empty${reasoned}${finish ? ` (finish_reason: ${finish})` : ''}`;
}
