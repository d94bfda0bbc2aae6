import { describe, expect, it } from 'vitest';
import { detectFormat, formatOfExtension, readDimensions } from '../../src/images/file-format.js';
import { jpeg, png, webp } from '../helpers/fake-images.js';

describe('image formats', () => {
  it.each([
    ['png', png(1344, 756), { width: 1344, height: 756 }],
    ['jpeg', jpeg(756, 1344), { width: 756, height: 1344 }],
    ['webp', webp('VP8 ', 1512, 648), { width: 1512, height: 648 }],
    ['webp', webp('VP8L', 1024, 1024), { width: 1024, height: 1024 }],
    ['webp', webp('VP8X', 1152, 864), { width: 1152, height: 864 }],
  ] as const)('%s: detected, and its size read from the header', (format, bytes, size) => {
    expect(detectFormat(bytes)).toBe(format);
    expect(readDimensions(bytes)).toEqual(size);
  });

  it('other bytes are no known format', () => {
    expect(detectFormat(Buffer.from('GIF89a....'))).toBeUndefined();
    expect(readDimensions(Buffer.from('<html>'))).toBeUndefined();
  });

  it.each([['.png', 'png'], ['.PNG', 'png'], ['.jpg', 'jpeg'], ['.jpeg', 'jpeg'], ['.webp', 'webp'], ['.gif', undefined]])('%s → %s', (ext, format) => {
    expect(formatOfExtension(ext)).toBe(format);
  });
});
