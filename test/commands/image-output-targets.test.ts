/**
 * Where `svc image` writes (issue 10, items 18 to 21 and their neighbours), in-process against a
 * scripted server: -o a folder, folders that are missing, files or not writable, a full disk
 * mid-write, several images whose names clash, -o - on a terminal, symbolic links, and the stale
 * temporary files of a killed run. Every refusal that can come before the request does.
 */
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

/** Faults the file system is made to show: a folder that refuses writes, a disk that fills up. */
const faults = vi.hoisted(() => ({ refuseAccessTo: undefined as string | undefined, diskFull: false, noSpaceIn: undefined as string | undefined, partFds: new Set<number>() }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const errno = (code: string, words: string, syscall: string) => Object.assign(new Error(`${code}: ${words}, ${syscall}`), { code, syscall });
  return {
    ...fs,
    accessSync: (path: string, mode?: number) => {
      if (path === faults.refuseAccessTo) throw errno('EROFS', 'read-only file system', 'access');
      fs.accessSync(path, mode);
    },
    statfsSync: (path: string) => {
      const stats = fs.statfsSync(path);
      return path === faults.noSpaceIn ? { ...stats, bavail: 0 } : stats;
    },
    openSync: (...args: Parameters<typeof fs.openSync>) => {
      const fd = fs.openSync(...args);
      if (String(args[0]).endsWith('.part')) faults.partFds.add(fd);
      return fd;
    },
    writeSync: (...args: Parameters<typeof fs.writeSync>) => {
      if (faults.diskFull && faults.partFds.has(args[0])) throw errno('ENOSPC', 'no space left on device', 'write');
      return (fs.writeSync as (...a: unknown[]) => number)(...args);
    },
  };
});

const PNG = Buffer.concat([png(64, 64), Buffer.from('rest of the image')]);
const answer = (count: number) =>
  reply.json(200, {
    created: 1700000000,
    data: Array.from({ length: count }, (_, index) => ({ b64_json: PNG.toString('base64'), revised_prompt: `revised ${index + 1}` })),
  });

// A test that sends scripts its one answer (`answered()`); one that must send nothing scripts
// none, so any request it makes fails it.
const scripted = useScriptedServer();
const answered = (count = 1) => scripted.server.script(answer(count));
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);
/** The user's own files in a folder (the sandbox's XDG folders left out). */
const files = (dir = sandbox.home) => readdirSync(dir).filter((name) => !['config', 'data', 'state', 'cache'].includes(name)).sort();
const svcImage = (args: string[], options: Parameters<typeof runSvc>[2] = {}) => runSvc(['image', ...args], sandbox, options);

beforeEach(() => {
  sandbox?.cleanup();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'image-key-0123456789abcdef', SVC_IMAGE_METADATA: 'off' });
  faults.refuseAccessTo = undefined;
  faults.diskFull = false;
  faults.noSpaceIn = undefined;
});
afterAll(() => sandbox?.cleanup());

describe('-o naming a folder', () => {
  it.each([
    ['an existing folder', 'shots'],
    ['an existing folder, with a slash', 'shots/'],
    ['a link to a folder', 'link-to-shots'],
  ])('%s: saves into it under the name from the prompt, as cp does', async (_what, output) => {
    mkdirSync(home('shots'));
    symlinkSync(home('shots'), home('link-to-shots'));
    answered();
    const result = await svcImage(['a red fox', '-o', output]);
    expect(result.exitCode).toBe(0);
    expect(files(home('shots'))).toEqual(['a-red-fox.png']);
    expect(readFileSync(home('shots', 'a-red-fox.png')).equals(PNG)).toBe(true);
    expect(result.stderr).toContain(`saved ${output.replace(/\/$/, '')}/a-red-fox.png`);
  });

  it('a folder whose name looks like an image file is still a folder', async () => {
    mkdirSync(home('album.png'));
    answered();
    const result = await svcImage(['a red fox', '-o', 'album.png']);
    expect(result.exitCode).toBe(0);
    expect(files(home('album.png'))).toEqual(['a-red-fox.png']);
  });

  it('-o . saves in the current folder, never over an existing name', async () => {
    writeFileSync(home('a-red-fox.png'), 'mine');
    answered();
    const result = await svcImage(['a red fox', '-o', '.']);
    expect(result.exitCode).toBe(0);
    expect(files()).toEqual(['a-red-fox-2.png', 'a-red-fox.png']);
    expect(readFileSync(home('a-red-fox.png'), 'utf8')).toBe('mine');
  });
});

