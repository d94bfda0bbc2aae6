/**
 * Writing an image's provenance into the room made while it streamed (metadata-room.ts): a few
 * positioned writes at the start and the end of the file, whatever its size. PNG and JPEG get the
 * XMP packet over the padded one reserved after their header (its CRC written again in PNG);
 * WebP an `XMP ` chunk at the end, its `VP8X` flag and the RIFF size updated. A record longer
 * than the room (a prompt of many KiB) costs one rewrite of the rest of the file.
 */
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { readAt } from './metadata-reader.js';
import { ITXT_FLAGS_BYTES, iTXtChunk, jpegXmpSegment, PNG_XMP_KEYWORD, type Room } from './metadata-room.js';
import { xmpPacket, type Provenance } from './provenance.js';

/** All of `bytes` at `position` of an open file (short writes resumed). */
function writeAt(fd: number, bytes: Buffer, position: number): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, position + written);
}

/** Why the record could not be put in the file (the image itself is kept as it came). */
export class MetadataNotWritten extends Error {}

function intoPng(fd: number, size: number, room: Extract<Room, { kind: 'png' }>, record: Provenance): number {
  const packet = xmpPacket(record, room.packetSize);
  if (packet) {
    // The same length as the reserved chunk: written over it, CRC and all.
    writeAt(fd, iTXtChunk(PNG_XMP_KEYWORD, packet), room.chunkAt);
    return size;
  }
  // A record longer than the room: the chunk grows, and the rest of the file is written again, once.
  // The reserved chunk: length, type and CRC (12 bytes), its keyword and flags, the packet.
  const oldEnd = room.chunkAt + 12 + PNG_XMP_KEYWORD.length + ITXT_FLAGS_BYTES + room.packetSize;
  const rest = readAt(fd, oldEnd, size - oldEnd);
  const chunk = iTXtChunk(PNG_XMP_KEYWORD, xmpPacket(record)!);
  writeAt(fd, Buffer.concat([chunk, rest]), room.chunkAt);
  return room.chunkAt + chunk.length + rest.length;
}

function intoJpeg(fd: number, size: number, room: Extract<Room, { kind: 'jpeg' }>, record: Provenance): number {
  const packet = xmpPacket(record, room.packetSize);
  if (!packet) {
    // A record longer than the room (a prompt of many KiB): the segment grows, which means
    // writing the rest of the file again, once.
    const whole = xmpPacket(record)!;
    if (whole.length > 65_000) throw new MetadataNotWritten('the record is too long for a JPEG XMP segment');
    const oldEnd = room.packetAt + room.packetSize;
    const rest = readAt(fd, oldEnd, size - oldEnd);
    const start = Buffer.concat([readAt(fd, 0, 2), jpegXmpSegment(whole)]);
    writeAt(fd, Buffer.concat([start, rest]), 0);
    return start.length + rest.length;
  }
  writeAt(fd, packet, room.packetAt);
  return size;
}

function intoWebp(fd: number, size: number, record: Provenance): number {
  const header = readAt(fd, 0, 21);
  if (header.toString('latin1', 12, 16) !== 'VP8X' || header.length < 21) throw new MetadataNotWritten('the WebP has no VP8X header chunk');
  const packet = xmpPacket(record)!;
  const chunkHeader = Buffer.alloc(8);
  chunkHeader.write('XMP ', 0, 'latin1');
  chunkHeader.writeUInt32LE(packet.length, 4);
  // RIFF chunks are padded to an even length.
  const body = Buffer.concat([chunkHeader, packet, packet.length % 2 === 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  const at = size + (size % 2);
  writeAt(fd, body, at);
  const total = at + body.length;
  writeAt(fd, Buffer.from([header[20]! | 0x04]), 20);
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(total - 8, 0);
  writeAt(fd, riffSize, 4);
  return total;
}

/** Put `record` into the file at `path`, in its room; returns the file's new size. */
export function writeProvenance(path: string, room: Room, record: Provenance): number {
  if (room.kind === 'none') throw new MetadataNotWritten('svc cannot add metadata to this kind of file');
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (room.kind === 'png') return intoPng(fd, size, room, record);
    if (room.kind === 'jpeg') return intoJpeg(fd, size, room, record);
    return intoWebp(fd, size, record);
  } finally {
    closeSync(fd);
  }
}
