/**
 * An image attached to a message: real files of each format (PNG from svc's own writer, JPEG and
 * WebP from the jsquash encoders the emulator uses, GIF from omggif's writer), scaled to at most
 * 2,048 pixels on the long side and encoded again in their own format (GIF as PNG), or passed
 * through byte for byte; every refusal a UsageError naming the file (exit 2).
 */
import { shortDataUrl } from '../../src/commands/dry-run.js';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { GifReader, GifWriter } from 'omggif';
import { describe, expect, it } from 'vitest';
import { encodeJpeg, encodeWebp } from '@svc/emulator/images';
import {
  describeImage,
  DEFAULT_IMAGE_INPUT_MAX,
  fitWithin,
  imageDataUrl,
  imageInputPart,
  prepareImage,
} from '../../src/attachments/image-input.js';
import { imageFormatOf, isImageUrl, MAX_IMAGE_BYTES, type ImageInput } from '../../src/attachments/read.js';
import { ExitCode, UsageError } from '../../src/core/errors.js';
import { readDimensions } from '../../src/images/file-format.js';
import { decodeRows } from '../../src/images/decode.js';
import { toPixels, type Pixels } from '../../src/images/pixels.js';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';
import { jpegOrientation, orient } from '../../src/images/shrink.js';
import { jpeg as jpegHeader, png as pngHeader } from '../helpers/fake-images.js';

const RED = [220, 30, 30] as const;
const BLUE = [30, 30, 220] as const;

/** Left half red, right half blue, opaque: a picture whose halves must stay where they were. */
function halves(width: number, height: number, alpha = 255): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data.set([...(x < width / 2 ? RED : BLUE), alpha], (y * width + x) * 4);
  }
  return data;
}

function pngOf(rgba: Uint8Array, width: number, height: number, alpha = false): Buffer {
  return pngFile(width, height, alpha, deflateSync(subFilteredRows(rgba, width, height, alpha)));
}

/** A GIF of `frames` frames: a two-colour palette, the left half index 0 (red), the right 1 (blue). */
function gifOf(width: number, height: number, frames = 1): Buffer {
  const buffer = Buffer.alloc(width * height * frames + 4096);
  const writer = new GifWriter(buffer, width, height, { palette: [0xdc1e1e, 0x1e1edc], loop: frames > 1 ? 0 : undefined });
  const indices = Array.from({ length: width * height }, (_, i) => (i % width < width / 2 ? 0 : 1));
  for (let f = 0; f < frames; f += 1) writer.addFrame(0, 0, width, height, indices, { delay: 10 });
  return buffer.subarray(0, writer.end());
}

/** The pixels of a file svc made, by svc's decoders (or omggif's for a GIF). */
async function pixelsOf(bytes: Buffer): Promise<Pixels> {
  if (bytes.toString('latin1', 0, 3) === 'GIF') {
    const reader = new GifReader(bytes);
    const data = new Uint8Array(reader.width * reader.height * 4);
    reader.decodeAndBlitFrameRGBA(0, data);
    return { width: reader.width, height: reader.height, data };
  }
  return toPixels(await decodeRows(bytes, 100_000_000));
}

function pixelAt(pixels: Pixels, x: number, y: number): number[] {
  const i = (y * pixels.width + x) * 4;
  return [...pixels.data.subarray(i, i + 4)];
}

/** Within a lossy codec's reach of `colour`. */
function near(pixel: number[], colour: readonly number[]): boolean {
  return colour.every((channel, i) => Math.abs(pixel[i]! - channel) <= 24);
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function refusal(bytes: Uint8Array, name: string, option?: '-f' | '/file'): Promise<UsageError> {
  const error = await prepareImage(bytes, { name, option }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).exitCode).toBe(ExitCode.usage);
  return error as UsageError;
}

const MAKERS = {
  png: (w: number, h: number) => pngOf(halves(w, h), w, h),
  jpeg: (w: number, h: number) => encodeJpeg(halves(w, h), w, h),
  webp: (w: number, h: number) => encodeWebp(new Uint8ClampedArray(halves(w, h)), w, h),
  gif: (w: number, h: number) => gifOf(w, h),
} as const;

