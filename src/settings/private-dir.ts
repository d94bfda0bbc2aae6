import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * Make sure `dir` exists and only its owner can enter it (0700): it holds the API key.
 * A folder that already exists with wider modes is tightened, since it is svc's own.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return; // modes mean nothing there
  const mode = statSync(dir).mode & 0o777;
  if (mode !== 0o700) chmodSync(dir, 0o700);
}
