/**
 * `-f, --file` and `/file`: the files named (globs expanded), read and checked before anything
 * is sent. Every refusal is a UsageError naming the file (exit 2, nothing sent): a missing or
 * unreadable file, a folder, a binary file, one over the size limit, or too much in all.
 *
 * A file whose first bytes are a PNG, JPEG, WebP or GIF is an image, read whole (up to the
 * image limit, image-input.ts) and not counted with the text; an http(s) address is an image the
 * service fetches, nothing read. Both go as `image_url` parts (image-input.ts prepareImages).
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeBytes, formatBytes } from '../core/byte-size.js';
import { UsageError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { globFiles, hasGlobMagic } from './glob.js';
import { detectFormat, isGif } from '../images/file-format.js';
import type { InputFormat, Size } from '../images/shrink.js';

/**
 * The largest image file svc sends or scales: OpenAI's limit for one image, which other services
 * keep to or stay under. A bigger file is refused before it is read whole.
 */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** The extension an image is kept under (storage/image-store.ts), by what its bytes are. */
export const IMAGE_EXTENSION: Readonly<Record<InputFormat, 'png' | 'jpg' | 'webp' | 'gif'>> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

/** An image ready to send: the bytes that go, what they are, and where they came from. */
export interface ImageInput {
  /** The format of `bytes` (a GIF that had to be changed is a PNG). */
  format: InputFormat;
  mime: string;
  bytes: Buffer;
  /** The picture's size as it is shown (a photo's EXIF turn applied). */
  width: number;
  height: number;
  /** The size of the file it was scaled down from, when it was. */
  scaledFrom?: Size;
  /** The SHA-256 of `bytes`, in hex: the name it is kept under. */
  sha256: string;
}

/** The image format the first bytes say, or undefined for anything else (a text file among them). */
export function imageFormatOf(head: Uint8Array): InputFormat | undefined {
  return detectFormat(head) ?? (isGif(head) ? 'gif' : undefined);
}

/** True when `arg` is an http(s) address (`-f https://…/x.png`): sent as it is, for the service to fetch. */
export function isImageUrl(arg: string): boolean {
  if (!/^https?:\/\//i.test(arg)) return false;
  try {
    return new URL(arg).host !== '';
  } catch {
    return false;
  }
}

const MIB = 1024 * 1024;
/**
 * Per file. Text this size is about 250,000 tokens, more than most models take in a whole
 * request: a bigger file is almost surely a mistake (a log, a dump), and would be refused by
 * the service after being uploaded.
 */
export const MAX_FILE_BYTES = 1 * MIB;
/** All the files of one message together (a generous `-f 'src/**\/*.ts'`). */
export const MAX_TOTAL_BYTES = 4 * MIB;

export interface AttachedFile {
  /** The path as the user wrote it (or as a glob found it, relative to where it was typed). */
  name: string;
  /** The absolute path, to attach each file once. */
  path: string;
  /** The file's text, a leading byte-order mark removed. */
  text: string;
  /** Its size on disk. */
  bytes: number;
  /**
   * An image (its text is then ''): the file's bytes as read, then as they go once prepared
   * (image-input.ts prepareImages), or the http(s) address the service fetches.
   */
  image?: { data: Buffer } | { input: ImageInput } | { url: string };
}

/** How the refusals name the option: "-f" on the command line, "/file" in the session. */
export type FileOption = '-f' | '/file';

/**
 * Read every file `args` name, in order (each glob's matches sorted), each once. `already`: the
 * files attached before (the session's /file), counted in the total and not attached again.
 */
export function readAttachments(args: readonly string[], cwd: string, option: FileOption = '-f', already: readonly AttachedFile[] = []): AttachedFile[] {
  const files: AttachedFile[] = [];
  const seen = new Set(already.map((file) => file.path));
  let total = already.reduce((sum, file) => sum + (file.image ? 0 : file.bytes), 0);
  for (const arg of args) {
    if (isImageUrl(arg)) {
      if (!seen.has(arg)) files.push({ name: arg, path: arg, text: '', bytes: 0, image: { url: arg } });
      seen.add(arg);
      continue;
    }
    for (const name of filesNamedBy(arg, cwd, option)) {
      const path = resolve(cwd, name);
      if (seen.has(path)) continue;
      seen.add(path);
      const file = readOne(name, path, option);
      if (file.image) {
        files.push(file);
        continue;
      }
      total += file.bytes;
      if (total > MAX_TOTAL_BYTES) {
        throw refused(option, `${option}: the files come to more than ${formatBytes(MAX_TOTAL_BYTES)} together (at ${name})`, 'attach fewer files, or the parts that matter');
      }
      files.push(file);
    }
  }
  return files;
}

/** The paths one argument names: itself when it exists, else a glob's matches. */
function filesNamedBy(arg: string, cwd: string, option: FileOption): string[] {
  if (arg === '') throw new UsageError(`${option} needs a path`);
  const path = resolve(cwd, arg);
  let isFolder: boolean | undefined;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT' && errnoCode(error) !== 'ENOTDIR') throw cannotRead(arg, error, option);
  }
  if (isFolder) {
    const base = arg.replace(/\/+$/, '');
    throw new UsageError(`${option} ${arg} is a folder; attach its files with a glob (quoted, so svc expands it): ${option} '${base}/*'`, {
      hint: `or '${base}/**/*.md' for every .md file below it`,
    });
  }
  if (isFolder === false) return [arg];
  if (!hasGlobMagic(arg)) throw refused(option, `${option} ${arg}: no such file`);
  const matches = globFiles(arg, cwd);
  if (matches.length === 0) throw refused(option, `${option} '${arg}' matched no file`);
  return matches;
}

