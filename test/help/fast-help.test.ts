/**
 * `svc --help` and `svc <command> --help` are answered from pages rendered at build time; they
 * must be exactly what commander prints, for every command, and --version the package's.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IO } from '../../src/terminal/io.js';
import { main } from '../../src/main.js';
import { launcherAnswers, makeSandbox, svc } from '../helpers/run-svc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = JSON.parse(readFileSync(`${root}/dist/bundle/help.json`, 'utf8')) as Record<string, string>;
const helpArgv = (path: string): string[] => [...(path === '' ? [] : path.split(' ')), '--help'];

async function commanderHelp(argv: string[]): Promise<string> {
  let out = '';
  const stdout = new PassThrough();
  stdout.on('data', (data: Buffer) => (out += data.toString()));
  const io = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), stdinKind: 'other', stdoutIsTTY: false, stderrIsTTY: false, colorEnabled: false, env: {}, cwd: root } as unknown as IO;
  expect(await main(argv, io)).toBe(0);
  return out;
}

describe('help pages made at build time', () => {
  // One process runs the launcher for every page (a Node start-up per page was most of this
  // file's time); it exits 0 and writes nothing else. `--version` below is a process of its own.
  const fast = new Map<string, string>();
  beforeAll(async () => {
    const sandbox = makeSandbox();
    try {
      const paths = Object.keys(pages);
      (await launcherAnswers(paths.map(helpArgv), sandbox)).forEach((text, i) => fast.set(paths[i]!, text));
    } finally {
      sandbox.cleanup();
    }
  });

  it('cover every command', () => {
    expect(Object.keys(pages)).toEqual(expect.arrayContaining(['', 'chat', 'image', 'auth', 'auth login', 'config set', 'sessions show', 'emulator', 'completion']));
  });

  it.each(Object.keys(pages))('"svc %s --help" prints exactly what commander prints', async (path) => {
    const argv = helpArgv(path);
    expect(fast.get(path)).toBe(await commanderHelp(argv));
  });

  it('--version is the package version', async () => {
    const sandbox = makeSandbox();
    const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };
    expect((await svc(['--version'], sandbox)).stdout).toBe(version);
    sandbox.cleanup();
  });
});
