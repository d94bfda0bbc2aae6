import { describe, expect, it } from 'vitest';
import { parseRequestOptions } from '../../src/commands/chat/request-options.js';
import { UsageError } from '../../src/errors.js';

describe('parseRequestOptions', () => {
  it('maps every flag to its body field with the right JSON type', () => {
    expect(
      parseRequestOptions({
        maxTokens: '64',
        temperature: '0.2',
        topP: '0.9',
        stop: ['END'],
        presencePenalty: '-1.5',
        frequencyPenalty: '2',
        user: 'alice',
      }),
    ).toEqual({ max_tokens: 64, temperature: 0.2, top_p: 0.9, stop: 'END', presence_penalty: -1.5, frequency_penalty: 2, user: 'alice' });
  });

  it('one --stop is a string, several are an array', () => {
    expect(parseRequestOptions({ stop: ['a'] }).stop).toBe('a');
    expect(parseRequestOptions({ stop: ['a', 'b'] }).stop).toEqual(['a', 'b']);
  });

  it('leaves out what was not given', () => {
    expect(parseRequestOptions({})).toEqual({});
  });

  it.each([
    [{ maxTokens: '0' }, '--max-tokens'],
    [{ maxTokens: '1.5' }, '--max-tokens'],
    [{ temperature: '2.01' }, '--temperature'],
    [{ temperature: '-0.1' }, '--temperature'],
    [{ topP: '1.1' }, '--top-p'],
    [{ presencePenalty: '-2.5' }, '--presence-penalty'],
    [{ frequencyPenalty: 'high' }, '--frequency-penalty'],
    [{ stop: [''] }, '--stop'],
    [{ user: ' ' }, '--user'],
  ])('%j is a usage error naming %s', (raw, flag) => {
    expect(() => parseRequestOptions(raw)).toThrow(UsageError);
    expect(() => parseRequestOptions(raw)).toThrow(flag);
  });
});
