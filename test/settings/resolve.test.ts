import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { resolveSetting } from '../../src/settings/resolve.js';

describe('settings precedence: flag > env > stored > default', () => {
  it.each([
    ['flag wins', { timeout: '5' }, { SVC_TIMEOUT: '6' }, { timeout: 7 }, 5, 'flag'],
    ['env over stored', {}, { SVC_TIMEOUT: '6' }, { timeout: 7 }, 6, 'env'],
    ['stored over default', {}, {}, { timeout: 7 }, 7, 'stored'],
    ['default last', {}, {}, {}, 120, 'default'],
    ['empty env counts as unset', {}, { SVC_TIMEOUT: '' }, { timeout: 7 }, 7, 'stored'],
  ] as const)('%s', (_name, flags, env, stored, value, source) => {
    expect(resolveSetting('timeout', { flags, env, stored })).toEqual({ value, source });
  });

  it('resolves every setting with its own variable', () => {
    const env = { SVC_BASE_URL: 'http://h:1/', SVC_MODEL: 'm1', SVC_IMAGE_MODEL: 'm2', SVC_MAX_RETRIES: '4' };
    const inputs = { flags: {}, env, stored: {} };
    expect(resolveSetting('baseUrl', inputs).value).toBe('http://h:1');
    expect(resolveSetting('model', inputs).value).toBe('m1');
    expect(resolveSetting('imageModel', inputs).value).toBe('m2');
    expect(resolveSetting('maxRetries', inputs).value).toBe(4);
  });

  it('has no default base URL', () => {
    expect(resolveSetting('baseUrl', { flags: {}, env: {}, stored: {} })).toEqual({ value: undefined, source: 'default' });
  });

  it('a bad value names where it came from', () => {
    expect(() => resolveSetting('timeout', { flags: { timeout: 'x' }, env: {}, stored: {} })).toThrow('--timeout');
    expect(() => resolveSetting('maxRetries', { flags: {}, env: { SVC_MAX_RETRIES: '-1' }, stored: {} })).toThrow('SVC_MAX_RETRIES');
    expect(() => resolveSetting('timeout', { flags: {}, env: {}, stored: { timeout: 'soon' } })).toThrow(UsageError);
  });
});
