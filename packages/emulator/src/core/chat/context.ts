/**
 * The context window: a request whose prompt, with the reply it asks room for, does not fit the
 * model's window is refused before anything is generated, in OpenAI's words and shape (400,
 * `code: "context_length_exceeded"`, `param: "messages"`), so a client's handling of it can be
 * tested. The emulator does this only when started with a window (`contextLength`); the counts
 * are those `usage` reports.
 */
import { EmulatorError } from '../errors.js';

/** A request's prompt tokens: its messages (images included) and the tools it offers. */
export interface PromptCount {
  messages: number;
  functions: number;
}

/**
 * Throws OpenAI's refusal when the prompt, plus `maxTokens` when given (else at least one token
 * of reply), does not fit `window` tokens. Returns how many tokens the reply may have.
 */
export function checkContextWindow(window: number, count: PromptCount, maxTokens: number | undefined): number {
  const prompt = count.messages + count.functions;
  const asked = prompt + (maxTokens ?? 1);
  if (asked <= window) return window - prompt;
  const parts = [`${count.messages} in the messages`, ...(count.functions > 0 ? [`${count.functions} in the functions`] : [])];
  const names = ['messages', ...(count.functions > 0 ? ['functions'] : [])];
  const either = (list: string[]): string => (list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`);
  const message = maxTokens === undefined || prompt > window
    ? `your messages resulted in ${prompt} tokens${count.functions > 0 ? ` (${parts.join(', ')})` : ''}. Please reduce the length of the ${either(names)}.`
    : `you requested ${asked} tokens (${[...parts, `${maxTokens} in the completion`].join(', ')}). Please reduce the length of the ${either([...names, 'completion'])}.`;
  throw new EmulatorError(400, `This model's maximum context length is ${window} tokens. However, ${message}`, { code: 'context_length_exceeded', param: 'messages' });
}
