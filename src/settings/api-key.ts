/**
 * The API key: from SVC_API_KEY, else the stored one. Never printed in full (see maskKey).
 */
import { MissingKeyError } from '../errors.js';
import type { JsonStore } from './store.js';

export const API_KEY_ENV = 'SVC_API_KEY';
const STORED_KEY = 'apiKey';

export interface ResolvedKey {
  key: string;
  source: 'env' | 'stored';
}

/** The key from SVC_API_KEY; an empty one counts as unset. */
export function envApiKey(env: Record<string, string | undefined>): string | undefined {
  return env[API_KEY_ENV]?.trim() || undefined;
}

/** Where the key comes from: SVC_API_KEY, else the stored key. */
export function resolveApiKey(env: Record<string, string | undefined>, credentials: JsonStore | undefined): ResolvedKey | undefined {
  const fromEnv = envApiKey(env);
  if (fromEnv) return { key: fromEnv, source: 'env' };
  const stored = credentials?.get(STORED_KEY);
  return typeof stored === 'string' && stored !== '' ? { key: stored, source: 'stored' } : undefined;
}

export async function storeApiKey(credentials: JsonStore, key: string): Promise<void> {
  await credentials.set(STORED_KEY, key);
}

export async function removeApiKey(credentials: JsonStore): Promise<boolean> {
  const had = credentials.get(STORED_KEY) !== undefined;
  await credentials.delete(STORED_KEY);
  return had;
}

/** No key from anywhere: exit 3, with where one would come from. */
export function missingKeyError(): MissingKeyError {
  return new MissingKeyError('no API key is set', { hint: `run \`svc auth login\`, or set ${API_KEY_ENV}` });
}

/**
 * A form of the key safe to show: enough to tell two keys apart, never enough to use.
 * Short keys show nothing of themselves at all.
 */
export function maskKey(key: string): string {
  if (key.length < 16) return `${'*'.repeat(8)} (${key.length} characters)`;
  return `${key.slice(0, 3)}${'*'.repeat(8)}${key.slice(-4)}`;
}

/** What a key may look like: printable ASCII without spaces (it goes into an HTTP header). */
export function checkKeyShape(key: string): string | undefined {
  if (key === '') return 'the key is empty';
  if (!/^[\x21-\x7e]+$/.test(key)) return 'the key may only contain printable characters without spaces';
  return undefined;
}
