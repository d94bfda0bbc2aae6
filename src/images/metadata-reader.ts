/**
 * Reading an image's provenance back (`svc image info`, `svc image again`): the XMP packet found
 * by walking the file's own structure (PNG chunks, JPEG segments up to the image data, WebP RIFF
 * chunks), reading only headers and the packet, never the pixels; and the format and pixel size
 * from the file itself. Any file svc did not write gives `record: undefined`, never an error.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ImageFormat } from '../api/images/formats.js';
import { detectFormat, readDimensions, type Dimensions } from './file-format.js';
import { JPEG_XMP_NAMESPACE, PNG_XMP_KEYWORD } from './metadata-room.js';
import { parseXmp, type Provenance } from './provenance.js';

/** Up to `length` bytes from `position` of an open file (fewer at the end of the file; short reads resumed). */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const got = readSync(fd, buffer, read, length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

export interface ImageFacts {
  format: ImageFormat | undefined;
  size: Dimensions | undefined;
  bytes: number;
  record: Provenance | undefined;
}

/** A packet larger than this is not svc's (and not worth reading). */
const MAX_PACKET = 1024 * 1024;

function pngPacket(fd: number, size: number): string | undefined {
  const keyword = Buffer.from(`${PNG_XMP_KEYWORD}\0`, 'latin1');
  for (let at = 8; at + 12 <= size; ) {
    const header = readAt(fd, at, 8);
    const length = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (type === 'IEND') return undefined;
    if (type === 'iTXt' && length <= MAX_PACKET) {
      const data = readAt(fd, at + 8, length);
      // keyword\0, compression flag 0, method, language\0, translated keyword\0, text
      if (data.subarray(0, keyword.length).equals(keyword) && data[keyword.length] === 0) {
        let cursor = keyword.length + 2;
        for (let nulls = 0; nulls < 2 && cursor < data.length; cursor += 1) if (data[cursor] === 0) nulls += 1;
        return data.subarray(cursor).toString('utf8');
      }
    }
    at += 12 + length;
  }
  return undefined;
}

function jpegPacket(fd: number, size: number): string | undefined {
  for (let at = 2; at + 4 <= size; ) {
    const header = readAt(fd, at, 4);
    if (header[0] !== 0xff) return undefined;
    const marker = header[1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // the image data: no metadata beyond
    const length = header.readUInt16BE(2);
    if (marker === 0xe1 && length > 2 + JPEG_XMP_NAMESPACE.length) {
      const data = readAt(fd, at + 4, length - 2);
      if (data.subarray(0, JPEG_XMP_NAMESPACE.length).equals(JPEG_XMP_NAMESPACE)) return data.subarray(JPEG_XMP_NAMESPACE.length).toString('utf8');
    }
    at += 2 + length;
  }
  return undefined;
}

function webpPacket(fd: number, size: number): string | undefined {
  for (let at = 12; at + 8 <= size; ) {
    const header = readAt(fd, at, 8);
    const length = header.readUInt32LE(4);
    if (header.toString('latin1', 0, 4) === 'XMP ' && length <= MAX_PACKET) return readAt(fd, at + 8, length).toString('utf8');
    at += 8 + length + (length % 2);
  }
  return undefined;
}

/** What the file at `path` is, and the svc record inside it when there is one. */
export function readImageFacts(path: string): ImageFacts {
  const fd = openSync(path, 'r');
  try {
    const bytes = fstatSync(fd).size;
    const head = readAt(fd, 0, Math.min(bytes, 256 * 1024));
    const format = detectFormat(head);
    let packet: string | undefined;
    if (format === 'png') packet = pngPacket(fd, bytes);
    else if (format === 'jpeg') packet = jpegPacket(fd, bytes);
    else if (format === 'webp') packet = webpPacket(fd, bytes);
    return { format, size: readDimensions(head), bytes, record: packet === undefined ? undefined : parseXmp(packet) };
  } finally {
    closeSync(fd);
  }
}
