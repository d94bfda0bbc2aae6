/**
 * LineSplitter: the same lines whatever the pieces the bytes come in, a line over the bound
 * reported (not held) wherever it is cut, and a last line without a newline kept.
 */
import { describe, expect, it } from 'vitest';
import { LineSplitter, type SplitLine } from '../../src/storage/line-splitter.js';

function split(pieces: string[], maxBytes: number): Array<{ number: number; text?: string; tooLong?: true }> {
  const splitter = new LineSplitter(maxBytes);
  const shown = (line: SplitLine) => ('tooLong' in line ? { number: line.number, tooLong: true as const } : { number: line.number, text: line.bytes.toString('utf8') });
  const lines = pieces.flatMap((piece) => [...splitter.push(Buffer.from(piece))].map(shown));
  const last = splitter.end();
  return last ? [...lines, shown(last)] : lines;
}

/** Every way of cutting `text` in two, and one byte at a time. */
function cuttings(text: string): string[][] {
  const bytes = Buffer.from(text);
  const twos = Array.from({ length: bytes.length + 1 }, (_, at) => [bytes.subarray(0, at).toString('latin1'), bytes.subarray(at).toString('latin1')]);
  return [[text], ...twos, [...bytes].map((byte) => String.fromCharCode(byte))];
}

describe('LineSplitter', () => {
  const text = 'one\n\nthree is long\nfour';
  const expected = [
    { number: 1, text: 'one' },
    { number: 2, text: '' },
    { number: 3, tooLong: true },
    { number: 4, text: 'four' },
  ];

  it.each(cuttings(text).map((pieces) => [JSON.stringify(pieces).slice(0, 60), pieces]))('gives the same lines cut as %s', (_, pieces) => {
    const latin1 = (pieces as string[]).map((piece) => Buffer.from(piece, 'latin1').toString('utf8'));
    expect(split(latin1, 8)).toEqual(expected);
  });

  it('a final newline leaves no empty last line; nothing in, nothing out', () => {
    expect(split(['a\n'], 8)).toEqual([{ number: 1, text: 'a' }]);
    expect(split([], 8)).toEqual([]);
  });

  it('a line wholly inside one piece is a view of it; one across pieces is a copy the next read cannot change', () => {
    const splitter = new LineSplitter(64);
    const buffer = Buffer.from('abc\nde');
    const [first] = [...splitter.push(buffer)];
    expect('bytes' in first! && first.bytes.buffer === buffer.buffer).toBe(true);
    buffer.fill(0x7a); // the caller reuses its buffer for the next read
    const [second] = [...splitter.push(Buffer.from('f\n'))];
    expect('bytes' in second! && second.bytes.toString()).toBe('def');
  });
});
