/**
 * The optional fields of a chat request body (docs/service-api.md, "Chat: the request"), checked and converted before
 * anything is sent. Pure, so a table test covers every bound. The values may come as flags typed
 * by a person (`--temperature 0.7`) or as JSON values (a batch line's `body`): the rules are the
 * same, and every message names the value where it came from (FieldNaming).
 */
import type { ChatRequest } from '../api/chat-types.js';
import { UsageError } from '../core/errors.js';
import { parseIntegerInRange, parseNumberInRange } from '../core/parse-values.js';

export type RequestFields = Pick<ChatRequest, 'max_tokens' | 'temperature' | 'top_p' | 'stop' | 'presence_penalty' | 'frequency_penalty' | 'user'>;
export type RequestFieldName = keyof RequestFields;

/** The fields as given: text from flags, numbers (or text) from JSON; undefined when not given. */
export interface RawRequestFields {
  max_tokens?: string | number | undefined;
  temperature?: string | number | undefined;
  top_p?: string | number | undefined;
  presence_penalty?: string | number | undefined;
  frequency_penalty?: string | number | undefined;
  /** One string (JSON), or the values of a repeated flag in order. */
  stop?: string | readonly string[] | undefined;
  user?: string | undefined;
}

/** The request-field flags as commander collected them (commands/setting-flags.ts addRequestFieldOptions). */
export interface RequestFieldFlags {
  maxTokens?: string | undefined;
  temperature?: string | undefined;
  topP?: string | undefined;
  stop?: string[] | undefined;
  presencePenalty?: string | undefined;
  frequencyPenalty?: string | undefined;
  user?: string | undefined;
}

/** The flags keyed by the body fields they set. */
export function rawFieldsOfFlags(flags: RequestFieldFlags): RawRequestFields {
  return {
    max_tokens: flags.maxTokens,
    temperature: flags.temperature,
    top_p: flags.topP,
    stop: flags.stop,
    presence_penalty: flags.presencePenalty,
    frequency_penalty: flags.frequencyPenalty,
    user: flags.user,
  };
}

/** How the messages name a field and a list of values, so a mistake is found where it was made. */
export interface FieldNaming {
  /** "--max-tokens" for a flag, "body.max_tokens" for a batch line's field. */
  name(field: RequestFieldName): string;
  /** A list of `count` values, after the name: "was given 5 times" for a repeated flag. */
  listOf(count: number): string;
}

const FLAGS: Record<RequestFieldName, string> = {
  max_tokens: '--max-tokens',
  temperature: '--temperature',
  top_p: '--top-p',
  stop: '--stop',
  presence_penalty: '--presence-penalty',
  frequency_penalty: '--frequency-penalty',
  user: '--user',
};

/** `svc chat`'s flags. */
export const FLAG_NAMING: FieldNaming = {
  name: (field) => FLAGS[field],
  listOf: (count) => `was given ${count} times`,
};

/**
 * OpenAI's limit on stop sequences, which the service and the emulator (its own package,
 * packages/emulator, kept apart on purpose so it can catch the client's mistakes) enforce too:
 * more is a 400.
 */
export const MAX_STOP_SEQUENCES = 4;

/** Validate and convert; fields not given are left out so the service's defaults apply. */
export function parseRequestFields(raw: RawRequestFields, naming: FieldNaming = FLAG_NAMING): RequestFields {
  const { name } = naming;
  const number = (value: string | number, field: RequestFieldName, min: number, max: number): number => parseNumberInRange(String(value), name(field), min, max);
  const fields: RequestFields = {};
  if (raw.max_tokens !== undefined) fields.max_tokens = parseIntegerInRange(String(raw.max_tokens), name('max_tokens'), 1);
  if (raw.temperature !== undefined) fields.temperature = number(raw.temperature, 'temperature', 0, 2);
  if (raw.top_p !== undefined) fields.top_p = number(raw.top_p, 'top_p', 0, 1);
  if (raw.presence_penalty !== undefined) fields.presence_penalty = number(raw.presence_penalty, 'presence_penalty', -2, 2);
  if (raw.frequency_penalty !== undefined) fields.frequency_penalty = number(raw.frequency_penalty, 'frequency_penalty', -2, 2);
  const stop = typeof raw.stop === 'string' ? [raw.stop] : raw.stop;
  if (stop !== undefined && stop.length > 0) {
    if (stop.some((text) => text === '')) throw new UsageError(`${name('stop')} must not be empty`);
    if (stop.length > MAX_STOP_SEQUENCES) {
      throw new UsageError(`${name('stop')} ${naming.listOf(stop.length)}; the service accepts at most ${MAX_STOP_SEQUENCES} stop sequences`);
    }
    // One --stop gives a string, several give an array.
    fields.stop = stop.length === 1 ? stop[0] : [...stop];
  }
  if (raw.user !== undefined) {
    if (raw.user.trim() === '') throw new UsageError(`${name('user')} must not be empty`);
    fields.user = raw.user;
  }
  return fields;
}