describe('prepareImage: a picture over the limit is scaled down in its own format', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpeg'],
    ['webp', 'image/webp', 'webp'],
    ['gif', 'image/png', 'png'],
  ] as const)('a 3000×1000 %s becomes 2048×683 (%s), its halves where they were', async (format, mime, sent) => {
    const file = await MAKERS[format](3000, 1000);
    const image = await prepareImage(file, { name: `wide.${format}` });
    expect(image).toMatchObject({ format: sent, mime, width: 2048, height: 683, scaledFrom: { width: 3000, height: 1000 } });
    expect(imageFormatOf(image.bytes)).toBe(sent);
    expect(image.sha256).toBe(sha256(image.bytes));
    const pixels = await pixelsOf(image.bytes);
    expect([pixels.width, pixels.height]).toEqual([2048, 683]);
    expect(near(pixelAt(pixels, 100, 340), RED)).toBe(true);
    expect(near(pixelAt(pixels, 1948, 340), BLUE)).toBe(true);
  });

  it('a 1000×3000 PNG (tall) becomes 683×2048', async () => {
    const image = await prepareImage(pngOf(halves(1000, 3000), 1000, 3000), { name: 'tall.png' });
    expect([image.width, image.height]).toEqual([683, 2048]);
    expect(readDimensions(image.bytes)).toEqual({ width: 683, height: 2048 });
  });

  it('`max` (the imageInputMax setting) sets the long side', async () => {
    const image = await prepareImage(pngOf(halves(3000, 1000), 3000, 1000), { name: 'wide.png', max: 1000 });
    expect([image.width, image.height]).toEqual([1000, 333]);
    expect(readDimensions(image.bytes)).toEqual({ width: 1000, height: 333 });
  });

  it('a PNG with transparency keeps it (RGBA out), one without is written RGB', async () => {
    const clear = await prepareImage(pngOf(halves(2100, 100, 128), 2100, 100, true), { name: 'clear.png' });
    expect(clear.bytes[25]).toBe(6); // IHDR colour type: truecolour with alpha
    expect(pixelAt(await pixelsOf(clear.bytes), 10, 10)).toEqual([...RED, 128]);
    const opaque = await prepareImage(pngOf(halves(2100, 100), 2100, 100, true), { name: 'opaque.png' });
    expect(opaque.bytes[25]).toBe(2); // truecolour
  });

  it('a GIF with transparency becomes a PNG that keeps it', async () => {
    const buffer = Buffer.alloc(3000 * 10 + 4096);
    const writer = new GifWriter(buffer, 3000, 10, { palette: [0xdc1e1e, 0x1e1edc] });
    writer.addFrame(0, 0, 3000, 10, Array.from({ length: 30_000 }, (_, i) => (i % 3000 < 1500 ? 0 : 1)), { transparent: 1 });
    const image = await prepareImage(buffer.subarray(0, writer.end()), { name: 'clear.gif' });
    const pixels = await pixelsOf(image.bytes);
    expect(pixelAt(pixels, 10, 3)).toEqual([...RED, 255]);
    expect(pixelAt(pixels, 2000, 3)[3]).toBe(0);
  });
});

describe('prepareImage: what is sent as it is', () => {
  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('a 640×480 %s goes byte for byte', async (format) => {
    const file = await MAKERS[format](640, 480);
    const image = await prepareImage(file, { name: `small.${format}` });
    expect(image.bytes.equals(file)).toBe(true);
    expect(image).toMatchObject({ format, width: 640, height: 480, sha256: sha256(file) });
    expect(image.scaledFrom).toBeUndefined();
  });

  it('exactly 2048 on the long side is within the limit', async () => {
    const file = pngOf(halves(2048, 10), 2048, 10);
    expect((await prepareImage(file, { name: 'edge.png' })).bytes.equals(file)).toBe(true);
    expect(DEFAULT_IMAGE_INPUT_MAX).toBe(2048);
  });

  it('a small GIF that moves is sent as a PNG of its first frame (services take still GIFs only)', async () => {
    const image = await prepareImage(gifOf(64, 32, 3), { name: 'moving.gif' });
    expect(image).toMatchObject({ format: 'png', mime: 'image/png', width: 64, height: 32 });
    expect(image.scaledFrom).toBeUndefined();
    expect(near(pixelAt(await pixelsOf(image.bytes), 5, 5), RED)).toBe(true);
  });
});

/** A JPEG with an EXIF segment whose orientation tag says `orientation`, in `order` byte order. */
function withOrientation(jpeg: Buffer, orientation: number, order: 'II' | 'MM' = 'II'): Buffer {
  const tiff = Buffer.alloc(26);
  const little = order === 'II';
  tiff.write(order, 0, 'latin1');
  const u16 = (value: number, at: number): number => (little ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at));
  const u32 = (value: number, at: number): number => (little ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at));
  u16(42, 2);
  u32(8, 4); // the first directory
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14); // one value
  u16(orientation, 18);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

