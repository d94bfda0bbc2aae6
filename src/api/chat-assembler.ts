/**
 * Reading chat answers tolerantly: a streamed chunk or a whole completion, in the OpenAI shape
 * or close to it, becomes text deltas plus the whole answer object (docs/service-api.md, "The answer, whole") svc prints with --json.
 *
 * `--json` keeps what the service sent: every top-level field (`system_fingerprint`, llama.cpp's
 * `timings`...), every field of the choice (`logprobs`) and of its message (`refusal`,
 * `reasoning_content`...). A stream is assembled the way OpenAI's own client does it: text
 * fields of the deltas are joined, arrays appended (tool calls merged by their `index`), other
 * values taken from the latest chunk that has them. Only what assembly needs is added: `object`
 * becomes `chat.completion`, and `id`, `created`, `model` are filled in when no chunk had them.
 */
import { MalformedResponseError } from '../core/errors.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { ChatCompletion, Usage } from './chat-types.js';
import { MAX_CHAT_ANSWER_BYTES } from './limits.js';
import { describeBytes } from '../core/byte-size.js';
import { copied, keepLatest, mergeDelta } from './delta-merge.js';

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

/**
 * The reasoning text of a delta or message: `reasoning_content` (llama.cpp, DeepSeek) or
 * `reasoning` (OpenRouter, vLLM) when it is text. The model's thinking before its answer: shown
 * apart from the answer, never part of it.
 */
export function reasoningOf(message: JsonObject): string | undefined {
  if (typeof message.reasoning_content === 'string') return message.reasoning_content;
  return typeof message.reasoning === 'string' ? message.reasoning : undefined;
}

/** The choice svc reads: index 0 (or no index); svc asks for one, a service may send more. */
function firstChoice(choices: unknown): JsonObject | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices as unknown[]) {
    if (isObject(choice) && (choice.index === undefined || choice.index === 0)) return choice;
  }
  return undefined;
}

/** The choices after the first (`n` above 1, asked for with --param), for --json to keep. */
function laterChoices(choices: unknown): readonly JsonObject[] {
  if (!Array.isArray(choices)) return NO_CHOICES;
  let later: JsonObject[] | undefined;
  for (const choice of choices as unknown[]) {
    if (isObject(choice) && typeof choice.index === 'number' && choice.index > 0) (later ??= []).push(choice);
  }
  return later ?? NO_CHOICES;
}
const NO_CHOICES: readonly JsonObject[] = [];

/** Fields svc assembles itself; the rest is kept as sent. */
const OWN_TOP_LEVEL = new Set(['id', 'object', 'created', 'model', 'choices', 'usage']);
const OWN_CHOICE = new Set(['index', 'delta', 'message', 'finish_reason', 'text']);
const OWN_MESSAGE = new Set(['role', 'content']);

export class CompletionAssembler {
  #id: string | undefined;
  #created: number | undefined;
  #model: string | undefined;
  /** Top-level fields svc does not assemble itself, as the latest chunk had them. */
  readonly #extra: JsonObject = {};
  readonly #choiceExtra: JsonObject = {};
  readonly #messageExtra: JsonObject = {};
  #parts: string[] = [];
  /** Characters held for the reply (its text and the other text fields of the message). */
  #held = 0;
  #finishReason: string | null = null;
  #usage: Usage | undefined;
  #rawUsage: JsonObject | undefined;
  /** True once a choice was seen, so an answer with none can be told apart. */
  #sawChoice = false;
  /** True once a choice carried text (even ''), so a choice with no content can be told apart. */
  #sawContent = false;
  /** The reasoning text the latest add() carried ('' when none). */
  #lastReasoning = '';
  /** Choices after the first, by index, assembled as they came (shown only in --json). */
  readonly #later = new Map<number, JsonObject>();

  constructor(private readonly requestedModel: string) {}

