/**
 * Files written whole or not at all, through a hidden temporary name beside them: a crash or a
 * full disk leaves the old file or the new one, never half of either, and a failure leaves no
 * temporary file behind. A file replaced is written here; a new file that must not replace
 * anything is write-new-file.ts; an image as it streams is images/temp-image-file.ts.
 *
 * The temporary name is `.svc-<pid>-<8 hex digits>.part`, in the folder the file ends up in (so
 * the final rename or link never crosses file systems), with a pattern that matches svc's own
 * such names and nothing else. Every caller creates the file exclusively ('wx'), so the random
 * part only has to keep two writers of one process from picking the same name, not be
 * unguessable: Math.random rather than node:crypto, which nothing else a one-shot chat does
 * needs, and which costs start-up to load.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** svc's own temporary names, and nothing else: what a clean-up may remove. */
export const TEMP_NAME = /^\.svc-\d+-[0-9a-f]{8}\.part$/;

/**
 * 8 random hex digits from Math.random (which V8 seeds from the system's entropy in every
 * process): for names and ids that must not collide, not be unguessable (batch/records.ts too).
 */
export function randomHex8(): string {
  return Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0');
}

/** A fresh temporary path in `dir`. */
export function tempPathIn(dir: string): string {
  return join(dir, `.svc-${process.pid}-${randomHex8()}.part`);
}

/**
 * Replace the file at `path` whole: the data goes to a temporary file beside it, which is then
 * renamed over the name. Throws what went wrong; the caller says what it means (an error, or only
 * a cache not kept).
 */
export function replaceFile(path: string, data: string | Uint8Array, mode: number): void {
  const temp = tempPathIn(dirname(path));
  try {
    writeFileSync(temp, data, { mode, flag: 'wx' });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
