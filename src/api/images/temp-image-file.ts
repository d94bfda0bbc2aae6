/**
 * A decoded image on its way to disk: written to a hidden temporary file in the folder it will
 * end up in (so the final rename cannot cross file systems), never visible under its real name
 * until it is whole and checked.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobSink } from './blob-scanner.js';

/** How much of the start of the file is kept in memory, for the format and size checks. */
const HEAD_BYTES = 64 * 1024;

export class TempImageFile implements BlobSink {
  readonly path: string;
  bytes = 0;
  #fd: number | undefined;
  readonly #head: Buffer[] = [];
  #headLength = 0;

  constructor(dir: string) {
    this.path = join(dir, `.svc-${process.pid}-${randomBytes(4).toString('hex')}.part`);
    this.#fd = openSync(this.path, 'wx', 0o666);
  }

  /** The first bytes written (up to 64 KiB). */
  get head(): Buffer {
    return Buffer.concat(this.#head);
  }

  write(bytes: Buffer): void {
    if (bytes.length === 0 || this.#fd === undefined) return;
    if (this.#headLength < HEAD_BYTES) {
      const part = bytes.subarray(0, HEAD_BYTES - this.#headLength);
      this.#head.push(Buffer.from(part));
      this.#headLength += part.length;
    }
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd, bytes, offset);
    this.bytes += bytes.length;
  }

  end(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Remove the temporary file (after a failure, or once it was copied elsewhere). */
  discard(): void {
    this.end();
    rmSync(this.path, { force: true });
  }
}