describe('--force replaces files only', () => {
  it('a pipe (or a device) by that name stays: exit 2 before anything is sent', async () => {
    execFileSync('mkfifo', [home('a-pipe')]);
    const result = await svcImage(['a red fox', '-o', 'a-pipe', '--force']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${home('a-pipe')} is not a file (a device, a pipe or a socket); --force replaces only files, and nothing was sent`);
    expect(scripted.server.requests).toHaveLength(0);
    expect(lstatSync(home('a-pipe')).isFIFO()).toBe(true);
  });
});

describe('a folder that cannot take the file: said before anything is sent', () => {
  it.each([
    ['a missing folder', 'missing/x.png', 2, /-o missing\/x\.png: the folder .*missing does not exist/],
    ['a missing folder named with a slash', 'missing/', 2, /the folder .*missing does not exist/],
    ['a path through a file', 'notes.txt/x.png', 2, /notes\.txt is a file, not a folder/],
    ['a path deeper through a file', 'notes.txt/sub/x.png', 2, /notes\.txt\/sub is not a folder \(part of the path is a file\)/],
    ['a name longer than file systems take', `${'x'.repeat(300)}.png`, 2, /the file name is 304 bytes long, more than the 255/],
  ])('%s', async (_what, output, code, message) => {
    writeFileSync(home('notes.txt'), 'my notes');
    const result = await svcImage(['a red fox', '-o', output]);
    expect(result.exitCode).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(scripted.server.requests).toHaveLength(0);
    expect(readFileSync(home('notes.txt'), 'utf8')).toBe('my notes');
  });

  it('a folder that refuses writes (read-only file system): exit 1 with the folder and the reason', async () => {
    mkdirSync(home('locked'));
    faults.refuseAccessTo = home('locked');
    const result = await svcImage(['a red fox', '-o', 'locked/fox.png']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: cannot write in ${home('locked')}: read-only file system (EROFS); nothing was sent`);
    expect(scripted.server.requests).toHaveLength(0);
  });

  it('the current folder refusing writes is found the same way, without -o', async () => {
    faults.refuseAccessTo = sandbox.home;
    const result = await svcImage(['a red fox']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`cannot write in ${sandbox.home}: read-only file system (EROFS)`);
    expect(scripted.server.requests).toHaveLength(0);
  });

  it.skipIf(process.getuid?.() === 0)('a folder without write permission (not testable as root, who may write anyway)', async () => {
    mkdirSync(home('locked'));
    chmodSync(home('locked'), 0o555);
    const result = await svcImage(['a red fox', '-o', 'locked/fox.png']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('permission denied (EACCES)');
    expect(scripted.server.requests).toHaveLength(0);
  });
});

describe('a full disk', () => {
  it('already full: said before anything is sent', async () => {
    mkdirSync(home('shots'));
    faults.noSpaceIn = home('shots');
    const result = await svcImage(['a red fox', '-o', 'shots/']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: cannot write in ${home('shots')}: no space left on device (ENOSPC); nothing was sent`);
    expect(scripted.server.requests).toHaveLength(0);
  });

  it('filling up while the image arrives: exit 1 in plain words, nothing left behind (no file, no temporary file)', async () => {
    mkdirSync(home('shots'));
    faults.diskFull = true;
    answered();
    const result = await svcImage(['a red fox', '-o', 'shots/fox.png']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: cannot write the image in ${home('shots')}: no space left on device (ENOSPC); nothing was saved`);
    expect(result.stderr).not.toMatch(/unexpected/);
    expect(readdirSync(home('shots'))).toEqual([]);
  });
});

describe('several images for one -o name', () => {
  it('a clash on any numbered name writes none of them', async () => {
    answered(3);
    writeFileSync(home('out-2.png'), 'mine');
    const result = await svcImage(['three foxes', '-o', 'out.png']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${home('out-2.png')} already exists; it was kept, and none of the 3 images was saved`);
    expect(files()).toEqual(['out-2.png']);
    expect(readFileSync(home('out-2.png'), 'utf8')).toBe('mine');
    expect(result.stdout).toBe('');
  });

  it('with --force they are all written, the clashing one replaced', async () => {
    answered(3);
    writeFileSync(home('out-2.png'), 'mine');
    const result = await svcImage(['three foxes', '-o', 'out.png', '--force']);
    expect(result.exitCode).toBe(0);
    expect(files()).toEqual(['out-1.png', 'out-2.png', 'out-3.png']);
    expect(readFileSync(home('out-2.png')).equals(PNG)).toBe(true);
  });
});

describe('-o - on a terminal', () => {
  it('refuses (exit 2, nothing sent) and says to redirect or pipe', async () => {
    const result = await svcImage(['a red fox', '-o', '-'], { stdoutIsTTY: true });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('-o - would write the image bytes to this terminal');
    expect(result.stderr).toContain('redirect it (-o - > image.png) or pipe it');
    expect(result.stdoutBytes.length).toBe(0);
    expect(scripted.server.requests).toHaveLength(0);
  });

  it('--force writes them all the same', async () => {
    answered();
    const result = await svcImage(['a red fox', '-o', '-', '--force'], { stdoutIsTTY: true });
    expect(result.exitCode).toBe(0);
    expect(result.stdoutBytes.equals(PNG)).toBe(true);
  });
});

describe('symbolic links by the -o name', () => {
  it('a link pointing nowhere is a name taken: refused before sending, the link kept', async () => {
    symlinkSync(home('nowhere.png'), home('dangling.png'));
    const result = await svcImage(['a red fox', '-o', 'dangling.png']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('dangling.png already exists; it was kept');
    expect(scripted.server.requests).toHaveLength(0);
    expect(readlinkSync(home('dangling.png'))).toBe(home('nowhere.png'));
  });

  it('with --force the link itself is replaced; the file it pointed to is never written through', async () => {
    writeFileSync(home('precious.txt'), 'do not touch');
    symlinkSync(home('precious.txt'), home('link.png'));
    answered();
    const result = await svcImage(['a red fox', '-o', 'link.png', '--force']);
    expect(result.exitCode).toBe(0);
    expect(lstatSync(home('link.png')).isSymbolicLink()).toBe(false);
    expect(readFileSync(home('link.png')).equals(PNG)).toBe(true);
    expect(readFileSync(home('precious.txt'), 'utf8')).toBe('do not touch');
  });

  it('a name from the prompt held by a dangling link is skipped, not failed on after the request', async () => {
    symlinkSync(home('nowhere.png'), home('a-red-fox.png'));
    answered();
    const result = await svcImage(['a red fox']);
    expect(result.exitCode).toBe(0);
    expect(existsSync(home('a-red-fox-2.png'))).toBe(true);
  });

  it('a prompt that is all punctuation gives image.png', async () => {
    answered();
    const result = await svcImage(['?!… ---']);
    expect(result.exitCode).toBe(0);
    expect(files()).toEqual(['image.png']);
  });
});

describe('temporary files left by a killed run', () => {
  const HOUR = 60 * 60;
  /** A file with an mtime `ageSeconds` in the past. */
  function leave(name: string, ageSeconds: number): void {
    writeFileSync(home(name), 'half an image');
    const then = Date.now() / 1000 - ageSeconds;
    utimesSync(home(name), then, then);
  }

  it('svc-named .part files older than an hour are removed the next time that folder is written', async () => {
    leave('.svc-4242-0123abcd.part', 2 * HOUR);
    leave('.svc-4343-89abcdef.part', 60); // a minute old: perhaps another svc still writing it
    leave('.svc-notes.part', 2 * HOUR); // not a name svc makes
    leave('.svc-4444-0123abcd.part.bak', 2 * HOUR);
    mkdirSync(home('.svc-4545-0123abcd.part')); // a folder, whatever its name
    answered();
    const result = await svcImage(['a red fox']);
    expect(result.exitCode).toBe(0);
    expect(readdirSync(sandbox.home).filter((name) => name.startsWith('.svc')).sort()).toEqual([
      '.svc-4343-89abcdef.part',
      '.svc-4444-0123abcd.part.bak',
      '.svc-4545-0123abcd.part',
      '.svc-notes.part',
    ]);
  });

  it('only in the folder being written', async () => {
    mkdirSync(home('elsewhere'));
    leave('elsewhere/.svc-4242-0123abcd.part', 2 * HOUR);
    mkdirSync(home('shots'));
    answered();
    await svcImage(['a red fox', '-o', 'shots/fox.png']);
    expect(readdirSync(home('elsewhere'))).toEqual(['.svc-4242-0123abcd.part']);
  });

  it.runIf(process.getuid?.() === 0)("another user's are left alone", async () => {
    leave('.svc-4242-0123abcd.part', 2 * HOUR);
    chownSync(home('.svc-4242-0123abcd.part'), 65534, 65534);
    answered();
    await svcImage(['a red fox']);
    expect(readdirSync(sandbox.home)).toContain('.svc-4242-0123abcd.part');
  });
});
