import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { parseBaseUrl, parseIntegerInRange, parseModelId, parseNumberInRange } from '../../src/core/parse-values.js';

describe('parseNumberInRange', () => {
  it.each([['0', 0], ['2', 2], ['0.7', 0.7], ['.5', 0.5], ['1e0', 1], [' 1 ', 1], ['-2', -2]])('%j → %d', (text, value) => {
    expect(parseNumberInRange(text, '--x', -2, 2)).toBe(value);
  });
  it.each(['', ' ', 'abc', '0x1', 'Infinity', 'NaN', '2.1', '-2.5', '1,5', '1..2'])('%j is rejected', (text) => {
    expect(() => parseNumberInRange(text, '--x', -2, 2)).toThrow(UsageError);
  });
  it('names the source and the range', () => {
    expect(() => parseNumberInRange('3', '--temperature', 0, 2)).toThrow('--temperature must be a number from 0 to 2; got "3"');
  });
});

describe('parseIntegerInRange', () => {
  it.each([['1', 1], ['4096', 4096], ['+5', 5]])('%j → %d', (text, value) => {
    expect(parseIntegerInRange(text, '--n', 1)).toBe(value);
  });
  it.each(['0', '-1', '1.5', '1e3', 'ten', '', '99999999999999999999'])('%j is rejected', (text) => {
    expect(() => parseIntegerInRange(text, '--n', 1)).toThrow(UsageError);
  });
});

describe('parseBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com/prefix/', 'https://api.example.com/prefix'],
  ])('%s → %s', (text, value) => {
    expect(parseBaseUrl(text, 'x')).toBe(value);
  });
  it.each(['api.example.com', 'ftp://example.com', 'https://example.com/?a=1', 'https://user:pw@example.com', ''])('%j is rejected', (text) => {
    expect(() => parseBaseUrl(text, 'x')).toThrow(UsageError);
  });
});

describe('parseModelId', () => {
  it('trims and keeps ids', () => expect(parseModelId(' svc-pro ', 'x')).toBe('svc-pro'));
  it.each(['', 'two words', 'tab\there'])('%j is rejected', (text) => expect(() => parseModelId(text, 'x')).toThrow(UsageError));
});
