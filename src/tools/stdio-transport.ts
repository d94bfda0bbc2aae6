/**
 * An MCP server svc starts itself, spoken to over its stdin and stdout (newline-delimited
 * JSON-RPC, the SDK's own framing). Written here rather than taken from the SDK's
 * StdioClientTransport for three things that one does not do:
 *
 * - The environment is exactly the one given: the SDK's adds LOGNAME, SHELL, TERM and USER of
 *   svc's own process (servers.ts says what a server gets).
 * - The server runs in a process group of its own, without the terminal: Ctrl-C at the terminal
 *   reaches svc alone, which decides (the session stops a reply and keeps its servers), and
 *   stopping it stops what it started too (`npx` runs the real server as its child).
 * - Its stderr is kept, not shown: a failure quotes its last line, neutralised.
 *
 * A server still running when svc exits (a second Ctrl-C exits at once) is killed on the way out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { neutraliseForTerminal } from '../core/terminal-text.js';

export interface ChildServerParams {
  command: string;
  args: readonly string[];
  /** The whole environment of the server: nothing of svc's own is added. */
  env: Record<string, string>;
  cwd: string;
}

/** How long a server may take to exit after its stdin closes, and after SIGTERM, before the next step. */
const EXIT_GRACE_MS = 2000;
/** How much of its stderr is kept (its end: the last line is what a failure quotes). */
const STDERR_KEPT = 8 * 1024;
/** A quoted stderr line is cut to this many characters. */
const QUOTED_LINE = 300;

/** Own process groups are a POSIX notion; on Windows the process itself is stopped. */
const GROUPS = process.platform !== 'win32';

/** Every child still running, killed if svc exits before stopping it. */
const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (GROUPS && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Gone already.
  }
}

/** On the way out (process.exit after a second Ctrl-C): no server outlives svc. */
function killAllOnExit(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
}

function track(child: ChildProcess): void {
  if (running.size === 0) process.on('exit', killAllOnExit);
  running.add(child);
}

function untrack(child: ChildProcess): void {
  running.delete(child);
  if (running.size === 0) process.removeListener('exit', killAllOnExit);
}

/** CSI sequences (colours, cursor moves) say nothing in a quoted line: taken out before it is neutralised. */
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #params: ChildServerParams;
  readonly #reader = new ReadBuffer();
  #child: ChildProcess | undefined;
  #stderr = '';
  #closed: Promise<void> | undefined;
  /** Its output has closed: the process is gone, and nothing it started holds its pipes. */
  #ended = false;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(params: ChildServerParams) {
    this.#params = params;
  }

  /** The server's process id once started (for tests that check it is gone). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How it ended, once it has: "exit code 1", "signal SIGKILL"; undefined while it runs. */
  get exitDescription(): string | undefined {
    if (!this.#exit) return undefined;
    return this.#exit.signal ? `signal ${this.#exit.signal}` : `exit code ${this.#exit.code ?? '?'}`;
  }

  /** The last line the server wrote on its stderr, neutralised and cut; undefined when it wrote none. */
  lastStderrLine(): string | undefined {
    const lines = this.#stderr.replace(CSI, '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    const last = lines.at(-1);
    if (last === undefined) return undefined;
    const cut = last.length > QUOTED_LINE ? `${last.slice(0, QUOTED_LINE)}…` : last;
    return neutraliseForTerminal(cut);
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.#params.command, [...this.#params.args], {
        env: this.#params.env,
        cwd: this.#params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: GROUPS,
        windowsHide: true,
      });
      this.#child = child;
      child.once('error', (error) => {
        // A spawn failure (no such program) comes here instead of 'spawn'; 'close' still follows.
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        track(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
      });
      this.#closed = new Promise((done) => {
        child.once('close', () => {
          this.#ended = true;
          untrack(child);
          done();
          this.onclose?.();
        });
      });
      child.stdout.on('data', (chunk: Buffer) => {
        try {
          this.#reader.append(chunk);
        } catch (error) {
          // A message past the reader's bound (10 MB): nothing after it can be framed.
          this.onerror?.(error as Error);
          void this.close(true);
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#reader.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC (a server logging on stdout): said, and the rest read on.
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        this.#stderr = (this.#stderr + text).slice(-STDERR_KEPT);
      });
      // A server gone while svc writes: the close that follows says it.
      child.stdin.on('error', () => {});
      child.stdout.on('error', () => {});
      child.stderr.on('error', () => {});
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || !stdin.writable || this.#exit) return Promise.reject(new Error('the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Stop the server, and what it started: its stdin is closed (a server's cue to leave), then its
   * group gets SIGTERM, then SIGKILL, each after a grace period. With `now`, SIGTERM at once
   * (Ctrl-C: the user is waiting). Resolves when its output is closed.
   */
  async close(now = false): Promise<void> {
    const child = this.#child;
    const closed = this.#closed;
    if (!child || !closed || this.#ended) return;
    const within = (ms: number): Promise<void> =>
      Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    if (!now) {
      child.stdin?.end();
      await within(EXIT_GRACE_MS);
    }
    if (!this.#ended) {
      killGroup(child, 'SIGTERM');
      await within(EXIT_GRACE_MS);
    }
    if (!this.#ended) {
      killGroup(child, 'SIGKILL');
      await within(EXIT_GRACE_MS);
    }
    // Its process has exited by now; what it started may have left the group and kept a pipe
    // open. svc does not wait for that: it no longer listens.
    if (!this.#ended) {
      child.stdout?.destroy();
      child.stderr?.destroy();
      untrack(child);
    }
  }
}
