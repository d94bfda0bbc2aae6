/**
 * Whether a conversation's next turn could be saved, found before anything is sent: the folder
 * is a file, read-only or not ours, or the conversation's path is something else or not writable.
 * Each is an error that says why and how to fix it (or --no-save); a full disk can only be found
 * when writing.
 */
import { accessSync, constants } from 'node:fs';
import { SvcError } from '../core/errors.js';
import { describeSystemError } from '../core/system-errors.js';
import { ensurePrivateDir } from '../storage/private-dir.js';
import { entryAt } from './file-entries.js';

export function checkSavable(dir: string, path: string): void {
  const fixOrSkip = 'fix it, or add --no-save to keep nothing';
  try {
    const dirEntry = entryAt(dir);
    if (dirEntry.kind === 'file') throw new SvcError(`cannot save conversations in ${dir}: it is a file, not a folder`, { hint: 'move that file away, or add --no-save to keep nothing' });
    ensurePrivateDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new SvcError(`cannot save conversations in ${dir}: ${describeSystemError(error)}`, { hint: fixOrSkip, cause: error });
  }
  try {
    const entry = entryAt(path);
    if (entry.kind === 'other') throw new SvcError(`cannot save to ${path}: it is ${entry.what}`, { hint: 'move it away, or choose another --session name' });
    if (entry.kind === 'file') accessSync(path, constants.W_OK);
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new SvcError(`cannot save to ${path}: ${describeSystemError(error)}`, { hint: `give it back to yourself (chmod u+rw ${path}), or add --no-save`, cause: error });
  }
}
