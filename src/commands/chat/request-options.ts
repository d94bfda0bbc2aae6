/**
 * `svc chat` flags → the optional fields of the request body (service-api.md 4.1), checked
 * before anything is sent. Pure, so a table test covers every bound.
 */
import type { ChatRequest } from '../../api/chat-types.js';
import { UsageError } from '../../errors.js';
import { parseIntegerInRange, parseNumberInRange } from '../../parse-values.js';

/** The raw strings commander collected. */
export interface RawRequestOptions {
  maxTokens?: string | undefined;
  temperature?: string | undefined;
  topP?: string | undefined;
  stop?: string[] | undefined;
  presencePenalty?: string | undefined;
  frequencyPenalty?: string | undefined;
  user?: string | undefined;
}

/**
 * OpenAI's limit on stop sequences, which the service and the emulator (src/emulator/chat/request.ts,
 * kept apart on purpose so it can catch the client's mistakes) enforce too: more is a 400.
 */
export const MAX_STOP_SEQUENCES = 4;

export type RequestFields = Pick<ChatRequest, 'max_tokens' | 'temperature' | 'top_p' | 'stop' | 'presence_penalty' | 'frequency_penalty' | 'user'>;

/** Validate and convert; fields not given are left out so the service's defaults apply. */
export function parseRequestOptions(raw: RawRequestOptions): RequestFields {
  const fields: RequestFields = {};
  if (raw.maxTokens !== undefined) fields.max_tokens = parseIntegerInRange(raw.maxTokens, '--max-tokens', 1);
  if (raw.temperature !== undefined) fields.temperature = parseNumberInRange(raw.temperature, '--temperature', 0, 2);
  if (raw.topP !== undefined) fields.top_p = parseNumberInRange(raw.topP, '--top-p', 0, 1);
  if (raw.presencePenalty !== undefined) fields.presence_penalty = parseNumberInRange(raw.presencePenalty, '--presence-penalty', -2, 2);
  if (raw.frequencyPenalty !== undefined) fields.frequency_penalty = parseNumberInRange(raw.frequencyPenalty, '--frequency-penalty', -2, 2);
  if (raw.stop !== undefined && raw.stop.length > 0) {
    if (raw.stop.some((text) => text === '')) throw new UsageError('--stop must not be empty');
    if (raw.stop.length > MAX_STOP_SEQUENCES) {
      throw new UsageError(`--stop was given ${raw.stop.length} times; the service accepts at most ${MAX_STOP_SEQUENCES} stop sequences`);
    }
    // cli.md: one --stop gives a string, several give an array.
    fields.stop = raw.stop.length === 1 ? raw.stop[0] : [...raw.stop];
  }
  if (raw.user !== undefined) {
    if (raw.user.trim() === '') throw new UsageError('--user must not be empty');
    fields.user = raw.user;
  }
  return fields;
}
