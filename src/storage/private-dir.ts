import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * Make sure `dir` exists and only its owner can enter it (0700): it holds the API key.
 * A folder that already exists open to others is tightened, since it is svc's own: group and
 * other lose every right, and the owner keeps exactly what it had (a folder its owner made
 * read-only stays so, and a write to it fails and is reported, rather than being allowed).
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return; // modes mean nothing there
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0) chmodSync(dir, mode & 0o700);
}

/**
 * A file that holds a secret and can be read by group or others (a copy from another machine, an
 * unzip, a hand edit under a wide umask) is made owner-only (0600), as svc writes it. Returns what
 * to tell the user when the mode was wrong, and whether it was fixed; undefined when there was
 * nothing to do (no file, or already private).
 */
export function tightenSecretFile(path: string): { message: string; fixed: boolean } | undefined {
  if (process.platform === 'win32') return undefined;
  let mode: number;
  try {
    const stat = statSync(path); // through a symlink: the mode that matters is the target's
    if (!stat.isFile()) return undefined; // a folder or the like is reported by the reader
    mode = stat.mode & 0o777;
  } catch {
    return undefined; // no file: nothing to protect
  }
  if ((mode & 0o077) === 0) return undefined;
  const was = `mode ${mode.toString(8).padStart(4, '0')}`;
  try {
    chmodSync(path, 0o600);
  } catch {
    return { message: `${path} can be read by other users (${was}) and svc could not change that: run chmod 600 ${path}`, fixed: false };
  }
  return { message: `${path} could be read by other users (${was}); svc made it owner-only (mode 0600)`, fixed: true };
}
