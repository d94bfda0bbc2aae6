/**
 * Output that cannot be written (issue 10, item 17): every command that prints data ends with
 * exit 1 and a message when stdout refuses it (a full disk, a descriptor not open for writing),
 * and stays a quiet success when the reader left (EPIPE, `| head -1`). In-process, with a
 * stdout that fails every write; test/e2e/stdout-failure.e2e.test.ts does the same with real
 * descriptors.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { main } from '../../src/main.js';
import { StdoutCheck } from '../../src/terminal/stdout-check.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc, testIO } from '../helpers/in-process.js';

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, syscall: 'write' });
}

const ENOSPC = (): NodeJS.ErrnoException => errno('ENOSPC', 'ENOSPC: no space left on device, write');
const EPIPE = (): NodeJS.ErrnoException => errno('EPIPE', 'write EPIPE');

describe('a stdout that refuses writes', () => {
  const env = useEmulatorSandbox('sk-stdout-failure');

  beforeAll(async () => {
    // Something for `sessions list` and `config get` to print.
    expect((await runSvc(['chat', '--session', 'kept', 'hello'], env.sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'set', 'timeout', '30'], env.sandbox)).exitCode).toBe(0);
  });

  /** `svc args…` with every write to stdout failing with `error`. */
  async function runWithBrokenStdout(args: string[], error: NodeJS.ErrnoException): Promise<{ exitCode: number; stderr: string }> {
    const { io, stdout, stderr } = testIO({ env: env.sandbox.env, cwd: env.sandbox.home });
    stdout.failWith = error;
    const exitCode = await main(args, io, { interrupts: new InterruptRouter(() => {}) });
    return { exitCode, stderr: stderr.text() };
  }

  const printing: Array<[string, string[]]> = [
    ['chat (streamed text)', ['chat', '--no-save', 'name three colours']],
    ['chat --no-stream', ['chat', '--no-save', '--no-stream', 'name three colours']],
    ['chat --json', ['chat', '--no-save', '--json', 'name three colours']],
    ['image (the revised prompt)', ['image', 'a red kite']],
    ['image --json', ['image', '--json', 'a blue kite']],
    ['image -o -', ['image', '-o', '-', 'a green kite']],
    ['sessions list', ['sessions', 'list']],
    ['sessions list --json', ['sessions', 'list', '--json']],
    ['config list', ['config', 'list']],
    ['config get', ['config', 'get', 'timeout']],
    ['config path', ['config', 'path']],
    ['auth status', ['auth', 'status']],
    ['completion bash', ['completion', 'bash']],
    ['--help', ['--help']],
    ['chat --help', ['chat', '--help']],
    ['--version', ['--version']],
  ];

  it.each(printing)('%s: exit 1 and says stdout refused the output', async (_what, args) => {
    const result = await runWithBrokenStdout(args, ENOSPC());
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('error: could not write to stdout: no space left on device (ENOSPC)');
    expect(result.stderr).toContain('some of the output was lost');
    expect(result.stderr).not.toMatch(/unexpected|\n\s+at /);
  });

  it.each(printing)('%s: a reader that left (EPIPE) is a quiet success', async (_what, args) => {
    const result = await runWithBrokenStdout(args, EPIPE());
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toMatch(/error/);
  });

  it('a command that prints nothing is not failed by a broken stdout', async () => {
    const result = await runWithBrokenStdout(['config', 'set', 'maxRetries', '3'], ENOSPC());
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('an image whose revised prompt could not be printed is still saved whole', async () => {
    const folder = join(env.sandbox.home, 'kept');
    mkdirSync(folder);
    const result = await runWithBrokenStdout(['image', 'a yellow kite', '-o', join(folder, 'kite.png')], ENOSPC());
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/saved .*kite\.png/);
    expect(readdirSync(folder)).toEqual(['kite.png']);
    expect(readFileSync(join(folder, 'kite.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('a streamed reply that could not be written is kept in the conversation, marked as cut short', async () => {
    const result = await runWithBrokenStdout(['chat', '--session', 'full-disk', 'name three colours'], ENOSPC());
    expect(result.exitCode).toBe(1);
    const file = join(env.sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'full-disk.jsonl');
    const turns = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const turn = turns.find((record) => record.user === 'name three colours');
    expect(turn?.interrupted).toBe(true);
  });

  it('an error of the command itself is reported as such, not as a stdout failure', async () => {
    writeFileSync(join(env.sandbox.home, 'taken.png'), 'mine');
    const result = await runWithBrokenStdout(['image', 'a kite', '-o', 'taken.png'], ENOSPC());
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/taken\.png already exists/);
    expect(result.stderr).not.toMatch(/stdout/);
  });
});

describe('StdoutCheck', () => {
  /** A stdout whose writes complete later, as a pipe's may: the error comes with the callback. */
  class LateFailingStream extends Writable {
    override _write(_chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
      setImmediate(() => callback(ENOSPC()));
    }
  }

  it('waits for pending writes before judging, so a late failure is not missed', async () => {
    const stream = new LateFailingStream();
    const check = new StdoutCheck(stream);
    stream.write('data\n');
    const state = await check.settle();
    check.dispose();
    expect(state.kind).toBe('failed');
  });

  it('judges a write that failed after the stream had closed by the first error', async () => {
    const stream = new LateFailingStream();
    const check = new StdoutCheck(stream);
    stream.write('one\n');
    await check.settle();
    stream.write('two\n', () => {}); // fails with ERR_STREAM_DESTROYED: the ENOSPC is the story
    const state = await check.settle();
    check.dispose();
    expect(state).toMatchObject({ kind: 'failed', error: { code: 'ENOSPC' } });
  });
});
