/**
 * What an image file is, from its name or its first bytes: the extension written for each format
 * (and the format an `-o` extension names), the format its magic bytes say, and the pixel size its
 * header gives. svc image checks that what the service sent is what was asked for before saving
 * it, `svc image info` and the preview read files with it; nothing here is about HTTP.
 */
import type { ImageFormat } from '../api/images/formats.js';

/** The extension written for each format. */
export const EXTENSION: Record<ImageFormat, string> = { png: '.png', jpeg: '.jpg', webp: '.webp' };

/** Extensions recognised on `-o` (case-insensitive). */
export function formatOfExtension(ext: string): ImageFormat | undefined {
  switch (ext.toLowerCase()) {
    case '.png':
      return 'png';
    case '.jpg':
    case '.jpeg':
      return 'jpeg';
    case '.webp':
      return 'webp';
    default:
      return undefined;
  }
}

/** What the first bytes say the file is. */
export function detectFormat(head: Uint8Array): ImageFormat | undefined {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export interface Dimensions {
  width: number;
  height: number;
}

function pngSize(b: Buffer): Dimensions | undefined {
  // The IHDR chunk comes first: length(4) "IHDR"(4) width(4) height(4).
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpegSize(b: Buffer): Dimensions | undefined {
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    const length = b.readUInt16BE(offset + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(offset + 5), width: b.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function webpSize(b: Buffer): Dimensions | undefined {
  const kind = b.toString('latin1', 12, 16);
  if (kind === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (kind === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (kind === 'VP8X' && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Width and height from the header, when the header is readable. */
export function readDimensions(head: Uint8Array): Dimensions | undefined {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  switch (detectFormat(b)) {
    case 'png':
      return pngSize(b);
    case 'jpeg':
      return jpegSize(b);
    case 'webp':
      return webpSize(b);
    default:
      return undefined;
  }
}

/** True for a GIF (either version of the format), from its first six bytes. */
export function isGif(head: Uint8Array): boolean {
  return head.length >= 6 && Buffer.from(head.buffer, head.byteOffset, 6).toString('latin1').match(/^GIF8[79]a$/) !== null;
}
