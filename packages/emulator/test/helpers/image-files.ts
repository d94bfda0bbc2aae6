/**
 * Test helpers that read image files the way a viewer would, without trusting the emulator's own
 * code: the format from the magic bytes, the real dimensions from the header (PNG IHDR, JPEG SOFn,
 * WebP VP8 / VP8L / VP8X), and a small PNG decoder for the pixels.
 */
import { crc32, inflateSync } from 'node:zlib';

/** An image format as the magic bytes tell it. */
export type Format = 'png' | 'jpeg' | 'webp';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the file's first bytes announce, or undefined. */
export function sniff(bytes: Buffer): Format | undefined {
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** A PNG's size from its IHDR chunk, which must come first. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('PNG: the first chunk is not IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A JPEG's size from its start-of-frame segment (SOF0 baseline, SOF1, SOF2 progressive). */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) throw new Error(`JPEG: expected a marker at byte ${i}`);
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  throw new Error('JPEG: no SOF0/SOF1/SOF2 segment');
}

/** A WebP's size from its first chunk: lossy VP8, lossless VP8L, or the extended VP8X header. */
function webpSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.readUInt32LE(4) !== bytes.length - 8) throw new Error('WebP: the RIFF size does not match the file');
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) throw new Error('WebP: bad VP8 start code');
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) throw new Error('WebP: bad VP8L signature');
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  throw new Error(`WebP: unknown first chunk ${JSON.stringify(chunk)}`);
}

/** The format and the dimensions written in the file's header; throws on a malformed header. */
export function readHeader(bytes: Buffer): { format: Format; width: number; height: number } {
  const format = sniff(bytes);
  if (format === undefined) throw new Error(`not a PNG, JPEG or WebP file: ${bytes.subarray(0, 12).toString('hex')}`);
  const size = format === 'png' ? pngSize(bytes) : format === 'jpeg' ? jpegSize(bytes) : webpSize(bytes);
  return { format, ...size };
}

/**
 * Decodes an 8-bit RGB, non-interlaced PNG into RGB bytes, checking every chunk's CRC. Only filter
 * types 0 (None) and 1 (Sub) are handled: the ones the emulator's encoder may write.
 */
export function decodePng(bytes: Buffer): { width: number; height: number; rgb: Uint8Array; chunks: string[] } {
  const { width, height } = pngSize(bytes);
  if (bytes[24] !== 8 || bytes[25] !== 2 || bytes[28] !== 0) throw new Error('PNG: expected 8-bit RGB without interlace');
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  for (let i = 8; i < bytes.length;) {
    const length = bytes.readUInt32BE(i);
    const type = bytes.toString('latin1', i + 4, i + 8);
    const crc = bytes.readUInt32BE(i + 8 + length);
    if (crc32(bytes.subarray(i + 4, i + 8 + length)) !== crc) throw new Error(`PNG: bad CRC in ${type}`);
    chunks.push(type);
    if (type === 'IDAT') idat.push(bytes.subarray(i + 8, i + 8 + length));
    i += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = 1 + width * 3;
  if (raw.length !== stride * height) throw new Error(`PNG: ${raw.length} bytes of scanlines, expected ${stride * height}`);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * stride]!;
    if (filter > 1) throw new Error(`PNG: filter type ${filter} not handled`);
    for (let x = 0; x < width * 3; x += 1) {
      const left = filter === 1 && x >= 3 ? rgb[y * width * 3 + x - 3]! : 0;
      rgb[y * width * 3 + x] = (raw[y * stride + 1 + x]! + left) & 0xff;
    }
  }
  return { width, height, rgb, chunks };
}

/** The mean absolute difference of two equally sized pixel arrays, 0 to 255. */
export function meanDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error('different sizes');
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
