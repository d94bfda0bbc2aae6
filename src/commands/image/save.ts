/**
 * Giving a finished temporary file its real name. Without --force, link() makes the name and
 * fails if it exists, so two svc processes racing for one name cannot both win and nothing is
 * overwritten; with --force, rename() replaces the file in one step.
 */
import { linkSync, renameSync, rmSync } from 'node:fs';
import { SvcError } from '../../errors.js';

/** The error for a file that is there already and is not to be replaced (no --force). */
export function alreadyExists(path: string): SvcError {
  return new SvcError(`${path} already exists; it was kept`, { hint: 'choose another name with -o, or pass --force to replace it' });
}

export function commitFile(tempPath: string, finalPath: string, force: boolean): void {
  if (force) {
    renameSync(tempPath, finalPath);
    return;
  }
  try {
    linkSync(tempPath, finalPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw alreadyExists(finalPath);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    // A file system without hard links: fall back to rename (the existence check came earlier).
    renameSync(tempPath, finalPath);
    return;
  }
  rmSync(tempPath, { force: true });
}
