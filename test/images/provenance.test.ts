/**
 * Provenance inside the file (issue 25, item 1), at the byte level: the XMP packet written and
 * read back (escaping, padding), room made while the bytes stream (PNG text chunks after IHDR,
 * JPEG APP1, WebP VP8X) and filled in place, the pixels untouched, a record longer than the room,
 * and files svc cannot label passed through as they came.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDimensions } from '../../src/images/file-format.js';
import { readImageFacts } from '../../src/images/metadata-reader.js';
import { parseXmp, xmpPacket, type Provenance } from '../../src/images/provenance.js';
import { TempImageFile } from '../../src/images/temp-image-file.js';
import { MetadataNotWritten } from '../../src/images/metadata-writer.js';
import { deflateSync, inflateSync } from 'node:zlib';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';

/** A real PNG of made-up pixels. */
function png(width: number, height: number): Buffer {
  const rgba = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 37) % 256);
  return pngFile(width, height, false, deflateSync(subFilteredRows(rgba, width, height, false)));
}

const dir = mkdtempSync(join(tmpdir(), 'svc-provenance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record: Provenance = {
  prompt: 'a fox & a <hare> "quoted"',
  revisedPrompt: 'A fox, at dusk\u0007 with a bell',
  negativePrompt: 'cars',
  model: 'svc-vision',
  seed: 42,
  aspectRatio: '16:9',
  format: 'png',
  createdAt: '2026-11-25T12:00:00.000Z',
  svcVersion: '9.9.9',
};

/** Stream `bytes` into a TempImageFile in pieces of `piece`, as a download would. */
function streamed(bytes: Buffer, piece = 7, prompt = record.prompt): TempImageFile {
  const file = new TempImageFile(dir, { metadata: { prompt } });
  for (let at = 0; at < bytes.length; at += piece) file.write(bytes.subarray(at, at + piece));
  file.end();
  return file;
}

/** PNG chunks in order: type and data. */
function chunks(file: Buffer): Array<{ type: string; data: Buffer }> {
  const found = [];
  for (let at = 8; at < file.length; ) {
    const length = file.readUInt32BE(at);
    found.push({ type: file.toString('latin1', at + 4, at + 8), data: file.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

function jpegOf(width: number, height: number): Buffer {
  // SOI, an APP0, a SOF0 with the size, SOS, some "scan" bytes, EOI: enough for svc's readers.
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), sof, Buffer.from([0xff, 0xda, 0, 2]), Buffer.alloc(3000, 0x55), Buffer.from([0xff, 0xd9])]);
}

function webpLossless(width: number, height: number, alpha: boolean): Buffer {
  const data = Buffer.alloc(40, 0x11);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14) | ((alpha ? 1 : 0) << 28), 1);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.alloc(4), data]);
  chunk.writeUInt32LE(data.length, 4);
  const riff = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WEBP', 'latin1'), chunk]);
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
}

describe('the XMP packet', () => {
  it('escapes markup, replaces characters XML cannot hold, and reads back what was written', () => {
    const packet = xmpPacket(record)!.toString('utf8');
    expect(packet).toContain('<svc:Prompt>a fox &amp; a &lt;hare&gt; &quot;quoted&quot;</svc:Prompt>');
    expect(packet).not.toContain('\u0007');
    expect(parseXmp(packet)).toEqual({ ...record, revisedPrompt: 'A fox, at dusk\ufffd with a bell' });
  });

  it('pads to an exact size when asked; too small a size gives nothing', () => {
    expect(xmpPacket(record, 4096)!.length).toBe(4096);
    expect(xmpPacket(record, 300)).toBeUndefined();
  });

  it("another tool's XMP is not svc's record", () => {
    expect(parseXmp('<x:xmpmeta><dc:description>hi</dc:description></x:xmpmeta>')).toBeUndefined();
  });
});

