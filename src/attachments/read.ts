/**
 * `-f, --file` and `/file`: the files named (globs expanded), read and checked before anything
 * is sent. Every refusal is a UsageError naming the file (exit 2, nothing sent): a missing or
 * unreadable file, a folder, a binary file, one over the size limit, or too much in all.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatBytes } from '../core/byte-size.js';
import { UsageError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { globFiles, hasGlobMagic } from './glob.js';

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
  let total = already.reduce((sum, file) => sum + file.bytes, 0);
  for (const arg of args) {
    for (const name of filesNamedBy(arg, cwd, option)) {
      const path = resolve(cwd, name);
      if (seen.has(path)) continue;
      seen.add(path);
      const file = readOne(name, path, option);
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

/**
 * At most MAX_FILE_BYTES + 1 bytes are read, whatever the file claims to be: a file growing
 * while read, `-f <(command)` (a pipe) or /dev/zero cannot take more memory than that.
 */
function readOne(name: string, path: string, option: FileOption): AttachedFile {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw cannotRead(name, error, option);
  }
  let bytes: Buffer;
  try {
    if (fstatSync(fd).size > MAX_FILE_BYTES) throw tooBig(name, option);
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_FILE_BYTES) throw tooBig(name, option);
    }
    bytes = buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw cannotRead(name, error, option);
  } finally {
    closeSync(fd);
  }
  return { name, path, text: textOf(name, bytes, option), bytes: bytes.length };
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
