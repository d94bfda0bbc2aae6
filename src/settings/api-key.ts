/**
 * The API key: from SVC_API_KEY, else the stored one. Never printed in full (see maskKey).
 */
import type { JsonStore } from './store.js';

export const API_KEY_ENV = 'SVC_API_KEY';
const STORED_KEY = 'apiKey';

export interface ResolvedKey {
  key: string;
  source: 'env' | 'stored';
}

/** Where the key comes from; an empty SVC_API_KEY counts as unset. */
export function resolveApiKey(env: Record<string, string | undefined>, credentials: JsonStore | undefined): ResolvedKey | undefined {
  const fromEnv = env[API_KEY_ENV]?.trim();
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
