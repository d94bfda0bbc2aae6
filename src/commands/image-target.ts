/**
 * Where `svc image` writes, settled before the request is sent so that a typo, a missing or
 * read-only folder, or a name already taken costs no request: the folder exists, is a folder and
 * can be written; the file name is free (or --force); image bytes never go to a terminal unasked.
 * svc's stale temporary files in that folder (from a run that was killed) are removed on the way.
 */
import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { removeStaleTempFiles } from '../images/temp-image-file.js';
import { SvcError, UsageError } from '../core/errors.js';
import type { IO } from '../terminal/io.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { existsBeforeStart, freshPaths, nameTaken, notAFile, numbered, outputLocation, pathsBeside } from '../images/file-names.js';
import type { ImagePlan } from './image-options.js';

/**
 * Below this much free space a disk counts as full before anything is sent. Only a disk that is
 * truly full: any higher bound would guess at the image's size and could refuse one that fits
 * (a disk that fills up mid-write is still reported, and nothing half-written is left).
 */
const FULL_DISK_BYTES = 64 * 1024;

/** The longest file name most file systems take (ext4, APFS, NTFS: 255 bytes or units). */
const MAX_NAME_BYTES = 255;

export interface ImageTarget {
  /** Where the temporary files go: the final folder, so the last rename stays on one disk. */
  dir: string;
  /** The final paths for `count` images (none for -o -). */
  paths(count: number): string[];
}

/** True when `path` (relative to `cwd`) is an existing folder, links followed (as `cp` does). */
export function isFolder(cwd: string, path: string): boolean {
  try {
    return statSync(resolve(cwd, path)).isDirectory();
  } catch {
    return false;
  }
}

/** The folder must exist, be a folder, and take new files; `what` names it for the user. */
export function checkFolder(dir: string, what: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') throw new UsageError(`${what}: the folder ${dir} does not exist`, { hint: 'create it first (mkdir -p), or choose another path' });
    if (code === 'ENOTDIR') throw new UsageError(`${what}: ${dir} is not a folder (part of the path is a file)`);
    throw cannotWriteIn(dir, error);
  }
  if (!isDirectory) throw new UsageError(`${what}: ${dir} is a file, not a folder`);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw cannotWriteIn(dir, error);
  }
  if (freeBytes(dir) < FULL_DISK_BYTES) {
    throw cannotWriteIn(dir, Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
  }
}

/** Space free for the user on the disk holding `dir`; unknown counts as plenty. */
function freeBytes(dir: string): number {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function cannotWriteIn(dir: string, error: unknown): SvcError {
  return new SvcError(`cannot write in ${dir}: ${describeSystemError(error)}; nothing was sent`, {
    hint: 'choose a folder you can write with -o, or change this one',
    cause: error,
  });
}

function chooseTarget(io: IO, plan: ImagePlan): ImageTarget {
  const output = plan.output;
  if (output.kind === 'stdout') {
    // Raw image bytes on a terminal wreck the session (and may carry escape sequences).
    if (io.stdoutIsTTY && !plan.force) {
      throw new UsageError('-o - would write the image bytes to this terminal', { hint: 'redirect it (-o - > image.png) or pipe it (-o - | viewer), or pass --force' });
    }
    const dir = tmpdir();
    checkFolder(dir, 'the temporary folder');
    return { dir, paths: () => [] };
  }
  if (output.kind === 'auto' || output.kind === 'folder') {
    const dir = output.kind === 'auto' ? io.cwd : resolve(io.cwd, output.path);
    checkFolder(dir, output.kind === 'auto' ? 'the current folder' : `-o ${output.path}`);
    return { dir, paths: (count) => freshPaths(dir, plan.prompt, plan.format, count) };
  }
  const location = outputLocation(io.cwd, output.path);
  if (output.kind === 'beside') {
    checkFolder(location.dir, `the folder of ${output.path}`);
    return { dir: location.dir, paths: (count) => pathsBeside(location.path, plan.format, count) };
  }
  checkFolder(location.dir, `-o ${output.path}`);
  if (Buffer.byteLength(location.name) > MAX_NAME_BYTES) {
    throw new UsageError(`-o: the file name is ${Buffer.byteLength(location.name)} bytes long, more than the ${MAX_NAME_BYTES} file systems take`);
  }
  // The name, and with -n N the names name-1 … name-N the images will have: each is looked at
  // before any request. lstat, not exists: a symbolic link by that name (even one pointing
  // nowhere) is taken too.
  const variants = plan.count ?? 1;
  const written = variants > 1 ? numbered(location.path, variants) : [location.path];
  if (!plan.force) {
    const taken = [...new Set([location.path, ...written])].find((path) => nameTaken(path));
    if (taken !== undefined) throw existsBeforeStart(taken);
  }
  const special = plan.force ? written.map((path) => notAFile(path)).find((error) => error !== undefined) : undefined;
  if (special) throw special;
  return { dir: location.dir, paths: (count) => numbered(location.path, count) };
}

/** Check the target and clear svc's stale temporary files out of its folder. */
export function prepareTarget(io: IO, plan: ImagePlan): ImageTarget {
  const target = chooseTarget(io, plan);
  removeStaleTempFiles(target.dir);
  return target;
}
