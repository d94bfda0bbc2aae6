/**
 * Reading chat answers tolerantly: a streamed chunk or a whole completion, in the OpenAI shape
 * or close to it, becomes text deltas plus the service-api.md 2.2 object svc prints with --json.
 */
import { MalformedResponseError } from '../errors.js';
import { isObject, type JsonObject } from '../json.js';
import type { ChatCompletion, Usage } from './chat-types.js';


function readUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = Number(value.prompt_tokens ?? 0);
  const completion = Number(value.completion_tokens ?? 0);
  const total = value.total_tokens === undefined ? prompt + completion : Number(value.total_tokens);
  return [prompt, completion, total].every(Number.isFinite) ? { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } : undefined;
}

/**
 * The text of a choice: `delta.content` in chunks, `message.content` in completions, `text` in
 * legacy ones. Written out plainly: it runs once per chunk, mostly before V8 has optimised it.
 */
function choiceText(choice: JsonObject): string | undefined {
  const { delta, message } = choice;
  if (isObject(delta) && typeof delta.content === 'string') return delta.content;
  if (isObject(message) && typeof message.content === 'string') return message.content;
  return typeof choice.text === 'string' ? choice.text : undefined;
}

/** The choice svc reads: index 0 (or no index); svc asks for one, a service may send more. */
function firstChoice(choices: unknown): JsonObject | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices as unknown[]) {
    if (isObject(choice) && (choice.index === undefined || choice.index === 0)) return choice;
  }
  return undefined;
}

export class CompletionAssembler {
  #id: string | undefined;
  #created: number | undefined;
  #model: string | undefined;
  #parts: string[] = [];
  #finishReason: string | null = null;
  #usage: Usage | undefined;
  /** True once a choice or usage was seen, so an answer with neither can be told apart. */
  #sawChoice = false;

  constructor(private readonly requestedModel: string) {}

  /** Take one chunk (or a whole completion) and return the new text it carries. */
  add(value: unknown): string {
    if (!isObject(value)) throw new MalformedResponseError('the service sent a stream event that is not a JSON object');
    if (typeof value.id === 'string') this.#id ??= value.id;
    if (typeof value.created === 'number') this.#created ??= value.created;
    if (typeof value.model === 'string') this.#model ??= value.model;
    const usage = readUsage(value.usage);
    if (usage) this.#usage = usage;
    const choice = firstChoice(value.choices);
    if (!choice) return '';
    this.#sawChoice = true;
    if (typeof choice.finish_reason === 'string') this.#finishReason = choice.finish_reason;
    const text = choiceText(choice) ?? '';
    if (text !== '') this.#parts.push(text);
    return text;
  }

  get finishReason(): string | null {
    return this.#finishReason;
  }

  get usage(): Usage | undefined {
    return this.#usage;
  }

  get sawChoice(): boolean {
    return this.#sawChoice;
  }

  /** The text so far. */
  get text(): string {
    return this.#parts.join('');
  }

  /** The 2.2 object, from what arrived (also for a stream cut short: finish_reason stays null). */
  completion(): ChatCompletion {
    const completion: ChatCompletion = {
      id: this.#id ?? 'chatcmpl-unknown',
      object: 'chat.completion',
      created: this.#created ?? Math.floor(Date.now() / 1000),
      model: this.#model ?? this.requestedModel,
      choices: [{ index: 0, message: { role: 'assistant', content: this.text }, finish_reason: this.#finishReason }],
    };
    if (this.#usage) completion.usage = this.#usage;
    return completion;
  }
}
