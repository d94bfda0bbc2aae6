/**
 * What is at a conversation's path, and its bytes, without ever opening anything that is not a
 * regular file (a FIFO or a device would block, a folder or a dangling link is not svc's); and
 * which files of the folder are conversations.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { SvcError, UsageError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { parseJsonLines, readJsonLines, type JsonLines } from '../storage/jsonl-file.js';
import { CONVERSATION_EXTENSION as EXTENSION, isConversationName } from '../core/names.js';

/** Files up to this size are read whole for a quick look (each); larger ones in pieces. */
const MAX_RAW_BYTES = 16 * 1024 * 1024;

/**
 * A quick look at a conversation file's raw text: false when `mayHold` says it cannot match, its
 * lines (parsed from the bytes already read) when it may, undefined when it was not looked at (too
 * large, or it cannot be read: whoever loads it next says why).
 */
export function quickLook(path: string, size: number, mayHold: (raw: string) => boolean): false | JsonLines | undefined {
  if (size > MAX_RAW_BYTES) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  return mayHold(bytes.toString('utf8')) && parseJsonLines(bytes);
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

/**
 * The lines of conversation `name`'s file at `path`, and its time; throws, saying why, when there
 * is no such file, it is not a regular file, or it cannot be read. `known`: what a listing's look
 * at the folder just found there (no second stat).
 */
export function readConversationLines(path: string, name: string, known?: ConversationFile): { lines: JsonLines; mtimeMs: number } {
  let entry: Entry;
  try {
    entry = known ? { kind: 'file', mtimeMs: known.mtimeMs, size: known.size } : entryAt(path);
    if (entry.kind === 'file') return { lines: readJsonLines(path), mtimeMs: entry.mtimeMs };
  } catch (error) {
    const code = errnoCode(error);
    const hint = code === 'EACCES' || code === 'EPERM' ? `give it back to yourself: chmod u+rw ${path}` : undefined;
    throw new SvcError(`cannot read the conversation "${name}" (${path}): ${describeSystemError(error)}`, { hint, cause: error });
  }
  if (entry.kind === 'missing') throw new UsageError(`no saved conversation named "${name}"`, { hint: 'see them with `svc sessions list`' });
  throw new SvcError(`${path} is ${entry.what}, not a saved conversation`, { hint: 'move it away, or choose another name' });
}

export interface ConversationFile {
  name: string;
  mtimeMs: number;
  size: number;
  /** Which file it is: a file saved through a new one (svc's whole writes, most editors) gets a new number. */
  ino: number;
  /** When its contents or modes last changed: no one can set it back (mtime can be, with touch -r or rsync). */
  ctimeMs: number;
}

/**
 * The conversation files in `dir`, newest first by file time: names svc could have made, regular
 * files. Anything else in the folder is not svc's and is passed over without a word.
 */
export function conversationFiles(dir: string): ConversationFile[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw new SvcError(`cannot read the saved conversations in ${dir}: ${describeSystemError(error)}`, { cause: error });
  }
  const found: ConversationFile[] = [];
  // One stat per file, and the cheapest: thousands of conversations are listed this way (-n 20
  // on 10,000 still looks at every file's time), so no path.join, no exception for a file gone.
  const prefix = `${dir}${sep}`;
  for (const file of files) {
    const name = file.slice(0, -EXTENSION.length);
    if (!file.endsWith(EXTENSION) || !isConversationName(name)) continue;
    const stat = statSync(`${prefix}${file}`, { throwIfNoEntry: false });
    if (stat?.isFile()) found.push({ name, mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, ctimeMs: stat.ctimeMs });
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs);
}
