/**
 * Making room for an image's provenance while its bytes stream to disk, so that writing it
 * afterwards is a few small in-place writes, never a copy of the whole file (a 24 MiB image
 * would cost tens of milliseconds to rewrite): nothing here re-encodes a pixel.
 *
 * - JPEG: the XMP packet must come before the image data, so an APP1 segment holding an empty,
 *   space-padded XMP packet (XMP's own provision for editing in place) goes right after the
 *   start-of-image marker; the record later overwrites the padding.
 * - WebP: metadata needs the extended format, so a plain `VP8 `/`VP8L` file gets the 18-byte
 *   `VP8X` header chunk (canvas size and alpha taken from the image's own header); the `XMP `
 *   chunk is appended at the end, where the format puts it.
 * - PNG: text chunks are read before the image data by every reader (some ignore them after
 *   it), so right after `IHDR` go an `iTXt` "Description" (the prompt, known before the image
 *   comes), an `iTXt` "Software", and an `iTXt` "XML:com.adobe.xmp" holding a padded packet the
 *   record later overwrites, its CRC written again.
 *
 * Bytes that are none of these pass through untouched.
 */
import { pngChunk } from './png-write.js';
import { xmpPacket } from './provenance.js';

/**
 * The XMP packet size reserved in a JPEG or PNG for a prompt of `promptBytes`: the packet's own
 * ~1 KiB, the prompt twice (description and record), and a revised prompt several times its
 * length, as services write them; a longer record costs one rewrite (metadata-writer.ts).
 */
export function xmpRoomFor(promptBytes: number): number {
  return Math.ceil((3072 + 4 * promptBytes) / 512) * 512;
}

/** The APP1 header that says "this segment is XMP". */
export const JPEG_XMP_NAMESPACE = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');

/** Bytes of the start of a file needed to decide (a PNG's IHDR; a WebP's first chunk header and frame size). */
export const ROOM_HEAD_BYTES = 33;

/** The keyword PNG gives an XMP packet's iTXt chunk; the bytes after it: no compression, no language. */
export const PNG_XMP_KEYWORD = 'XML:com.adobe.xmp';
/** The keyword's terminating NUL, then no compression (flag, method), no language, no translated keyword. */
const ITXT_FLAGS = Buffer.from([0, 0, 0, 0, 0]);
export const ITXT_FLAGS_BYTES = ITXT_FLAGS.length;

export type Room =
  | { kind: 'jpeg'; packetAt: number; packetSize: number }
  /** `grew`: bytes inserted (the VP8X chunk), so the RIFF size must be written again. */
  | { kind: 'webp'; grew: number }
  /** `chunkAt`: where the XMP iTXt chunk starts; `packetSize`: the packet's bytes inside it. */
  | { kind: 'png'; chunkAt: number; packetSize: number }
  | { kind: 'none' };

/** An APP1 XMP segment around `packet`. */
export function jpegXmpSegment(packet: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header[0] = 0xff;
  header[1] = 0xe1;
  header.writeUInt16BE(2 + JPEG_XMP_NAMESPACE.length + packet.length, 2);
  return Buffer.concat([header, JPEG_XMP_NAMESPACE, packet]);
}

/** An uncompressed international text chunk: keyword, no compression, no language, UTF-8 text. */
export function iTXtChunk(keyword: string, text: Buffer | string): Buffer {
  return pngChunk('iTXt', Buffer.concat([Buffer.from(keyword, 'latin1'), ITXT_FLAGS, typeof text === 'string' ? Buffer.from(text, 'utf8') : text]));
}

/** The VP8X chunk for a plain WebP whose first chunk starts at byte 12 of `head`, or undefined. */
function vp8xFor(head: Buffer): Buffer | undefined {
  const kind = head.toString('latin1', 12, 16);
  let width: number;
  let height: number;
  let alpha = false;
  if (kind === 'VP8 ' && head.length >= 30 && head[23] === 0x9d && head[24] === 0x01 && head[25] === 0x2a) {
    width = head.readUInt16LE(26) & 0x3fff;
    height = head.readUInt16LE(28) & 0x3fff;
  } else if (kind === 'VP8L' && head.length >= 25 && head[20] === 0x2f) {
    const bits = head.readUInt32LE(21);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
    alpha = ((bits >>> 28) & 1) === 1;
  } else return undefined;
  const chunk = Buffer.alloc(18);
  chunk.write('VP8X', 0, 'latin1');
  chunk.writeUInt32LE(10, 4);
  chunk[8] = alpha ? 0x10 : 0; // the XMP flag (0x04) is set once the chunk is there
  chunk.writeUIntLE(width - 1, 12, 3);
  chunk.writeUIntLE(height - 1, 15, 3);
  return chunk;
}

/**
 * The first bytes of a file as they should be written (with the room made), and where the
 * room is. `head` is the first {@link ROOM_HEAD_BYTES} bytes or more (or the whole file, when
 * shorter).
 */
export function makeRoom(head: Buffer, known: { prompt: string; software: string }): { bytes: Buffer; room: Room } {
  const roomSize = Math.min(xmpRoomFor(Buffer.byteLength(known.prompt)), 60_000);
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    const segment = jpegXmpSegment(xmpPacket(undefined, roomSize)!);
    return {
      bytes: Buffer.concat([head.subarray(0, 2), segment, head.subarray(2)]),
      room: { kind: 'jpeg', packetAt: 2 + 4 + JPEG_XMP_NAMESPACE.length, packetSize: roomSize },
    };
  }
  if (head.length >= 16 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') {
    if (head.toString('latin1', 12, 16) === 'VP8X') return { bytes: head, room: { kind: 'webp', grew: 0 } };
    const vp8x = vp8xFor(head);
    if (!vp8x) return { bytes: head, room: { kind: 'none' } };
    return { bytes: Buffer.concat([head.subarray(0, 12), vp8x, head.subarray(12)]), room: { kind: 'webp', grew: vp8x.length } };
  }
  if (head.length >= 33 && head.readUInt32BE(0) === 0x89504e47 && head.toString('latin1', 12, 16) === 'IHDR') {
    const texts = Buffer.concat([iTXtChunk('Description', known.prompt), iTXtChunk('Software', known.software)]);
    const xmp = iTXtChunk(PNG_XMP_KEYWORD, xmpPacket(undefined, roomSize)!);
    return {
      bytes: Buffer.concat([head.subarray(0, 33), texts, xmp, head.subarray(33)]),
      room: { kind: 'png', chunkAt: 33 + texts.length, packetSize: roomSize },
    };
  }
  return { bytes: head, room: { kind: 'none' } };
}
