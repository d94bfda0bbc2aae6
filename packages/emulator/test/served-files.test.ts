/** Image links of the emulator (response_format url) expire, and only so many are kept. */
import { describe, expect, it } from 'vitest';
import { ServedImages, URL_LIFETIME_MS } from '../src/extras/openai/served-files.js';

const idOf = (path: string): string => /([0-9a-f]{24})\./.exec(path)![1]!;

describe('ServedImages', () => {
  it('serves an image until its link expires', () => {
    const images = new ServedImages();
    const path = images.add(Buffer.from('png'), 'png', 1_000);
    expect(path).toMatch(/^\/v1\/files\/images\/[0-9a-f]{24}\.png$/);
    expect(images.get(idOf(path), 1_000 + URL_LIFETIME_MS - 1)?.bytes.toString()).toBe('png');
    expect(images.get(idOf(path), 1_000 + URL_LIFETIME_MS)).toBeUndefined();
  });

  it('keeps at most 32: the oldest link goes first', () => {
    const images = new ServedImages();
    const paths = Array.from({ length: 33 }, (_, n) => images.add(Buffer.from(String(n)), 'jpeg', 0));
    expect(paths[0]).toMatch(/\.jpg$/);
    expect(images.get(idOf(paths[0]!), 0)).toBeUndefined();
    expect(images.get(idOf(paths[32]!), 0)?.bytes.toString()).toBe('32');
  });
});