describe('a photo turned by its EXIF orientation', () => {
  it('is read from the EXIF segment, either byte order; none, or a damaged one, is upright', async () => {
    const jpeg = await encodeJpeg(halves(8, 8), 8, 8);
    expect(jpegOrientation(withOrientation(jpeg, 6))).toBe(6);
    expect(jpegOrientation(withOrientation(jpeg, 8, 'MM'))).toBe(8);
    expect(jpegOrientation(jpeg)).toBe(1);
    expect(jpegOrientation(withOrientation(jpeg, 12))).toBe(1);
    expect(jpegOrientation(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00]))).toBe(1);
  });

  it('a 3000×1000 photo stored on its side (orientation 6) is sent upright: 683×2048, its left half on top', async () => {
    const file = withOrientation(await encodeJpeg(halves(3000, 1000), 3000, 1000), 6);
    const image = await prepareImage(file, { name: 'portrait.jpg' });
    expect(image).toMatchObject({ width: 683, height: 2048, scaledFrom: { width: 1000, height: 3000 } });
    const pixels = await pixelsOf(image.bytes);
    expect([pixels.width, pixels.height]).toEqual([683, 2048]);
    // Turned a quarter clockwise: the stored left (red) is now the top, the right (blue) the bottom.
    expect(near(pixelAt(pixels, 340, 100), RED)).toBe(true);
    expect(near(pixelAt(pixels, 340, 1948), BLUE)).toBe(true);
  });

  it('a small turned photo goes as it is, its size said as it is shown', async () => {
    const file = withOrientation(await encodeJpeg(halves(64, 32), 64, 32), 8);
    const image = await prepareImage(file, { name: 'small.jpg' });
    expect(image.bytes.equals(file)).toBe(true);
    expect([image.width, image.height]).toEqual([32, 64]);
  });

  // A 3×2 picture whose pixels are numbered 1..6 row by row:  1 2 3 / 4 5 6.
  it.each([
    [1, 3, 2, [1, 2, 3, 4, 5, 6]],
    [2, 3, 2, [3, 2, 1, 6, 5, 4]],
    [3, 3, 2, [6, 5, 4, 3, 2, 1]],
    [4, 3, 2, [4, 5, 6, 1, 2, 3]],
    [5, 2, 3, [1, 4, 2, 5, 3, 6]],
    [6, 2, 3, [4, 1, 5, 2, 6, 3]],
    [7, 2, 3, [6, 3, 5, 2, 4, 1]],
    [8, 2, 3, [3, 6, 2, 5, 1, 4]],
  ])('orientation %i: %i×%i, pixels %j', (orientation, width, height, order) => {
    const data = new Uint8Array(new Uint32Array([1, 2, 3, 4, 5, 6]).buffer);
    const turned = orient({ width: 3, height: 2, data }, orientation);
    expect([turned.width, turned.height]).toEqual([width, height]);
    expect([...new Uint32Array(turned.data.buffer)]).toEqual(order);
  });
});

