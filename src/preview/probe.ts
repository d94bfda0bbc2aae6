/**
 * Asking the terminal three things at once: the size of a character cell in pixels (XTWINOPS
 * `ESC [ 16 t`, answered `ESC [ 6 ; height ; width t` by mlterm, foot, Konsole, WezTerm, kitty and
 * others; sixel draws one image pixel per screen pixel, so this is what fits a sixel picture to
 * the terminal); the largest sixel picture it draws (XTSMGRAPHICS `ESC [ ? 2 ; 1 ; 0 S`, answered
 * `ESC [ ? 2 ; 0 ; width ; height S`: xterm, which answers no window query unless its
 * allowWindowOps is on, reports its text area here, capped at its maxGraphicSize, 1000 × 1000 by
 * default); and whether it speaks sixel: the primary device attributes query (DA1, `ESC [ c`),
 * which every VT100 descendant answers with `ESC [ ? 6x ; ... c`, listing 4 when it draws sixel
 * graphics (VT330/VT340 numbering, which xterm, mlterm, foot, Konsole, WezTerm and xterm.js keep).
 * Terminals answer in order, and every one answers DA1, so its answer ends the wait whether or not
 * the cell size came first. The answers arrive on stdin, so the questions are only asked when
 * stdin is the very terminal stdout writes to, for at most {@link PROBE_TIMEOUT_MS}, in raw mode
 * (so the answer is neither echoed nor held for a line), and the terminal's mode is put back after.
 */
import { fstatSync, readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { Readable, Writable } from 'node:stream';
import type { PixelSize } from './fit.js';

/** Long enough for a local terminal or one over ssh nearby, short enough to go unnoticed. */
export const PROBE_TIMEOUT_MS = 100;

/** The parts of a TTY read stream the probe uses (process.stdin when it is a terminal). */
export interface TerminalInput extends Readable {
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  fd?: number;
}

/** Whether two streams are the same terminal device (so what is written to one answers on the other). */
export function sameTerminal(input: { fd?: number }, output: { fd?: number }): boolean {
  if (typeof input.fd !== 'number' || typeof output.fd !== 'number') return false;
  if (!isatty(input.fd) || !isatty(output.fd)) return false;
  try {
    // The same device number: one terminal (two terminals, or a terminal and /dev/null, differ).
    return fstatSync(input.fd).rdev === fstatSync(output.fd).rdev;
  } catch {
    return false;
  }
}

/**
 * Is this process in its terminal's foreground process group? A background job (`svc image … &`)
 * that changes the terminal's mode is stopped by the kernel (SIGTTOU) and one that reads it
 * (SIGTTIN), so only the foreground may ask. Linux says it in /proc/self/stat (pgrp, the 5th field,
 * against tpgid, the 8th); where that cannot be read (macOS, the BSDs) the answer is no: there the
 * terminals that draw images are known by their environment, and sixel is there on request.
 */
export function inForeground(stat: () => string = () => readFileSync('/proc/self/stat', 'utf8')): boolean {
  try {
    // The command name (2nd field) is in parentheses and may hold spaces: count from the last ')'.
    const text = stat();
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const pgrp = Number(fields[2]);
    const tpgid = Number(fields[5]);
    return Number.isInteger(pgrp) && pgrp > 0 && pgrp === tpgid;
  } catch {
    return false;
  }
}

/** The parameters of a DA1 answer (`ESC [ ? 62 ; 4 ; 22 c` → ['62', '4', '22']), if `text` holds one. */
export function parseDeviceAttributes(text: string): string[] | undefined {
  const match = /\x1b\[\?([\d;]*)c/.exec(text);
  return match ? match[1]!.split(';') : undefined;
}

/** Does this DA1 answer list sixel graphics (attribute 4)? */
export function listsSixel(parameters: readonly string[]): boolean {
  // The first parameter is the terminal class (62, 64, 65 ...), not an attribute.
  return parameters.slice(1).includes('4');
}

/**
 * The cell size in an XTWINOPS answer (`ESC [ 6 ; height ; width t`), if `text` holds one of a
 * believable size (a few pixels to a few hundred; anything else is ignored, not trusted).
 */
export function parseCellSize(text: string): PixelSize | undefined {
  const match = /\x1b\[6;(\d{1,4});(\d{1,4})t/.exec(text);
  if (!match) return undefined;
  const height = Number(match[1]);
  const width = Number(match[2]);
  return width >= 2 && width <= 500 && height >= 2 && height <= 500 ? { width, height } : undefined;
}

/** The largest sixel picture in an XTSMGRAPHICS answer (`ESC [ ? 2 ; 0 ; width ; height S`), if believable. */
export function parseGraphicsSize(text: string): PixelSize | undefined {
  const match = /\x1b\[\?2;0;(\d{1,5});(\d{1,5})S/.exec(text);
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width >= 8 && width <= 65535 && height >= 8 && height <= 65535 ? { width, height } : undefined;
}

/** What the terminal said: whether it draws sixel, its cell size and largest sixel picture when it told. */
export interface TerminalAnswers {
  sixel: boolean;
  cell: PixelSize | undefined;
  graphics: PixelSize | undefined;
}

const NO_ANSWERS: TerminalAnswers = { sixel: false, cell: undefined, graphics: undefined };

/**
 * Ask for the cell size, the sixel picture size and DA1, and wait up to `timeoutMs` for the DA1
 * answer: sixel when it lists it, the sizes when they came before it. A terminal that does not
 * answer in time has none. Never throws: a terminal that cannot be asked has no sixel and no
 * known sizes.
 */
export async function probeTerminal(input: TerminalInput, output: Writable, timeoutMs = PROBE_TIMEOUT_MS): Promise<TerminalAnswers> {
  if (typeof input.setRawMode !== 'function') return NO_ANSWERS;
  const wasRaw = input.isRaw === true;
  // Listening makes the stream flow; one that was not flowing is paused again, or its open handle
  // would keep the process alive after the command is done.
  const wasFlowing = input.readableFlowing === true;
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  let onData: ((piece: Buffer | string) => void) | undefined;
  try {
    input.setRawMode(true);
    const answer = new Promise<string[] | undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
      onData = (piece) => {
        received += typeof piece === 'string' ? piece : piece.toString('latin1');
        const parameters = parseDeviceAttributes(received);
        if (parameters) resolve(parameters);
      };
      input.on('data', onData);
    });
    output.write('\x1b[16t\x1b[?2;1;0S\x1b[c');
    const parameters = await answer;
    if (parameters === undefined) return NO_ANSWERS;
    return { sixel: listsSixel(parameters), cell: parseCellSize(received), graphics: parseGraphicsSize(received) };
  } catch {
    return NO_ANSWERS;
  } finally {
    clearTimeout(timer);
    if (onData) input.off('data', onData);
    if (!wasFlowing) input.pause();
    try {
      input.setRawMode(wasRaw);
    } catch {
      // The terminal went away meanwhile: there is no mode left to restore.
    }
  }
}
