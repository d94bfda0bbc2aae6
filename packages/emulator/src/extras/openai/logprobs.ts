/**
 * `logprobs` and `top_logprobs` (0 to 20): each token of the reply with a log probability, and
 * that many alternatives, in OpenAI's shape. The numbers are made up but fixed for a token at a
 * place, so a client's handling of them can be tested: the chosen token is always the likeliest.
 */
import { invalidParam } from '../../core/errors.js';
import { describe, type JsonObject } from '../../core/validate.js';
import type { LogprobOf } from '../../core/chat/completion.js';

export interface LogprobsRequest {
  enabled: boolean;
  top: number;
}

export function parseLogprobs(body: JsonObject): LogprobsRequest {
  const enabled = body.logprobs;
  if (enabled !== undefined && enabled !== null && typeof enabled !== 'boolean') throw invalidParam('logprobs', `logprobs must be a boolean; got ${describe(enabled)}`, 'invalid_type');
  const top = body.top_logprobs;
  if (top === undefined || top === null) return { enabled: enabled === true, top: 0 };
  if (typeof top !== 'number' || !Number.isInteger(top) || top < 0 || top > 20) throw invalidParam('top_logprobs', `top_logprobs must be an integer from 0 to 20; got ${describe(top)}`, 'invalid_value');
  if (enabled !== true) throw invalidParam('top_logprobs', 'top_logprobs needs logprobs: true', 'invalid_value');
  return { enabled: true, top };
}

/** A number in (0, 1] fixed for `text` (FNV-1a). */
function fraction(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return (hash % 1000) / 1000 + 0.001;
}

const entry = (token: string, logprob: number) => ({ token, logprob: Math.round(logprob * 1e4) / 1e4, bytes: [...Buffer.from(token)] });

/** The logprobs entry of each token of the answer, when they were asked for (core/chat/completion.ts). */
export function logprobsOf(request: LogprobsRequest): LogprobOf | undefined {
  return request.enabled ? (token, position) => tokenLogprob(token, position, request.top) : undefined;
}

/** The logprobs of one token at `position`, with `top` alternatives (the token itself first). */
function tokenLogprob(token: string, position: number, top: number): object {
  const chosen = -fraction(`${position}:${token}`) * 0.5;
  const variants = [token, token.toUpperCase(), token.trim(), ` ${token.trim()}`, token.toLowerCase(), `${token}.`, `${token},`];
  const alternatives: Array<ReturnType<typeof entry>> = [];
  for (const variant of [...new Set(variants)]) if (alternatives.length < top) alternatives.push(entry(variant, chosen - alternatives.length * (0.7 + fraction(variant))));
  while (alternatives.length < top) alternatives.push(entry(`${token}${alternatives.length}`, chosen - alternatives.length * 1.3));
  return { ...entry(token, chosen), top_logprobs: alternatives };
}
