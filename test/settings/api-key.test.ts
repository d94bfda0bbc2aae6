import { describe, expect, it } from 'vitest';
import { checkKeyShape, maskKey, resolveApiKey } from '../../src/settings/api-key.js';
import type { JsonStore } from '../../src/settings/store.js';

const store = (apiKey?: string): JsonStore => ({
  path: '/x/credentials.json',
  get: (key) => (key === 'apiKey' ? apiKey : undefined),
  set: async () => {},
  delete: async () => {},
  all: () => ({}),
});

describe('maskKey', () => {
  it('shows the first 3 and last 4 of a long key only', () => {
    const key = 'sk-abcdefghijklmnopqrstuvwxyz1234';
    const masked = maskKey(key);
    expect(masked).toBe('sk-********1234');
    expect(masked).not.toContain('abcdefgh');
  });
  it('shows nothing of a short key', () => {
    expect(maskKey('short-key-1')).toBe('******** (11 characters)');
    expect(maskKey('k')).toBe('******** (1 character)');
  });
});

describe('resolveApiKey', () => {
  it('prefers SVC_API_KEY', () => expect(resolveApiKey({ SVC_API_KEY: 'env-key' }, store('stored-key'))).toEqual({ key: 'env-key', source: 'env' }));
  it('falls back to the stored key', () => expect(resolveApiKey({ SVC_API_KEY: ' ' }, store('stored-key'))).toEqual({ key: 'stored-key', source: 'stored' }));
  it('is undefined when there is none', () => expect(resolveApiKey({}, store())).toBeUndefined());
});

describe('checkKeyShape', () => {
  it.each([['', 'empty'], ['has space', 'printable'], ['tab\tkey', 'printable'], ['ünï', 'printable']])('%j is refused', (key, words) => {
    expect(checkKeyShape(key)).toContain(words);
  });
  it('accepts a normal key', () => expect(checkKeyShape('sk-proj_ABC-123.x')).toBeUndefined());
});