describe('PNG', () => {
  it('text chunks right after IHDR, filled in place; the image data is the same bytes', () => {
    const original = png(6, 4);
    const file = streamed(original);
    const before = readFileSync(file.path);
    file.addProvenance(record);
    const after = readFileSync(file.path);
    expect(after.length).toBe(before.length);
    const types = chunks(after).map((chunk) => chunk.type);
    expect(types.slice(0, 4)).toEqual(['IHDR', 'iTXt', 'iTXt', 'iTXt']);
    const idat = (buffer: Buffer) => Buffer.concat(chunks(buffer).filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data));
    expect(inflateSync(idat(after))).toEqual(inflateSync(idat(original)));
    expect(readImageFacts(file.path)).toMatchObject({ format: 'png', size: { width: 6, height: 4 }, record: { ...record, revisedPrompt: 'A fox, at dusk\ufffd with a bell' } });
    file.discard();
  });

  it('a record longer than the room still goes in, the file grown once', () => {
    const file = streamed(png(3, 3));
    const long = { ...record, revisedPrompt: 'word '.repeat(5000) };
    file.addProvenance(long);
    expect(readImageFacts(file.path).record?.revisedPrompt).toBe(long.revisedPrompt);
    expect(chunks(readFileSync(file.path)).at(-1)?.type).toBe('IEND');
    file.discard();
  });
});

describe('JPEG', () => {
  it('an APP1 XMP segment after SOI; the size still read; the scan bytes untouched', () => {
    const original = jpegOf(320, 200);
    const file = streamed(original, 5);
    file.addProvenance({ ...record, format: 'jpeg' });
    const after = readFileSync(file.path);
    expect(after.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xe1]));
    expect(after.subarray(after.length - original.length + 2)).toEqual(original.subarray(2));
    expect(readDimensions(after)).toEqual({ width: 320, height: 200 });
    expect(readImageFacts(file.path).record?.seed).toBe(42);
    file.discard();
  });

  it('a record longer than the room rewrites the rest once, still readable', () => {
    const original = jpegOf(10, 10);
    const file = streamed(original);
    file.addProvenance({ ...record, prompt: 'fox '.repeat(6000) });
    const after = readFileSync(file.path);
    expect(readImageFacts(file.path).record?.prompt).toBe('fox '.repeat(6000));
    expect(after.subarray(after.length - original.length + 2)).toEqual(original.subarray(2));
    file.discard();
  });
});

describe('WebP', () => {
  it('a plain VP8L file gets VP8X (size and alpha from its header) and an XMP chunk; RIFF size right', () => {
    const original = webpLossless(300, 150, true);
    const file = streamed(original, 3);
    file.addProvenance({ ...record, format: 'webp' });
    const after = readFileSync(file.path);
    expect(after.toString('latin1', 12, 16)).toBe('VP8X');
    expect(after[20]! & 0x14).toBe(0x14); // alpha and XMP flags
    expect(after.readUInt32LE(4)).toBe(after.length - 8);
    expect(readDimensions(after)).toEqual({ width: 300, height: 150 });
    expect(after.includes(original.subarray(12))).toBe(true);
    expect(readImageFacts(file.path).record?.model).toBe('svc-vision');
    file.discard();
  });

  it('the RIFF size is right even when no record is ever written', () => {
    const file = streamed(webpLossless(8, 8, false));
    const bytes = readFileSync(file.path);
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    file.discard();
  });
});

describe('files svc cannot label', () => {
  it('pass through as they came, and say so when asked for metadata', () => {
    const text = Buffer.from('not an image at all, just words of some length');
    const file = streamed(text);
    expect(readFileSync(file.path)).toEqual(text);
    expect(() => file.addProvenance(record)).toThrow(MetadataNotWritten);
    expect(readImageFacts(file.path).record).toBeUndefined();
    file.discard();
  });

  it('without metadata asked, the bytes are exactly the ones written', () => {
    const original = png(5, 5);
    const file = new TempImageFile(dir);
    file.write(original);
    file.end();
    expect(readFileSync(file.path)).toEqual(original);
    file.discard();
  });

  it('a file shorter than the head the room needs is written whole', () => {
    const file = streamed(Buffer.from([0xff, 0xd8, 0xff]));
    expect(readFileSync(file.path).length).toBeGreaterThan(3);
    expect(readFileSync(file.path).subarray(-1)).toEqual(Buffer.from([0xff]));
    file.discard();
  });
});
