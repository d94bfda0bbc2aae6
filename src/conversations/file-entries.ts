/**
 * What is at a conversation's path, and its bytes, without ever opening anything that is not a
 * regular file (a FIFO or a device would block, a folder or a dangling link is not svc's).
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { errnoCode } from '../core/system-errors.js';

/** A file's bytes, or undefined when it cannot be read (whoever loads it next says why). */
export function readWhole(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** What is at a conversation's path: nothing, a file to read, or something svc must not touch. */
export type Entry = { kind: 'missing' } | { kind: 'file'; mtimeMs: number; size: number } | { kind: 'other'; what: string };

export function entryAt(path: string): Entry {
  try {
    const stat = statSync(path);
    if (stat.isFile()) return { kind: 'file', mtimeMs: stat.mtimeMs, size: stat.size };
    // A FIFO or a device would block or never end: only regular files are ever opened.
    return { kind: 'other', what: stat.isDirectory() ? 'a folder' : 'not a regular file' };
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  try {
    if (lstatSync(path).isSymbolicLink()) return { kind: 'other', what: 'a symbolic link to nothing' };
  } catch {
    // Not there at all.
  }
  return { kind: 'missing' };
}
