import { describe, expect, it } from 'vitest';
import { parseRequestFields } from '../../src/chat/request-fields.js';
import { UsageError } from '../../src/core/errors.js';

describe('parseRequestFields', () => {
  it('maps every flag to its body field with the right JSON type', () => {
    expect(
      parseRequestFields({
        max_tokens: '64',
        temperature: '0.2',
        top_p: '0.9',
        stop: ['END'],
        presence_penalty: '-1.5',
        frequency_penalty: '2',
        user: 'alice',
      }),
    ).toEqual({ max_tokens: 64, temperature: 0.2, top_p: 0.9, stop: 'END', presence_penalty: -1.5, frequency_penalty: 2, user: 'alice' });
  });

  it('one --stop is a string, several are an array', () => {
    expect(parseRequestFields({ stop: ['a'] }).stop).toBe('a');
    expect(parseRequestFields({ stop: ['a', 'b'] }).stop).toEqual(['a', 'b']);
  });

  it('leaves out what was not given', () => {
    expect(parseRequestFields({})).toEqual({});
  });

  it.each([
    [{ max_tokens: '0' }, '--max-tokens'],
    [{ max_tokens: '1.5' }, '--max-tokens'],
    [{ temperature: '2.01' }, '--temperature'],
    [{ temperature: '-0.1' }, '--temperature'],
    [{ top_p: '1.1' }, '--top-p'],
    [{ presence_penalty: '-2.5' }, '--presence-penalty'],
    [{ frequency_penalty: 'high' }, '--frequency-penalty'],
    [{ stop: [''] }, '--stop'],
    [{ user: ' ' }, '--user'],
  ])('%j is a usage error naming %s', (raw, flag) => {
    expect(() => parseRequestFields(raw)).toThrow(UsageError);
    expect(() => parseRequestFields(raw)).toThrow(flag);
  });
});
