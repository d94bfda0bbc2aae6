/**
 * Strict parsers for values typed by people: flags, environment variables, `svc config set`.
 * Each throws a UsageError naming where the value came from, so nothing is sent on a typo.
 */
import { UsageError } from './errors.js';

/**
 * A value that is not what `source` must be. The requirement is kept apart from the value, so a
 * value read from a settings file can be refused without quoting the file (see settings/resolve.ts).
 */
export class InvalidValueError extends UsageError {
  /** What the value must be, e.g. "must be a number from 0 to 2". */
  readonly requirement: string;
  constructor(source: string, requirement: string, text: string | undefined, hint?: string) {
    super(`${source} ${requirement}${text === undefined ? '' : `; got "${text}"`}`, { hint });
    this.requirement = requirement;
  }
}

// A plain decimal: optional sign, digits, optional fraction, optional exponent. Number() alone
// would also take '', ' ', '0x10', 'Infinity'.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A finite number within [min, max]. `source` names the flag or variable, e.g. "--temperature". */
export function parseNumberInRange(text: string, source: string, min: number, max: number): number {
  const trimmed = text.trim();
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new InvalidValueError(source, `must be a number from ${min} to ${max}`, text);
  }
  return value;
}

/** A whole number within [min, max] (max may be Infinity). */
export function parseIntegerInRange(text: string, source: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const trimmed = text.trim();
  const value = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `${min} or more` : `from ${min} to ${max}`;
    throw new InvalidValueError(source, `must be a whole number ${range}`, text);
  }
  return value;
}

/** An http(s) URL, normalised to have no trailing slash. Query and fragment make no sense here. */
export function parseBaseUrl(text: string, source: string): string {
  const notUrl = (): InvalidValueError => new InvalidValueError(source, 'must be an http:// or https:// URL', text);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw notUrl();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notUrl();
  if (url.search || url.hash) throw new InvalidValueError(source, 'must not carry a query or fragment', text);
  if (url.username || url.password) {
    // Never echoed: the text holds a credential.
    throw new InvalidValueError(source, 'must not carry credentials', undefined, 'store the key with `svc auth login`');
  }
  return url.href.replace(/\/+$/, '');
}

/** A model id: non-empty, no whitespace or control characters. */
export function parseModelId(text: string, source: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /[\s\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new InvalidValueError(source, 'must be a model id without spaces', text);
  }
  return trimmed;
}

/** One of `allowed` (case and surrounding spaces ignored), e.g. a --preview value. */
export function parseChoice<T extends string>(text: string, source: string, allowed: readonly T[]): T {
  const match = allowed.find((candidate) => candidate === text.trim().toLowerCase());
  if (!match) throw new InvalidValueError(source, `must be one of ${allowed.join(', ')}`, text);
  return match;
}

/** The words a switch takes, in any case: each turns it on or off. */
const SWITCH_WORDS: Readonly<Record<string, 'on' | 'off'>> = { on: 'on', off: 'off', true: 'on', false: 'off', yes: 'on', no: 'off', '1': 'on', '0': 'off' };

/** The accepted words, as a refusal lists them. */
const SWITCH_RULE = 'must be one of on, off, true, false, yes, no, 1, 0 (in any case)';

/**
 * A switch word (on/off, true/false, yes/no, 1/0, any case, spaces around ignored) as "on" or
 * "off"; undefined for anything else. For a variable that must never stop a command (SVC_PLAIN).
 */
export function switchWord(text: string): 'on' | 'off' | undefined {
  const word = text.trim().toLowerCase();
  return Object.hasOwn(SWITCH_WORDS, word) ? SWITCH_WORDS[word] : undefined;
}

/** A switch setting: one of the switch words, always given back as "on" or "off". */
export function parseOnOff(text: string, source: string): 'on' | 'off' {
  const value = switchWord(text);
  if (value === undefined) throw new InvalidValueError(source, SWITCH_RULE, text);
  return value;
}
