/**
 * Which saved conversations a listing or a search keeps: changed since a time (`--since 2d`,
 * `--since 2026-11-01`), that used a model (`--model ID`), and how many at most (`-n N`, the
 * newest first).
 */
import { InvalidValueError, parseIntegerInRange, parseModelId } from '../core/parse-values.js';

export interface ConversationFilter {
  /** Changed at or after this time. */
  since?: Date | undefined;
  /** A turn was answered by this model. */
  model?: string | undefined;
  /** At most this many, the most recently changed first. */
  limit?: number | undefined;
}

/** What the flags say, as typed. */
export interface FilterFlags {
  n?: string | undefined;
  since?: string | undefined;
  model?: string | undefined;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const DURATION = /^(\d+)\s*([mhdw])$/;
/** 2026-11-01, or a whole ISO time: 2026-11-01T09:30, 2026-11-01T09:30:00Z, with an offset. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * `--since`: a duration back from `now` (30m, 12h, 2d, 1w) or an ISO date (midnight UTC, as the
 * listings show times in UTC) or time (UTC unless it names an offset).
 */
export function parseSince(text: string, source: string, now = new Date()): Date {
  const trimmed = text.trim().toLowerCase();
  const duration = DURATION.exec(trimmed);
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNIT_MS[duration[2]!]!);
  if (ISO_DATE.test(text.trim())) {
    const iso = text.trim();
    // A date and time without a zone is read as UTC too (Date would read it as local time).
    const withZone = iso.length > 10 && !/(Z|[+-]\d{2}:\d{2})$/.test(iso) ? `${iso}Z` : iso;
    const time = Date.parse(withZone);
    if (Number.isFinite(time)) return new Date(time);
  }
  throw new InvalidValueError(source, 'must be a duration (30m, 12h, 2d, 1w) or a date (2026-11-01)', text);
}

/** The flags, checked: a bad value is a usage error (exit 2) naming the flag and the value. */
export function filterFrom(flags: FilterFlags, now = new Date()): ConversationFilter {
  return {
    limit: flags.n === undefined ? undefined : parseIntegerInRange(flags.n, '-n', 1),
    since: flags.since === undefined ? undefined : parseSince(flags.since, '--since', now),
    model: flags.model === undefined ? undefined : parseModelId(flags.model, '--model'),
  };
}

/**
 * A quick test on a file's raw text that is true whenever the conversation could have used the
 * model: JSON.stringify writes the id the same way every time; a file with the escapes it never
 * writes (`\u`, and `\/` from other tools) is always read.
 */
export function modelMayBeIn(model: string): (raw: string) => boolean {
  const quoted = JSON.stringify(model);
  return (raw) => raw.includes(quoted) || hasOptionalEscapes(raw);
}

/** True when `raw` JSON holds an escape JSON.stringify never writes, so text in it may not appear as typed. */
export function hasOptionalEscapes(raw: string): boolean {
  return raw.includes('\\u') || raw.includes('\\/');
}

/** Both quick tests, or either alone, or none. */
export function bothMayHold(a: ((raw: string) => boolean) | undefined, b: ((raw: string) => boolean) | undefined): ((raw: string) => boolean) | undefined {
  if (!a) return b;
  if (!b) return a;
  return (raw) => a(raw) && b(raw);
}

/** The quick test on raw text that `filter` allows, if any. */
export function rawFilterOf(filter: ConversationFilter): ((raw: string) => boolean) | undefined {
  return filter.model === undefined ? undefined : modelMayBeIn(filter.model);
}

/** True when a conversation passes --since and --model (-n is the caller's: it counts what passes). */
export function passes(summary: { updated: string; models: readonly string[] }, filter: ConversationFilter): boolean {
  if (filter.since && !(Date.parse(summary.updated) >= filter.since.getTime())) return false;
  if (filter.model !== undefined && !summary.models.includes(filter.model)) return false;
  return true;
}

/** The filter in words, for "nothing found" notes: ` changed since 2026-11-01 09:30 UTC, that used svc-mini`. */
export function describeFilter(filter: ConversationFilter): string {
  const parts: string[] = [];
  if (filter.since) parts.push(`changed since ${filter.since.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  if (filter.model !== undefined) parts.push(`that used ${filter.model}`);
  return parts.length > 0 ? ` ${parts.join(', ')}` : '';
}