/** A refusal, saying what became of the message: not sent (-f), or the files not attached (/file). */
export function refused(option: FileOption, what: string, hint?: string): UsageError {
  return new UsageError(`${what}; ${option === '-f' ? 'nothing was sent' : 'nothing attached'}`, { hint });
}

function cannotRead(name: string, error: unknown, option: FileOption): UsageError {
  return refused(option, `${option} ${name}: cannot read it: ${describeSystemError(error)}`);
}

/** The first bytes, enough to tell an image by (image-input.ts imageFormatOf). */
const HEAD_BYTES = 64;

/**
 * At most the limit + 1 bytes are read (MAX_FILE_BYTES for text, MAX_IMAGE_BYTES for an
 * image), whatever the file claims to be: a file growing while read, `-f <(command)` (a pipe) or
 * /dev/zero cannot take more memory than that.
 */
function readOne(name: string, path: string, option: FileOption): AttachedFile {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw cannotRead(name, error, option);
  }
  let bytes: Buffer;
  let image = false;
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    let length = readFully(fd, head, 0);
    image = imageFormatOf(head.subarray(0, length)) !== undefined;
    const limit = image ? MAX_IMAGE_BYTES : MAX_FILE_BYTES;
    const tooLarge = (): UsageError => (image ? imageTooLarge(option, name) : tooBig(name, option));
    if (fstatSync(fd).size > limit) throw tooLarge();
    const buffer = Buffer.alloc(Math.max(limit + 1, HEAD_BYTES));
    head.copy(buffer, 0, 0, length);
    length = readFully(fd, buffer, length);
    if (length > limit) throw tooLarge();
    bytes = buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw cannotRead(name, error, option);
  } finally {
    closeSync(fd);
  }
  if (image) return { name, path, text: '', bytes: bytes.length, image: { data: Buffer.from(bytes) } };
  return { name, path, text: textOf(name, bytes, option), bytes: bytes.length };
}

/** Read into `buffer` from `length` on until the file ends or the buffer is full; the length read in all. */
function readFully(fd: number, buffer: Buffer, length: number): number {
  while (length < buffer.length) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return length;
}

/** The refusal of an image file over MAX_IMAGE_BYTES, read here or handed to prepareImage. */
export function imageTooLarge(option: FileOption, name: string): UsageError {
  return refused(option, `${option} ${name} is larger than ${describeBytes(MAX_IMAGE_BYTES)}, the most svc sends of one image`, 'make it smaller first (e.g. a JPEG of 2048 pixels on its long side)');
}

function tooBig(name: string, option: FileOption): UsageError {
  return refused(option, `${option} ${name} is larger than ${formatBytes(MAX_FILE_BYTES)}, the most svc attaches from one file`, 'attach the part that matters (e.g. tail -n 200 file | svc chat "...")');
}

/** UTF-8 text, or a refusal: a NUL byte or an invalid sequence means it is not text. */
function textOf(name: string, bytes: Buffer, option: FileOption): string {
  const binary = (): UsageError => refused(option, `${option} ${name} is not a text file (binary, or not UTF-8)`);
  if (bytes.includes(0)) throw binary();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw binary();
  }
  return text.replace(/^\uFEFF/, '');
}
