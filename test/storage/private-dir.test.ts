/**
 * svc's private folders (src/storage/private-dir.ts): made owner-only, an existing one open to
 * others tightened, and tightening only ever takes rights away.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from '../../src/storage/private-dir.js';

const made: string[] = [];
const fresh = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-private-'));
  made.push(dir);
  return dir;
};
const modeOf = (dir: string): number => statSync(dir).mode & 0o777;
afterEach(() => {
  for (const dir of made.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe.skipIf(process.platform === 'win32')('ensurePrivateDir', () => {
  it('makes a missing folder owner-only', () => {
    const dir = join(fresh(), 'svc');
    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('takes group and other rights away from a folder open to them', () => {
    const dir = fresh();
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('never gives the owner a right it did not have: a read-only folder stays read-only', () => {
    const dir = fresh();
    chmodSync(dir, 0o500);
    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o500);
    chmodSync(dir, 0o555);
    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o500);
  });
});
