/**
 * Driving svc in a real pseudo-terminal through tmux: type, paste, press keys, read the screen.
 * Each session gets its own tmux server socket, so tests never touch the user's tmux.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

export interface TmuxSession {
  /** Type text (literally) and optionally press Enter. */
  type(text: string, enter?: boolean): Promise<void>;
  /** Press keys by tmux name: 'Enter', 'C-c', 'C-d', 'Up'. */
  press(...keys: string[]): Promise<void>;
  /** Paste text the way a terminal does (bracketed, when the program asked for it). */
  paste(text: string): Promise<void>;
  /** The whole scrollback as plain text. */
  screen(): Promise<string>;
  /** The whole scrollback with its styles as SGR sequences (`capture-pane -e`), rows not joined. */
  styledScreen(): Promise<string>;
  /** The whole scrollback with its colours, as SGR escapes (tmux's `capture-pane -e`). */
  screenWithColours(): Promise<string>;
  /** Wait until the screen matches; fails with the screen after `timeoutMs`. */
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Count occurrences of `text` on the screen. */
  count(text: string): Promise<number>;
  /** Make the window `columns` wide, as a user dragging its edge (the program gets SIGWINCH; tmux re-wraps its lines). */
  resize(columns: number): Promise<void>;
  kill(): Promise<void>;
}

/** How long waitFor lets a burst of output land before it looks at the screen again. */
const BURST_MS = 30;

export async function tmuxAvailable(): Promise<boolean> {
  return (await execa('tmux', ['-V'], { reject: false })).exitCode === 0;
}

/** Start `command` (a shell line) in a 100x40 terminal, in `workDir`, with exactly `env`. */
export async function startTmux(command: string, env: Record<string, string>, workDir: string): Promise<TmuxSession> {
  const socket = `svc-test-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { env: { ...env, TERM: 'xterm-256color' }, extendEnv: false, timeout: 10_000 });
  const script = join(workDir, `${socket}.sh`);
  // The command ends by printing its exit code and waiting, so the screen can still be read.
  writeFileSync(script, `${command}\necho "[exit $?]"\nsleep 30\n`);
  // Everything the program writes is also copied (pipe-pane) to a file outside workDir; a change
  // to it is what makes waitFor look at the screen again, instead of a capture every 100 ms.
  // tmux puts what it reads on the screen before it copies it on, so a capture made after the
  // change sees it. A capture once a second as well, in case a change were ever missed.
  const logDir = mkdtempSync(join(tmpdir(), 'svc-tmux-'));
  const log = join(logDir, 'output');
  writeFileSync(log, '');
  let changes = 0;
  const waiting = new Set<() => void>();
  const watcher = watch(log, () => {
    changes += 1;
    for (const wake of waiting) wake();
  });
  watcher.unref();
  await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'svc', '-x', '100', '-y', '40', '-c', workDir, `sh ${script}`, ';', 'set-option', '-t', 'svc', 'history-limit', '5000', ';', 'pipe-pane', '-t', 'svc', `cat >> '${log}'`);
  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-t', 'svc', '-S', '-5000')).stdout;
  /** Resolves once the output changed after `seen` changes, or after `ms`. */
  const changed = (seen: number, ms: number) =>
    new Promise<void>((resolve) => {
      if (changes !== seen) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });
  return {
    async type(text, enter = false) {
      await tmux('send-keys', '-t', 'svc', '-l', text);
      if (enter) await tmux('send-keys', '-t', 'svc', 'Enter');
    },
    async press(...keys) {
      await tmux('send-keys', '-t', 'svc', ...keys);
    },
    async paste(text) {
      const file = join(workDir, `${socket}.paste`);
      writeFileSync(file, text);
      await tmux('load-buffer', file);
      await tmux('paste-buffer', '-p', '-t', 'svc');
    },
    screen,
    async styledScreen() {
      return (await tmux('capture-pane', '-p', '-e', '-t', 'svc', '-S', '-5000')).stdout;
    },
    async screenWithColours() {
      return (await tmux('capture-pane', '-p', '-e', '-J', '-t', 'svc', '-S', '-5000')).stdout;
    },
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        const seen = changes;
        last = await screen();
        if (typeof match === 'string' ? last.includes(match) : match.test(last)) return last;
        await changed(seen, Math.min(1000, Math.max(0, deadline - Date.now())));
        // Output comes in bursts (a streamed reply changes the screen every few milliseconds):
        // a moment's wait lets the burst land, so one capture sees it instead of one per piece.
        // Each capture is a tmux process, forked from this big worker.
        if (changes !== seen) await new Promise((resolve) => setTimeout(resolve, BURST_MS));
      }
      throw new Error(`timed out waiting for ${String(match)}; the screen was:\n${last}`);
    },
    async count(text) {
      return (await screen()).split(text).length - 1;
    },
    async resize(columns) {
      await tmux('resize-window', '-t', 'svc', '-x', String(columns));
      // tmux re-wraps its screen at once, but spaces out the sizes it gives the program (a resize
      // soon after another waits its turn): done when the program's terminal has the new size,
      // that is when SIGWINCH has been sent. Asking tmux each time also keeps its loop turning.
      const deadline = Date.now() + 5000;
      for (;;) {
        const tty = (await tmux('display-message', '-p', '-t', 'svc', '#{pane_tty}')).stdout.trim();
        const size = (await execa('stty', [process.platform === 'darwin' ? '-f' : '-F', tty, 'size'], { reject: false })).stdout.trim();
        if (size.split(' ')[1] === String(columns)) return;
        if (Date.now() > deadline) throw new Error(`the terminal did not take ${columns} columns (stty size: ${size})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async kill() {
      await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
      watcher.close();
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}
