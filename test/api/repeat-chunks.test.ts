/**
 * The stream's fast path (src/api/sse/repeat-chunks.ts): a chunk that is the last text-only chunk
 * with other text is read without JSON.parse, and anything else is refused so that it is parsed
 * in full. Whatever it accepts must equal what JSON.parse would give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../src/api/sse/event-parser.js';
import { RepeatChunks } from '../../src/api/sse/repeat-chunks.js';

const chunk = (content: unknown, extra: Record<string, unknown> = {}, choiceExtra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 5, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null, ...choiceExtra }], ...extra });

function learned(from = chunk('first')): RepeatChunks {
  const repeats = new RepeatChunks();
  repeats.remember(from, JSON.parse(from));
  return repeats;
}

describe('RepeatChunks', () => {
  it('reads the text of the same chunk with other text, escapes included', () => {
    const repeats = learned();
    expect(repeats.text(chunk('second'))).toBe('second');
    expect(repeats.text(chunk('a "quoted" \\ line\nnext\t✓ 🎉'))).toBe('a "quoted" \\ line\nnext\t✓ 🎉');
    expect(repeats.text(chunk(''))).toBe('');
  });

  it('equals JSON.parse for any text (property)', () => {
    const repeats = learned();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const data = chunk(text);
        expect(repeats.text(data)).toBe((JSON.parse(data) as { choices: Array<{ delta: { content: string } }> }).choices[0]!.delta.content);
      }),
    );
  });

  it.each([
    ['a finish reason', chunk('x').replace('"finish_reason":null', '"finish_reason":"stop"')],
    ['another id', chunk('x').replace('chatcmpl-1', 'chatcmpl-2')],
    ['usage', chunk('x', { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })],
    ['a second field in the delta', JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 5, model: 'm', choices: [{ index: 0, delta: { content: 'x', reasoning_content: 'y' }, finish_reason: null }] })],
    ['two strings where one was', chunk('x').replace('"content":"x"', '"content":"x","other":"y"')],
    ['a number for content', chunk('x').replace('"content":"x"', '"content":12')],
  ])('refuses a chunk with %s (it is parsed in full)', (_what, data) => {
    expect(learned().text(data)).toBeUndefined();
  });

  it.each([
    ['a finish reason', chunk('x').replace('"finish_reason":null', '"finish_reason":"stop"')],
    ['usage', chunk('x', { usage: { prompt_tokens: 1 } })],
    ['logprobs', chunk('x', {}, { logprobs: { content: [] } })],
    ['a role', JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })],
    ['two choices', JSON.stringify({ choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }, { index: 1, delta: { content: 'b' }, finish_reason: null }] })],
    // The marker would find the other object's key (the delta's has a space before its colon).
    ['another "content" key before the delta\'s', JSON.stringify({ x: { content: 'D1' }, choices: [{ index: 0, delta: { content: 'R' }, finish_reason: null }] }).replace('"content":"R"', '"content" :"R"')],
    // The data of an event of two data lines, joined by a line end.
    ['its data on two lines', chunk('x').replace('"object":', '\n"object":')],
  ])('learns nothing from a chunk with %s', (_what, data) => {
    const repeats = learned(data);
    expect(repeats.text(data)).toBeUndefined();
  });

  it('a run too long for the regular expression is left to the usual reading, not thrown', () => {
    // Megabytes in one read exhaust the expression's stack (no network read is near that).
    const repeats = learned();
    const long = 'x'.repeat(9_000_000);
    const text = `data: ${chunk(long)}\n\n`;
    const into: Array<string | SseEvent> = [];
    const after = repeats.take(text, 0, into);
    if (after === 0) expect(into).toEqual([]);
    else expect([after, into]).toEqual([text.length, [long]]);
  });

  it('forgets the shape when a chunk of another kind is parsed', () => {
    const repeats = learned();
    const last = chunk('x').replace('"finish_reason":null', '"finish_reason":"stop"');
    repeats.remember(last, JSON.parse(last));
    expect(repeats.text(chunk('again'))).toBeUndefined();
  });
});
