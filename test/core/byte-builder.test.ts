/** core/byte-builder.ts: bytes gathered in one growing buffer, as UTF-8, with where each piece starts. */
import { describe, expect, it } from 'vitest';
import { ByteBuilder } from '../../src/core/byte-builder.js';

describe('ByteBuilder', () => {
  it('gathers text as UTF-8 across growths, and says where each piece starts', () => {
    const builder = new ByteBuilder(4);
    const starts = ['héllo\n', '—', '𝄞 clef\n', 'x'.repeat(100)].map((text) => builder.append(text));
    expect(starts).toEqual([0, 7, 10, 20]);
    expect(builder.length).toBe(120);
    expect(builder.view().toString('utf8')).toBe(`héllo\n—𝄞 clef\n${'x'.repeat(100)}`);
    expect(builder.view(7, 10).toString('utf8')).toBe('—');
  });

  it('finds a byte only among what was gathered, not in the spare room after it', () => {
    const builder = new ByteBuilder(64);
    builder.append('a\nb');
    expect(builder.indexOf(0x0a, 0)).toBe(1);
    expect(builder.indexOf(0x0a, 2)).toBe(-1);
    // Room left over from a larger piece earlier must not be found either.
    const other = new ByteBuilder(8);
    other.append('\n'.repeat(8));
    const copy = new ByteBuilder(4);
    copy.appendBytes(other.view(), 0, 2);
    copy.append('zz');
    expect(copy.view().toString()).toBe('\n\nzz');
    expect(copy.indexOf(0x0a, 2)).toBe(-1);
  });
});