describe('prepareImage: refusals name the file, exit 2', () => {
  it('a file over 20 MiB, before anything else is looked at', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024);
    pngOf(halves(4, 4), 4, 4).copy(big);
    const error = await refusal(big, 'huge.png');
    expect(error.message).toBe('-f huge.png is larger than 20 MiB, the most svc sends of one image; nothing was sent');
    expect(error.hint).toContain('2048 pixels');
    expect(MAX_IMAGE_BYTES).toBe(20 * 1024 * 1024);
  });

  it('a text file (or anything not PNG, JPEG, WebP or GIF)', async () => {
    const error = await refusal(Buffer.from('# notes\nnot a picture\n'), 'notes.md');
    expect(error.message).toBe('-f notes.md is not an image svc can send: PNG, JPEG, WebP or GIF; nothing was sent');
    await refusal(Buffer.from('BM6\0\0\0'), 'bitmap.bmp');
  });

  it('a damaged PNG too large to pass through: the decoder fails, the format is named, nothing of the file quoted', async () => {
    const damaged = Buffer.concat([pngHeader(3000, 1000), Buffer.from('\x1b]0;owned\x07 not really a png')]);
    const error = await refusal(damaged, 'broken.png');
    expect(error.message).toBe('-f broken.png could not be read as a PNG image: damaged, or cut short; nothing was sent');
  });

  it('a JPEG whose frame header is followed by garbage (in the session: nothing attached)', async () => {
    const damaged = Buffer.concat([jpegHeader(3000, 1000), Buffer.from('\x1b]0;owned\x07 not really a jpeg')]);
    const error = await refusal(damaged, 'broken.jpg', '/file');
    expect(error.message).toBe('/file broken.jpg could not be read as a JPEG image: damaged, or cut short; nothing attached');
  });

  it('a JPEG cut short inside its picture data is sent as far as it goes (libjpeg greys the rest, as a viewer shows it)', async () => {
    const jpeg = await encodeJpeg(halves(3000, 1000), 3000, 1000);
    const image = await prepareImage(jpeg.subarray(0, Math.floor(jpeg.length / 2)), { name: 'cut.jpg' });
    expect([image.width, image.height]).toEqual([2048, 683]);
    expect(near(pixelAt(await pixelsOf(image.bytes), 100, 10), RED)).toBe(true);
  });

  it('a header with no size in it, whatever the limit', async () => {
    const error = await refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'stub.png');
    expect(error.message).toContain('could not be read as a PNG image');
    await refusal(Buffer.from('GIF89a\x05'), 'stub.gif');
  });

  it('a damaged GIF', async () => {
    const gif = gifOf(64, 32, 2);
    const error = await refusal(Buffer.concat([gif.subarray(0, 40), Buffer.alloc(8, 0x21)]), 'broken.gif');
    expect(error.message).toContain('-f broken.gif could not be read as a GIF image');
  });

  it('a picture of more pixels than svc decodes is refused from its header, before decoding', async () => {
    const error = await refusal(pngHeader(10_000, 10_000), 'poster.png');
    expect(error.message).toBe('-f poster.png is 10000×10000 pixels, more than svc scales down (64 megapixels); nothing was sent');
  });
});

describe('the parts sent', () => {
  const image: Pick<ImageInput, 'mime' | 'bytes'> = { mime: 'image/png', bytes: Buffer.from('picture') };

  it('a data: URL of the bytes, with `detail` only when chosen', () => {
    expect(imageDataUrl(image)).toBe('data:image/png;base64,cGljdHVyZQ==');
    expect(imageInputPart(image)).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,cGljdHVyZQ==' } });
    expect(imageInputPart(image, 'low')).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,cGljdHVyZQ==', detail: 'low' } });
  });

  it.each([
    ['https://example.com/x.png', true],
    ['HTTP://example.com/x.png?size=2', true],
    ['http://', false],
    ['photo.png', false],
    ['ftp://example.com/x.png', false],
    ['file:///tmp/x.png', false],
  ])('isImageUrl(%j) is %s', (arg, expected) => {
    expect(isImageUrl(arg)).toBe(expected);
  });

  it('a dry run shows a data: URL as its type and size', () => {
    expect(shortDataUrl(imageDataUrl({ mime: 'image/jpeg', bytes: Buffer.alloc(3000) }))).toBe('data:image/jpeg;base64,… (2.9 KiB)');
    expect(shortDataUrl(imageDataUrl(image))).toBe('data:image/png;base64,… (7 B)');
    expect(shortDataUrl('https://example.com/x.png')).toBe('https://example.com/x.png');
  });

  it('a list names an image by name, size and pixels', () => {
    expect(describeImage('a.png', { bytes: Buffer.alloc(2048), width: 640, height: 480 })).toBe('[image a.png, 2.0 KiB, 640×480]');
    expect(describeImage('b.jpg', { bytes: Buffer.alloc(10), width: 2048, height: 683, scaledFrom: { width: 3000, height: 1000 } })).toBe('[image b.jpg, 10 B, 2048×683, scaled from 3000×1000]');
  });

  it.each([
    [{ width: 3000, height: 1000 }, 2048, { width: 2048, height: 683 }],
    [{ width: 4000, height: 3000 }, 2048, { width: 2048, height: 1536 }],
    [{ width: 100, height: 100 }, 2048, { width: 100, height: 100 }],
    [{ width: 100_000, height: 10 }, 2048, { width: 2048, height: 1 }],
  ])('fitWithin(%j, %i) is %j', (size, max, expected) => {
    expect(fitWithin(size, max)).toEqual(expected);
  });
});
