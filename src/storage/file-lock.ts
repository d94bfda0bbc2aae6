/**
 * One writer at a time for a file that a run appends to for a long while (svc batch's results
 * file): `<file>.lock`, created exclusively, holding who made it. A second run finds it and is
 * refused at once instead of writing into the same file.
 *
 * A lock whose process is gone (killed, crashed, the machine restarted) never blocks the next
 * run: on this host the process is asked for (signal 0); a lock from another host, or one
 * unreadable, counts as stale once older than {@link STALE_FOREIGN_LOCK_MS}.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** A lock from another machine (a shared folder) is trusted for this long, then taken over. */
export const STALE_FOREIGN_LOCK_MS = 24 * 60 * 60 * 1000;

export interface LockOwner {
  pid: number;
  host: string;
  /** When the lock was taken, ISO 8601. */
  since: string;
}

export interface HeldLock {
  readonly path: string;
  /** Remove the lock; safe to call more than once. */
  release(): void;
}

/** Another live process holds the lock. */
export class LockedError extends Error {
  constructor(
    readonly path: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(`${path} is held${owner ? ` by process ${owner.pid} on ${owner.host} since ${owner.since}` : ''}`);
  }
}

function ownerOf(path: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'string') return value as LockOwner;
  } catch {
    // Unreadable or half-written: judged by its age alone.
  }
  return undefined;
}

/** True when the process is alive (or alive but not ours to signal). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(path: string, now: number): boolean {
  const owner = ownerOf(path);
  if (owner && owner.host === hostname()) return owner.pid !== process.pid && !processAlive(owner.pid);
  try {
    return now - statSync(path).mtimeMs > STALE_FOREIGN_LOCK_MS;
  } catch {
    return true; // gone meanwhile
  }
}

function create(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Remove a stale lock. Two runs may find the same stale lock at once, and the second must not
 * remove the fresh lock the first made meanwhile: the lock is moved aside (atomic, so only one
 * run gets that file), looked at again, and put back if it turned out to be a live one.
 */
function clearStale(path: string, now: number): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: another run cleared it
  }
  if (!isStale(aside, now)) {
    try {
      linkSync(aside, path); // fails if yet another run holds the lock now: it stays theirs
    } catch {
      // the lock is held by someone else: ours to leave alone
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Take the lock of `file` (`<file>.lock`), or throw {@link LockedError} naming who holds it.
 * A stale lock is removed and taken. Other failures (a read-only folder) are thrown as they are.
 */
export function lockFile(file: string, now = Date.now()): HeldLock {
  const path = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(path)) {
      let held = true;
      return {
        path,
        release() {
          if (!held) return;
          held = false;
          rmSync(path, { force: true });
        },
      };
    }
    if (!isStale(path, now)) throw new LockedError(path, ownerOf(path));
    clearStale(path, now);
  }
  throw new LockedError(path, ownerOf(path));
}
