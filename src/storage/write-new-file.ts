/**
 * A new file, written whole or not at all and never over anything already at its name (a file
 * made a moment ago by another process included): the text goes to a temporary file beside it,
 * which is then hard-linked to the name, since a link fails when the name is taken. A file system
 * without hard links gets a copy that refuses to replace anything just the same.
 */
import { constants, copyFileSync, linkSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCode } from '../core/system-errors.js';
import { tempPathIn } from './replace-file.js';

export interface NewFileErrors {
  /** The name was taken (before or during the write). */
  taken: () => Error;
  /** Any other failure to write it. */
  cannot: (error: unknown) => Error;
}

export function writeNewFile(path: string, text: string, mode: number, errors: NewFileErrors): void {
  const temp = tempPathIn(dirname(path));
  try {
    try {
      writeFileSync(temp, text, { flag: 'wx', mode });
    } catch (error) {
      throw errors.cannot(error);
    }
    try {
      linkSync(temp, path);
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') throw errors.taken();
      try {
        copyFileSync(temp, path, constants.COPYFILE_EXCL);
      } catch (copyError) {
        throw errnoCode(copyError) === 'EEXIST' ? errors.taken() : errors.cannot(copyError);
      }
    }
  } finally {
    rmSync(temp, { force: true });
  }
}
