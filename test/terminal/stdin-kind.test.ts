/**
 * What stdin is (src/terminal/io.ts detectStdinKind), in real processes on the built code: a
 * terminal, a pipe, a file, /dev/null or nothing. (That a command finds it without node:tty or
 * Node's file streams is checked on the bundle, in test/e2e/lean-loading.)
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';

const io = fileURLToPath(new URL('../../dist/terminal/io.js', import.meta.url));
const PROBE = `const { detectStdinKind } = await import(${JSON.stringify(io)});
process.stdout.write(detectStdinKind());`;
const dir = mkdtempSync(join(tmpdir(), 'svc-stdin-kind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the built code says stdin is, in a process given `stdin` (a file descriptor: a file). */
function probe(stdin: 'ignore' | 'pipe' | number): string {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], { stdio: [stdin, 'pipe', 'inherit'], encoding: 'utf8' });
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('detectStdinKind', () => {
  it('/dev/null is nothing to read', async () => {
    expect(probe('ignore')).toBe('other');
  });

  it('a regular file is a file, a pipe a pipe', async () => {
    const file = join(dir, 'prompt.txt');
    writeFileSync(file, 'hello\n');
    const fd = openSync(file, 'r');
    try {
      expect(probe(fd)).toBe('file');
    } finally {
      closeSync(fd);
    }
    expect(probe('pipe')).toBe('pipe');
  });

  it('a closed stdin is nothing to read', async () => {
    const result = await execa('bash', ['-c', `exec <&- ; exec ${JSON.stringify(process.execPath)} --input-type=module -e "$0"`, PROBE]);
    expect(result.stdout).toBe('other');
  });

  it('a terminal is a terminal (a pseudo-terminal made by script(1))', async () => {
    const out = join(dir, 'pty.txt');
    const command = `${JSON.stringify(process.execPath)} --input-type=module -e '${PROBE.replace(/'/g, "'\\''")}' > ${JSON.stringify(out)}`;
    await execa('script', ['-qec', command, '/dev/null'], { stdin: 'ignore' });
    expect(readFileSync(out, 'utf8')).toBe('tty');
  });
});
