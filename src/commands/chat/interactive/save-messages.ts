/**
 * `/save <file.json>`: the messages array written to a file of the user's choosing, never over
 * an existing file and never half-written. Problems are said in words: a folder that does not
 * exist is named, as `cp` would, rather than "ENOENT: no such file or directory, open ...".
 */
import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RequestMessage } from '../../../api/chat-types.js';
import { describeSystemError, errnoCode } from '../../../core/system-errors.js';

/** `~/x.json` as a shell would read it (the session has no shell to expand it), else relative to `cwd`. */
export function savePath(name: string, cwd: string, env: Record<string, string | undefined>): string {
  if (name === '~' || name.startsWith('~/')) return join(env.HOME || homedir(), name.slice(1));
  return resolve(cwd, name);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const giveAFileName = (folder: string): string => `${folder} is a folder: give a file name (e.g. ${join(folder, 'conversation.json')})`;
const noSuchFolder = (folder: string): string => `could not save: the folder ${folder} does not exist (create it first, or choose another path)`;

/** Why `path` could not be created, in words that say what to do. */
function whyNot(path: string, error: unknown): string {
  const folder = dirname(path);
  switch (errnoCode(error)) {
    case 'EEXIST':
      return isFolder(path) ? giveAFileName(path) : `${path} exists; not overwritten (choose another name)`;
    case 'ENOENT':
      return noSuchFolder(folder);
    case 'ENOTDIR':
      return `could not save: a part of ${folder} is a file, not a folder`;
    default:
      return `could not save to ${path}: ${describeSystemError(error)}`;
  }
}

/**
 * Write `messages` to `path`; returns the line to show: what was saved, or why not. `asFolder`:
 * the name the user typed ended in `/`, which names a folder even where none exists yet (the
 * resolved path has lost the slash), never a file to create.
 */
export function saveMessages(path: string, messages: RequestMessage[], asFolder = false): string {
  if (asFolder) return isFolder(path) ? giveAFileName(path) : noSuchFolder(path);
  let fd: number;
  try {
    // 'wx': an existing file (or folder) is never replaced.
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    return whyNot(path, error);
  }
  try {
    const bytes = Buffer.from(`${JSON.stringify(messages, null, 2)}\n`);
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    closeSync(fd);
  } catch (error) {
    // A full disk: the file is ours (just made), and half a file is worse than none.
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    rmSync(path, { force: true });
    return `could not save to ${path}: ${describeSystemError(error)}; nothing was written`;
  }
  return `(saved ${messages.length} messages to ${path})`;
}
