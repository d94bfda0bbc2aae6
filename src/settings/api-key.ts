/**
 * The API key: from SVC_API_KEY, else the stored one. Never printed in full (see maskKey), never
 * quoted in a message.
 */
import { MissingKeyError, UnusableKeyError } from '../core/errors.js';
import type { JsonStore, JsonStoreFile } from './store.js';

export const API_KEY_ENV = 'SVC_API_KEY';
const STORED_KEY = 'apiKey';

export interface ResolvedKey {
  key: string;
  source: 'env' | 'command' | 'stored';
  /** The keyCommand it came from, when it came from one. */
  command?: string;
}

/**
 * The key from SVC_API_KEY; an empty one counts as unset. Whitespace around it is dropped (as
 * `auth login` does): it cannot be part of a key, and `$(cat key.txt)` or a pasted line brings it.
 */
export function envApiKey(env: Record<string, string | undefined>): string | undefined {
  return env[API_KEY_ENV]?.trim() || undefined;
}

/**
 * Where the key comes from: SVC_API_KEY, else the stored key. A key that cannot go into an HTTP
 * header, or a stored one that is not text, is refused here (exit 3), before anything is sent,
 * with where it came from: undici would otherwise fail mid-request with words about headers.
 */
export function resolveApiKey(env: Record<string, string | undefined>, credentials: JsonStore | undefined): ResolvedKey | undefined {
  const fromEnv = envApiKey(env);
  if (fromEnv) {
    const problem = checkKeyShape(fromEnv);
    if (problem) throw new UnusableKeyError(`${API_KEY_ENV} cannot be used: ${problem}`, { hint: `set ${API_KEY_ENV} to the key alone` });
    return { key: fromEnv, source: 'env' };
  }
  const stored = credentials?.get(STORED_KEY);
  if (stored === undefined || stored === null || stored === '') return undefined;
  const where = `the stored key in ${credentials?.path ?? 'the credentials file'}`;
  const again = { hint: 'store it again with `svc auth login`' };
  if (typeof stored !== 'string') throw new UnusableKeyError(`${where} cannot be used: it is not text`, again);
  const key = stored.trim();
  const problem = checkKeyShape(key);
  if (problem) throw new UnusableKeyError(`${where} cannot be used: ${problem}`, again);
  return { key, source: 'stored' };
}

/** Whether the credentials hold a key at all (checked or not): for saying that SVC_API_KEY hides it. */
export function hasStoredKey(credentials: JsonStore): boolean {
  const stored = credentials.get(STORED_KEY);
  return stored !== undefined && stored !== null && stored !== '';
}

export async function storeApiKey(credentials: JsonStore, key: string): Promise<void> {
  await credentials.set(STORED_KEY, key);
}

/** Store the key in a fresh file, in place of one that cannot be read (see JsonStore.replace). */
export async function replaceApiKey(credentials: JsonStoreFile, key: string): Promise<void> {
  await credentials.replace(STORED_KEY, key);
}

export async function removeApiKey(credentials: JsonStore): Promise<boolean> {
  const had = credentials.get(STORED_KEY) !== undefined;
  await credentials.delete(STORED_KEY);
  return had;
}

/** No key from anywhere: exit 3, with where one would come from (for the profile in use). */
export function missingKeyError(profile = 'default'): MissingKeyError {
  const login = profile === 'default' ? 'svc auth login' : `svc auth login --profile ${profile}`;
  const where = profile === 'default' ? '' : ` for the profile "${profile}"`;
  return new MissingKeyError(`no API key is set${where}`, { hint: `run \`${login}\`, or set ${API_KEY_ENV}` });
}

/**
 * A form of the key safe to show: enough to tell two keys apart, never enough to use.
 * Short keys show nothing of themselves at all.
 */
export function maskKey(key: string): string {
  if (key.length < 16) return `${'*'.repeat(8)} (${key.length} character${key.length === 1 ? '' : 's'})`;
  return `${key.slice(0, 3)}${'*'.repeat(8)}${key.slice(-4)}`;
}

const KEY_RULE = 'an API key is printable ASCII without spaces, as it goes into an HTTP header';

/**
 * What is wrong with a key, in words that never quote it; undefined when it can be sent.
 * Keys are printable ASCII without spaces: the Authorization header carries nothing else.
 */
export function checkKeyShape(key: string): string | undefined {
  if (key === '') return 'the key is empty';
  if (/^[\x21-\x7e]+$/.test(key)) return undefined;
  if (/[\r\n]/.test(key)) return `the key contains a line break (${KEY_RULE})`;
  if (/[ \t]/.test(key)) return `the key contains a space or tab (${KEY_RULE})`;
  if (/[\x00-\x1f\x7f]/.test(key)) return `the key contains a control character (${KEY_RULE})`;
  return `the key contains a character outside printable ASCII (${KEY_RULE})`;
}
