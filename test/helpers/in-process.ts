/**
 * svc run in-process: `main(argv, io)` with a test IO (gh's iostreams.Test(), adapted): stdin of a
 * chosen kind, chosen TTY flags, an environment of the test's own, and stdout/stderr captured.
 * No process is started, so a case costs milliseconds instead of a Node start-up; keep the
 * end-to-end tests (test/e2e) for what only a real process shows: signals, TTYs, pipes, install.
 */
import { Readable, Writable } from 'node:stream';
import { colorWanted, createIO, type IO, type StdinKind } from '../../src/terminal/io.js';
import type { RetryWait } from '../../src/factory.js';
import type { OpenTools } from '../../src/chat/tool-runner.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { main } from '../../src/main.js';
import type { Sandbox } from './run-svc.js';

/** A writable that keeps every byte written to it, with TTY-like fields when asked. */
export class CapturedStream extends Writable {
  readonly chunks: Buffer[] = [];
  isTTY: boolean;
  columns: number | undefined;
  rows: number | undefined;
  /** Make the next writes fail with this error (a full disk, a closed pipe). */
  failWith: NodeJS.ErrnoException | undefined;

  constructor(options: { isTTY?: boolean; columns?: number; rows?: number } = {}) {
    super();
    this.isTTY = options.isTTY ?? false;
    this.columns = options.isTTY ? (options.columns ?? 80) : undefined;
    this.rows = options.isTTY ? (options.rows ?? 24) : undefined;
  }

  override _write(chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failWith) {
      callback(this.failWith);
      return;
    }
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : (chunk as Buffer));
    callback();
  }

  /** Everything written so far, as bytes. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** Everything written so far, as UTF-8 text. */
  text(): string {
    return this.bytes().toString('utf8');
  }
}

export interface TestIOOptions {
  /** Text or bytes on stdin (stdinKind defaults to 'pipe' then, else 'tty' when stdinIsTTY, else 'other'). */
  stdin?: string | Buffer | Readable;
  stdinKind?: StdinKind;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Terminal width reported by stdout and stderr when they are TTYs. */
  columns?: number;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export interface TestIO {
  io: IO;
  stdout: CapturedStream;
  stderr: CapturedStream;
}

function stdinStream(stdin: TestIOOptions['stdin']): Readable {
  if (stdin instanceof Readable) return stdin;
  if (stdin === undefined) return Readable.from([]);
  return Readable.from([Buffer.from(stdin)]);
}

/** An IO for main(): buffers for the outputs, the stdin and TTY flags the test chose. */
export function testIO(options: TestIOOptions = {}): TestIO {
  const stdout = new CapturedStream({ isTTY: options.stdoutIsTTY ?? false, ...(options.columns ? { columns: options.columns } : {}) });
  const stderr = new CapturedStream({ isTTY: options.stderrIsTTY ?? false, ...(options.columns ? { columns: options.columns } : {}) });
  const env = options.env ?? {};
  const stderrIsTTY = options.stderrIsTTY ?? false;
  const io: IO = createIO({
    stdin: stdinStream(options.stdin),
    stdout,
    stderr,
    stdinKind: options.stdinKind ?? (options.stdin === undefined ? 'other' : 'pipe'),
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY,
    colorEnabled: colorWanted(env, stderrIsTTY),
    env,
    cwd: options.cwd ?? process.cwd(),
  });
  return { io, stdout, stderr };
}

export interface InProcessResult {
  exitCode: number;
  /** stdout as text (use stdoutBytes for exact bytes). */
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
  /** The waits before retries, in milliseconds, as svc asked for them (see RunOptions.retryWait). */
  retryWaits: number[];
}

export interface RunOptions extends TestIOOptions {
  /** Abort it to act as SIGTERM / a Ctrl-C nobody took. */
  signal?: AbortSignal;
  /** Where the test sends Ctrl-C (dispatch()). */
  interrupts?: InterruptRouter;
  /**
   * How retries wait. By default they do not: the delay is recorded in `retryWaits` and the
   * retry goes at once, so a case about retries costs no wall-clock time and can check the
   * delays exactly (the delays themselves are computed by src/api/retry-policy.ts).
   */
  retryWait?: RetryWait;
  /** Where `--tools` finds its tools (test/helpers/test-tools.ts); by default, as the build has it. */
  openTools?: OpenTools;
}

/**
 * Run `svc args...` in-process. With a sandbox, its environment (XDG folders, SVC_* variables)
 * and home folder (as the working folder) are used, with `options.env` on top.
 */
export async function runSvc(args: string[], sandbox?: Sandbox, options: RunOptions = {}): Promise<InProcessResult> {
  const env = { ...(sandbox?.env ?? {}), ...(options.env ?? {}) };
  const cwd = options.cwd ?? sandbox?.home ?? process.cwd();
  const { io, stdout, stderr } = testIO({ ...options, env, cwd });
  const retryWaits: number[] = [];
  const recordWait: RetryWait = async (ms) => {
    retryWaits.push(ms);
  };
  const exitCode = await main(args, io, {
    ...(options.signal ? { signal: options.signal } : {}),
    interrupts: options.interrupts ?? new InterruptRouter(() => {}),
    retryWait: options.retryWait ?? recordWait,
    ...(options.openTools ? { openTools: options.openTools } : {}),
  });
  return { exitCode, stdout: stdout.text(), stdoutBytes: stdout.bytes(), stderr: stderr.text(), retryWaits };
}
