/**
 * peekBody decodes only the start of an answer to find its head (a batch reads thousands of
 * answers): the head must still be found past a long run of leading whitespace, across pieces,
 * and the body handed back must be every byte, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { peekBody, readUpTo } from '../../src/api/answer-body.js';

async function* piecesOf(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield Buffer.from(piece);
}

describe('peekBody', () => {
  it('finds the head after more leading whitespace than it decodes at first', async () => {
    const text = `\uFEFF${' \n'.repeat(3000)}{"id":"chatcmpl-1","object":"chat.completion"}`;
    const { head, body } = await peekBody(piecesOf(text));
    expect(head.startsWith('{"id":"chatcmpl-1"')).toBe(true);
    expect((await readUpTo(body, 1 << 20)).text).toBe(text);
  });

  it('a multi-byte character cut by the first slice does not end the head early', async () => {
    // 1,022 spaces, then a four-byte character straddling byte 1,024.
    const text = `${' '.repeat(1022)}😀 data: more than sixteen characters`;
    const { head } = await peekBody(piecesOf(text));
    expect(head).toBe('😀 data: more than sixteen characters');
  });

  it('reads further pieces while the head is shorter than it needs, and an all-blank body is empty', async () => {
    const split = await peekBody(piecesOf('   ', 'da', 'ta: {"a":1}\n\n'));
    expect(split.head).toBe('data: {"a":1}\n\n');
    expect((await readUpTo(split.body, 100)).text).toBe('   data: {"a":1}\n\n');
    expect((await peekBody(piecesOf(' '.repeat(5000)))).head).toBe('');
  });
});