  /**
   * Take one chunk (or a whole completion) and return the new reply text it carries; the new
   * reasoning text it carries is {@link lastReasoning}.
   */
  add(value: unknown): string {
    this.#lastReasoning = '';
    if (!isObject(value)) throw new MalformedResponseError('the service sent a stream event that is not a JSON object');
    if (typeof value.id === 'string') this.#id ??= value.id;
    if (typeof value.created === 'number') this.#created ??= value.created;
    if (typeof value.model === 'string') this.#model ??= value.model;
    for (const key in value) if (!OWN_TOP_LEVEL.has(key)) keepLatest(this.#extra, key, value[key]);
    const usage = readUsage(value.usage);
    if (usage) {
      this.#usage = usage;
      this.#rawUsage = value.usage as JsonObject;
    }
    for (const later of laterChoices(value.choices)) this.#addLater(later);
    const choice = firstChoice(value.choices);
    if (!choice) return '';
    this.#sawChoice = true;
    if (typeof choice.finish_reason === 'string') this.#finishReason = choice.finish_reason;
    for (const key in choice) {
      if (OWN_CHOICE.has(key)) continue;
      if (key === 'logprobs' && isObject(choice.logprobs)) this.#held += mergeDelta(this.#choiceExtra, { logprobs: choice.logprobs });
      else keepLatest(this.#choiceExtra, key, choice[key]);
    }
    const message = isObject(choice.delta) ? choice.delta : isObject(choice.message) ? choice.message : undefined;
    this.#lastReasoning = '';
    if (message) {
      this.#mergeMessage(message);
      this.#lastReasoning = reasoningOf(message) ?? '';
    }
    const text = choiceText(choice);
    if (text === undefined) return '';
    this.#sawContent = true;
    if (text !== '') {
      this.#parts.push(text);
      this.#hold(text.length);
    }
    return text;
  }

  /**
   * A chunk known to be the previous one with other text (sse/repeat-chunks.ts): the same as
   * add() of it, without parsing it.
   */
  addText(text: string): string {
    this.#lastReasoning = '';
    this.#sawChoice = true;
    this.#sawContent = true;
    if (text !== '') {
      this.#parts.push(text);
      this.#hold(text.length);
    }
    return text;
  }

  /**
   * A choice after the first: a whole one kept as sent, a streamed one's deltas merged into its
   * message (text joined, tool calls by index), its finish reason the latest.
   */
  #addLater(choice: JsonObject): void {
    const index = choice.index as number;
    const { delta, ...rest } = choice;
    if (!isObject(delta)) {
      const kept = structuredClone(choice);
      this.#hold(JSON.stringify(kept).length);
      this.#later.set(index, kept);
      return;
    }
    let target = this.#later.get(index);
    if (target === undefined) {
      target = { index, message: { role: 'assistant', content: '' }, finish_reason: null };
      this.#later.set(index, target);
    }
    // The role comes once, in the first delta: set, not joined.
    const { role: _role, ...pieces } = delta;
    this.#hold(mergeDelta(target.message as JsonObject, pieces));
    for (const [key, value] of Object.entries(rest)) if (key !== 'index') keepLatest(target, key, structuredClone(value));
  }

  #mergeMessage(message: JsonObject): void {
    for (const key in message) {
      if (!OWN_MESSAGE.has(key)) {
        this.#hold(mergeDelta(this.#messageExtra, { [key]: message[key] }));
      }
    }
  }

  /** Memory for the reply is bounded (limits.ts): a reply that never stops is a broken one. */
  #hold(characters: number): void {
    this.#held += characters;
    if (this.#held > MAX_CHAT_ANSWER_BYTES) {
      throw new MalformedResponseError(`the reply grew past ${describeBytes(MAX_CHAT_ANSWER_BYTES)}, far beyond any real one; stopped reading`);
    }
  }

  /** The reasoning text of the latest chunk given to add(), '' when it had none. */
  get lastReasoning(): string {
    return this.#lastReasoning;
  }

  /** All the reasoning text so far. */
  get reasoning(): string {
    return reasoningOf(this.#messageExtra) ?? '';
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

  get sawContent(): boolean {
    return this.#sawContent;
  }

  /** Fields of the message other than role and content (`refusal`, `tool_calls`...), as assembled. */
  get messageExtra(): Readonly<JsonObject> {
    return this.#messageExtra;
  }

  /** The text so far. */
  get text(): string {
    // Kept joined: the reply is asked for more than once at the end (the checks, the completion),
    // and joining 20,000 parts costs a few milliseconds each time.
    if (this.#parts.length > 1) this.#parts = [this.#parts.join('')];
    return this.#parts[0] ?? '';
  }

  /** The 2.2 object, from what arrived (also for a stream cut short: finish_reason stays null). */
  completion(): ChatCompletion {
    const completion: ChatCompletion = {
      id: this.#id ?? 'chatcmpl-unknown',
      object: 'chat.completion',
      created: this.#created ?? Math.floor(Date.now() / 1000),
      model: this.#model ?? this.requestedModel,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: this.text, ...copied(this.#messageExtra) },
          ...copied(this.#choiceExtra),
          finish_reason: this.#finishReason,
        },
        // As the service sent them: only --json reads past the first choice.
        ...[...this.#later.keys()].sort((a, b) => a - b).map((index) => structuredClone(this.#later.get(index)!) as ChatCompletion['choices'][number]),
      ],
    };
    // The counts svc read, over the service's own usage object (its details kept).
    if (this.#usage) completion.usage = { ...this.#rawUsage, ...this.#usage };
    return Object.assign(completion, copied(this.#extra));
  }
}
