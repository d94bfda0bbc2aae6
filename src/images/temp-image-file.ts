/**
 * A decoded image on its way to disk: written to a hidden temporary file in the folder it will
 * end up in (so the final rename cannot cross file systems), never visible under its real name
 * until it is whole and checked. A write that fails (a full disk, a folder made read-only under
 * us) is reported in words with the folder's path; the caller then removes every such file.
 */
import { closeSync, lstatSync, openSync, readdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SvcError } from '../core/errors.js';
import { describeSystemError } from '../core/system-errors.js';
import type { BlobSink } from '../api/images/blob-scanner.js';
import { makeRoom, ROOM_HEAD_BYTES, type Room } from './metadata-room.js';
import { writeProvenance } from './metadata-writer.js';
import type { Provenance } from './provenance.js';
import { version } from '../core/version.js';
import { TEMP_NAME, tempPathIn } from '../storage/replace-file.js';

/**
 * A temporary file untouched this long belongs to an svc that was killed (SIGKILL, a crash, a power
 * cut) before it could remove it: a live one writes as the image arrives, and the service may stay
 * silent for at most the timeout (minutes), never an hour.
 */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Remove the stale temporary files svc left in `dir`: only names of svc's own making, only plain
 * files, only the current user's, only those older than {@link STALE_TEMP_MS}. Best effort: a file
 * that cannot be removed is left alone. Returns how many were removed.
 */
export function removeStaleTempFiles(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isFile() || now - stat.mtimeMs < STALE_TEMP_MS) continue;
      if (uid !== undefined && stat.uid !== uid) continue; // another user's: not ours to judge
      unlinkSync(path);
      removed += 1;
    } catch {
      // Gone already (another svc cleaned up), or not ours to remove: leave it.
    }
  }
  return removed;
}

function cannotWrite(path: string, error: unknown): SvcError {
  return new SvcError(`cannot write the image in ${dirname(path)}: ${describeSystemError(error)}; nothing was saved`, {
    hint: 'free some space or choose another folder with -o',
    cause: error,
  });
}

/** How much of the start of the file is kept in memory, for the format and size checks. */
const HEAD_BYTES = 64 * 1024;

export class TempImageFile implements BlobSink {
  readonly path: string;
  bytes = 0;
  #fd: number | undefined;
  readonly #head: Buffer[] = [];
  #headLength = 0;
  /**
   * With `metadata`, the first bytes are held until the format is known and room for the
   * provenance is made (metadata-room.ts); undefined once decided (or when not wanted).
   */
  #undecided: Buffer[] | undefined;
  #room: Room = { kind: 'none' };

  /** What is known before the image comes, for the room made for the provenance (PNG text chunks). */
  readonly #known: { prompt: string; software: string } | undefined;

  /**
   * `metadata`: make room for {@link addProvenance} as the bytes stream in, with the prompt
   * asked for (PNG's "Description" chunk is written at once).
   */
  constructor(dir: string, options: { metadata?: { prompt: string } | undefined } = {}) {
    if (options.metadata) {
      this.#undecided = [];
      this.#known = { prompt: options.metadata.prompt, software: `svc ${version}` };
    }
    this.path = tempPathIn(dir);
    try {
      this.#fd = openSync(this.path, 'wx', 0o666);
    } catch (error) {
      throw cannotWrite(this.path, error);
    }
  }

  /** The first bytes written (up to 64 KiB). */
  get head(): Buffer {
    return Buffer.concat(this.#head);
  }

  write(bytes: Buffer): void {
    if (bytes.length === 0 || this.#fd === undefined) return;
    if (this.#undecided !== undefined) {
      this.#undecided.push(Buffer.from(bytes));
      const held = Buffer.concat(this.#undecided);
      if (held.length < ROOM_HEAD_BYTES) return;
      this.#decide(held);
      return;
    }
    this.#write(bytes);
  }

  /** Write the held start with its room made; later bytes go straight through. */
  #decide(held: Buffer): void {
    this.#undecided = undefined;
    const { bytes, room } = makeRoom(held, this.#known!);
    this.#room = room;
    this.#write(bytes);
  }

  #write(bytes: Buffer): void {
    if (this.#headLength < HEAD_BYTES) {
      const part = bytes.subarray(0, HEAD_BYTES - this.#headLength);
      this.#head.push(Buffer.from(part));
      this.#headLength += part.length;
    }
    const fd = this.#fd;
    if (fd === undefined) return;
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    } catch (error) {
      throw cannotWrite(this.path, error);
    }
    this.bytes += bytes.length;
  }

  end(): void {
    if (this.#undecided !== undefined && this.#fd !== undefined) this.#decide(Buffer.concat(this.#undecided));
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd === undefined) return;
    try {
      // A WebP that got a VP8X chunk is 18 bytes longer than its RIFF header says: made right
      // here, so the file is whole even if its metadata is never written.
      if (this.#room.kind === 'webp' && this.#room.grew > 0) {
        const size = Buffer.alloc(4);
        size.writeUInt32LE(this.bytes - 8, 0);
        writeSync(fd, size, 0, 4, 4);
      }
      closeSync(fd); // some file systems (NFS) report a failed write only here
    } catch (error) {
      throw cannotWrite(this.path, error);
    }
  }

  /**
   * Write `record` into the finished file, in the room made for it; the file's size follows.
   * Throws MetadataNotWritten when the file has no room (the image is then kept as it came,
   * except that a WebP's RIFF size is made right).
   */
  addProvenance(record: Provenance): void {
    this.end();
    this.bytes = writeProvenance(this.path, this.#room, record);
  }

  /** Remove the temporary file (after a failure, or once it was copied elsewhere). */
  discard(): void {
    try {
      this.end();
    } catch {
      // Being thrown away: a failure to close it changes nothing.
    }
    try {
      rmSync(this.path, { force: true });
    } catch {
      // The folder turned read-only under us: a later run removes it (removeStaleTempFiles).
    }
  }
}
