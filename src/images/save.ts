/**
 * Giving finished temporary files their real names. Without --force, link() makes each name and
 * fails if it exists, so two svc processes racing for one name cannot both win and nothing is
 * overwritten; with --force, rename() replaces the file in one step (a symbolic link by that name
 * is replaced itself, never written through). Several images are saved all or none.
 */
import { linkSync, lstatSync, renameSync, rmSync } from 'node:fs';
import { SvcError, UsageError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { nameTaken } from './file-names.js';

/** What to do about a taken name (`/image`, which has no --force, says it its own way). */
export const EXISTS_HINT = 'choose another name with -o, or pass --force to replace it';

/**
 * A file that appeared under the name while the work was done (another process won the name):
 * the work is lost, so this is a failure (exit 1). Found before the work, it is a usage error
 * ({@link existsBeforeStart}).
 */
export function alreadyExists(path: string, note = 'it was kept'): SvcError {
  return new SvcError(`${path} already exists; ${note}`, { hint: EXISTS_HINT });
}

/**
 * The output file is there already and --force was not given, found before anything was sent or
 * written: a usage error (exit 2), like every other check of the command line's targets.
 */
export function existsBeforeStart(path: string, nothingDone = 'nothing was sent'): UsageError {
  return new UsageError(`${path} already exists; it was kept, and ${nothingDone}`, { hint: EXISTS_HINT });
}

/**
 * A device, pipe or socket by that name (`-o /dev/full --force`): --force replaces files, and a
 * rename over one of these would replace the device itself with a file, as root a system one.
 * Undefined when the name is free or a file, a folder or a link.
 */
export function notAFile(path: string, nothingDone = 'nothing was sent'): UsageError | undefined {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (stats.isFile() || stats.isDirectory() || stats.isSymbolicLink()) return undefined;
  return new UsageError(`${path} is not a file (a device, a pipe or a socket); --force replaces only files, and ${nothingDone}`, { hint: 'choose a file name with -o' });
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
