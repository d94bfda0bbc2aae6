/**
 * The lock of a results file (src/storage/file-lock.ts): one holder at a time, the holder named,
 * and a lock left by a process that is gone never blocks the next run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockedError, lockFile, STALE_FOREIGN_LOCK_MS } from '../../src/storage/file-lock.js';

let dir: string;
let file: string;
let sleeper: ChildProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  file = join(dir, 'results.jsonl');
});
afterEach(() => {
  sleeper?.kill();
  sleeper = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A live process other than this one. */
function livePid(): number {
  sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  return sleeper.pid!;
}

/** A pid no process has now: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true', { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

const writeOwner = (pid: number, host = hostname()) => writeFileSync(`${file}.lock`, JSON.stringify({ pid, host, since: '2026-11-24T10:00:00.000Z' }));

describe('lockFile', () => {
  it('takes a free lock, writes who holds it, and releases it', () => {
    const lock = lockFile(file);
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    lock.release();
    lock.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('refuses while a live process on this host holds it, naming it', () => {
    const pid = livePid();
    writeOwner(pid);
    let thrown: unknown;
    try {
      lockFile(file);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LockedError);
    expect((thrown as LockedError).owner).toMatchObject({ pid, host: hostname() });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(pid);
  });

  it('takes over a lock whose process is gone', async () => {
    writeOwner(await deadPid());
    const lock = lockFile(file);
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('a lock from another host is trusted for a day, then taken over', () => {
    writeOwner(1, 'another-host.example');
    expect(() => lockFile(file)).toThrow(LockedError);
    const old = (Date.now() - STALE_FOREIGN_LOCK_MS - 60_000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    lockFile(file).release();
  });

  it('an unreadable lock file is judged by its age', () => {
    writeFileSync(`${file}.lock`, 'garbage');
    expect(() => lockFile(file)).toThrow(LockedError);
    const old = (Date.now() - STALE_FOREIGN_LOCK_MS - 60_000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    lockFile(file).release();
  });

  it('a second taker in the same process is refused while the first holds it', () => {
    const first = lockFile(file);
    expect(() => lockFile(file)).toThrow(LockedError);
    first.release();
    lockFile(file).release();
  });
});
