/**
 * The IO object: every command reads and writes through it, never through `process` directly,
 * so tests can hand a command buffers and chosen TTY flags (gh's iostreams, adapted). svc's talk
 * on stderr goes through its warn/note/say (one voice: the `svc:` prefix, untrusted text
 * neutralised); failures through reportError (report-error.ts).
 */
import { neutraliseForTerminal } from '../core/terminal-text.js';
import { switchWord } from '../core/parse-values.js';
import { fstatSync, statSync, type Stats } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** What stdin is: only a pipe or a regular file is read as prompt text (docs/chat.md). */
export type StdinKind = 'tty' | 'pipe' | 'file' | 'other';

export interface Spinner {
  /** Replace the text shown beside the spinner. */
  setText(text: string): void;
  /** Stop and clear the spinner line; safe to call more than once. */
  stop(): void;
  /** Print a line of its own on stderr, above the spinner (which goes on). */
  note?(line: string): void;
}

/** The streams and facts of a process (or of a test), from which createIO makes the IO object. */
export interface IOStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinKind: StdinKind;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stderr: NO_COLOR and FORCE_COLOR win, otherwise a TTY that is not TERM=dumb. */
  colorEnabled: boolean;
  /** The environment the command sees (process.env in real runs, a plain object in tests). */
  env: Record<string, string | undefined>;
  /** Current working folder (for files named by the user). */
  cwd: string;
}

export interface IO extends IOStreams {
  /**
   * Plain mode (`--plain`, SVC_PLAIN, TERM=dumb: plainWanted): no spinner, colour, cursor
   * movement or preview. A property of this run, never written into the environment, which
   * child processes (the editor, a key command) inherit.
   */
  plain: boolean;
  /** `svc: warning: TEXT` on stderr (and `hint` indented below it): something is wrong, and the command goes on. */
  warn(text: string, hint?: string): void;
  /** `svc: TEXT` on stderr (and `hint` indented below it): what was done, or what to know. */
  note(text: string, hint?: string): void;
  /** A line of talk of the command's own shape (a usage line, a revised prompt), as it is but neutralised. */
  say(text: string): void;
}

/**
 * Plain mode (`--plain`, `SVC_PLAIN=1`, `TERM=dumb`): what a screen reader and a log file need.
 * No spinner, no cursor movement, no colour, no line drawn twice; replies as their text, line by
 * line, each line printed once when it is whole; no image preview; the session reads lines as
 * the terminal itself edits them. One test here so every part asks the same question.
 */
export function plainWanted(env: Record<string, string | undefined>): boolean {
  const flag = env.SVC_PLAIN;
  // The switch words of every on/off setting; any other value set turns it on, as it always did:
  // a variable read by the spinner and the renderer must never stop a command.
  return (flag !== undefined && flag.trim() !== '' && switchWord(flag) !== 'off') || env.TERM === 'dumb';
}

/** The IO object over `streams`; `plain` from their environment. */
export function createIO(streams: IOStreams): IO {
  // Copied as property descriptors, so a getter (process.stdin, made on first use) stays one.
  const io = Object.defineProperties({}, Object.getOwnPropertyDescriptors(streams)) as IO;
  // Any text may carry a service's or a file's words: none of it reaches stderr as an escape sequence.
  const talk = (lead: string, text: string, hint: string | undefined): void => {
    io.stderr.write(`${lead}${neutraliseForTerminal(text)}\n${hint ? `  ${neutraliseForTerminal(hint)}\n` : ''}`);
  };
  io.plain = plainWanted(streams.env);
  io.warn = (text, hint) => talk('svc: warning: ', text, hint);
  io.note = (text, hint) => talk('svc: ', text, hint);
  io.say = (text) => void io.stderr.write(`${neutraliseForTerminal(text)}\n`);
  return io;
}

/** An interactive prompt is possible only when a person sits at both stdin and stderr. */
export function canPrompt(io: IO): boolean {
  return io.stdinKind === 'tty' && io.stderrIsTTY;
}

/**
 * Whether the character device open on `fd` is a terminal. /dev/null (stdin of scripts, cron,
 * `< /dev/null`) is told apart by its device number first: node:tty, which isatty needs, loads
 * node:net, a few milliseconds a command that never opens a connection would pay for nothing.
 */
function isTerminal(fd: number, stat: Stats): boolean {
  if (process.platform !== 'win32') {
    try {
      if (statSync('/dev/null').rdev === stat.rdev) return false;
    } catch {
      // No /dev/null to compare with: ask the terminal driver.
    }
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/**
 * Classify file descriptor 0 without reading from it, and without process.stdin: making that
 * stream costs a command that never reads stdin a few milliseconds (for a file or /dev/null,
 * Node loads its file streams).
 */
export function detectStdinKind(fd = 0): StdinKind {
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch {
    return 'other'; // stdin closed (`<&-`): nothing to read
  }
  if (stat.isCharacterDevice() && isTerminal(fd, stat)) return 'tty';
  // libuv hands child processes socket pairs rather than FIFOs, so a socket is a pipe too.
  if (stat.isFIFO() || stat.isSocket()) return 'pipe';
  if (stat.isFile()) return 'file';
  return 'other';
}

/** https://no-color.org and the FORCE_COLOR convention of chalk/supports-color. */
export function colorWanted(env: IO['env'], isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (plainWanted(env)) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

/** The IO of a real process. */
export function processIO(): IO {
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  return createIO({
    // Made on first use only (see detectStdinKind): most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinKind: detectStdinKind(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY,
    colorEnabled: colorWanted(process.env, stderrIsTTY),
    env: process.env,
    cwd: process.cwd(),
  });
}

/**
 * A spinner on stderr while the user waits; nothing at all when stderr is not a terminal, so
 * logs and scripts never see spinner frames. ora is loaded only when a spinner is shown.
 */
export async function startSpinner(io: IO, text: string): Promise<Spinner> {
  // ora divides by the terminal width when it clears its line: a 0-column terminal (some
  // pseudo-terminals report that) would make it loop for ever, so no spinner there.
  const columns = (io.stderr as { columns?: number }).columns ?? 0;
  if (!io.stderrIsTTY || io.env.CI === 'true' || io.plain || columns <= 0) return { setText() {}, stop() {} };
  const { default: ora } = await import('ora');
  // discardStdin would put the TTY in raw mode and swallow Ctrl-C; we handle signals ourselves.
  const spinner = ora({ text, stream: io.stderr, discardStdin: false, color: 'cyan' }).start();
  return {
    setText(next) {
      spinner.text = next;
    },
    stop() {
      if (spinner.isSpinning) spinner.stop();
    },
    note(line) {
      if (spinner.isSpinning) spinner.clear();
      io.stderr.write(`${line}\n`);
      if (spinner.isSpinning) spinner.render();
    },
  };
}
