/**
 * Giving finished temporary files their real names. Without --force, link() makes each name and
 * fails if it exists, so two svc processes racing for one name cannot both win and nothing is
 * overwritten; with --force, rename() replaces the file in one step (a symbolic link by that name
 * is replaced itself, never written through). Several images are saved all or none.
 */
import { linkSync, renameSync, rmSync } from 'node:fs';
import { SvcError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { EXISTS_HINT, nameTaken, notAFile } from './file-names.js';

/**
 * A file that appeared under the name while the work was done (another process won the name):
 * the work is lost, so this is a failure (exit 1). Found before the work, it is a usage error
 * (file-names.ts, existsBeforeStart).
 */
export function alreadyExists(path: string, note = 'it was kept'): SvcError {
  return new SvcError(`${path} already exists; ${note}`, { hint: EXISTS_HINT });
}

export function commitFile(tempPath: string, finalPath: string, force: boolean): void {
  try {
    if (force) {
      const special = notAFile(finalPath, 'nothing was written');
      if (special) throw special;
      renameSync(tempPath, finalPath);
      return;
    }
    try {
      linkSync(tempPath, finalPath);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST') throw alreadyExists(finalPath);
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
      // A file system without hard links: fall back to rename (the existence check came earlier).
      renameSync(tempPath, finalPath);
      return;
    }
    rmSync(tempPath, { force: true });
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new SvcError(`cannot save ${finalPath}: ${describeSystemError(error)}`, { hint: 'choose another name or folder with -o', cause: error });
  }
}

/**
 * Save every image or none: all names are checked before the first is written (a clash writes
 * nothing), and if one still fails (another process took the name meanwhile) the ones already
 * saved by this call are removed again. With --force nothing is undone: it replaced files.
 */
export function commitAll(files: ReadonlyArray<{ tempPath: string; path: string }>, force: boolean): void {
  const several = files.length > 1;
  if (!force) {
    const taken = files.find(({ path }) => nameTaken(path));
    if (taken) throw alreadyExists(taken.path, several ? `it was kept, and none of the ${files.length} images was saved` : 'it was kept');
  }
  const saved: string[] = [];
  try {
    for (const { tempPath, path } of files) {
      commitFile(tempPath, path, force);
      saved.push(path);
    }
  } catch (error) {
    if (!force) for (const path of saved) rmSync(path, { force: true });
    throw error;
  }
}
