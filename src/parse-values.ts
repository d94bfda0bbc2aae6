/**
 * Strict parsers for values typed by people: flags, environment variables, `svc config set`.
 * Each throws a UsageError naming where the value came from, so nothing is sent on a typo.
 */
import { UsageError } from './errors.js';

// A plain decimal: optional sign, digits, optional fraction, optional exponent. Number() alone
// would also take '', ' ', '0x10', 'Infinity'.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A finite number within [min, max]. `source` names the flag or variable, e.g. "--temperature". */
export function parseNumberInRange(text: string, source: string, min: number, max: number): number {
  const trimmed = text.trim();
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`${source} must be a number from ${min} to ${max}; got "${text}"`);
  }
  return value;
}

/** A whole number within [min, max] (max may be Infinity). */
export function parseIntegerInRange(text: string, source: string, min: number, max = Number.POSITIVE_INFINITY): number {
  const trimmed = text.trim();
  const value = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`${source} must be a whole number ${range}; got "${text}"`);
  }
  return value;
}

/** An http(s) URL, normalised to have no trailing slash. Query and fragment make no sense here. */
export function parseBaseUrl(text: string, source: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`${source} must be an http:// or https:// URL; got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source} must be an http:// or https:// URL; got "${text}"`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${source} must not carry a query or fragment; got "${text}"`);
  }
  if (url.username || url.password) {
    throw new UsageError(`${source} must not carry credentials; store the key with \`svc auth login\``);
  }
  return url.href.replace(/\/+$/, '');
}

/** A model id: non-empty, no whitespace or control characters. */
export function parseModelId(text: string, source: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /[\s\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new UsageError(`${source} must be a model id without spaces; got "${text}"`);
  }
  return trimmed;
}
