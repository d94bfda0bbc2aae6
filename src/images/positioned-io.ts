/** Reads and writes at a position of an open file, to the end of what was asked (short reads and writes resumed). */
import { readSync, writeSync } from 'node:fs';

/** Up to `length` bytes from `position` (fewer at the end of the file). */
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

/** All of `bytes` at `position`. */
export function writeAt(fd: number, bytes: Buffer, position: number): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, position + written);
}
