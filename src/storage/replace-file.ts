/**
 * A file replaced whole or not at all: the data goes to a temporary file beside it (temp-name.ts),
 * which is then renamed over the name, so a crash or a full disk leaves the old file or the new
 * one, never half of either, and a failure leaves no temporary file behind. Throws what went
 * wrong; the caller says what it means (an error, or only a cache not kept).
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tempPathIn } from './temp-name.js';

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
