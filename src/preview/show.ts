/**
 * The preview of a saved image in the terminal: decide how to draw (choose.ts, and the DA1 probe
 * when it is worth asking), decode, fit, scale down, encode, and write it to stdout in one piece.
 * This is the entry point for `svc image` and for the chat session's `/image`; nothing here runs
 * (and no decoder is loaded) unless a preview is shown.
 *
 * Every byte written is built by svc from the decoded pixels: numbers it computed, base64 of
 * pixels it compressed or a PNG it encoded itself, sixel data from its palette. The service's
 * text (revised prompts) and file names never reach these escapes; a warning that names the file
 * neutralises it like any other text.
 */
import { readFile } from 'node:fs/promises';
import { debugLogger } from '../terminal/report-error.js';
import type { IO } from '../terminal/io.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { afterProbe, decide, wrapForTmux, type Decision, type PreviewChoice, type Protocol } from './choose.js';
import { decodeRows, PreviewDecodeError } from '../images/decode.js';
import { ASSUMED_CELL, fitImage, HALF_BLOCK_CELL, previewArea, sixelGeometry, type CellSize, type Fit, type PixelSize, type SixelGeometry, type ToldSizes } from './fit.js';
import type { PixelRows } from '../images/pixels.js';
import { inForeground, probeTerminal, sameTerminal, type TerminalInput } from './probe.js';
import { scaleDown } from '../images/scale.js';

export interface PreviewOptions {
  /** auto, a protocol by name, or none (from --preview, SVC_PREVIEW or the stored setting). */
  choice: PreviewChoice;
  /**
   * May the terminal be asked whether it draws sixel (a DA1 query answered on stdin)? Default
   * true; pass false where stdin belongs to a line editor (the chat session), which would read
   * the answer as typing.
   */
  probe?: boolean;
  /** The terminal's size in cells; default stdout's own, else 80×24. */
  terminal?: CellSize;
  /** How the file is named in a warning (default: its path). */
  label?: string;
}

export type PreviewResult = { shown: true; protocol: Protocol; cells: CellSize } | { shown: false; reason: string };

/** The image as a file on disk, or its bytes. */
export type PreviewSource = { path: string } | { bytes: Uint8Array };

function terminalSize(io: IO, given: CellSize | undefined): CellSize {
  if (given) return given;
  const { columns, rows } = io.stdout as { columns?: number; rows?: number };
  // A pseudo-terminal nobody sized reports 0 × 0: draw for the classic 80 × 24 then.
  return { columns: columns && columns > 0 ? columns : 80, rows: rows && rows > 0 ? rows : 24 };
}

/**
 * How to draw, and for sixel the terminal's sizes in pixels when it can be asked: the
 * terminal is asked when the choice is auto and its environment does not settle it, or when
 * sixel was asked for by name (whose picture is sized in screen pixels, not cells).
 */
async function decideWithProbe(io: IO, options: PreviewOptions): Promise<{ decision: Decision; told: ToldSizes }> {
  const input = io.stdin as TerminalInput;
  const canProbe = options.probe !== false && io.stdinKind === 'tty' && sameTerminal(input, io.stdout as { fd?: number }) && inForeground();
  const decision = decide(options.choice, io.env, canProbe);
  if (decision.kind === 'probe') {
    const answers = await probeTerminal(input, io.stdout);
    return { decision: afterProbe(decision, answers.sixel, io.env), told: answers };
  }
  if (canProbe && decision.kind === 'draw' && decision.protocol === 'sixel') return { decision, told: await probeTerminal(input, io.stdout) };
  return { decision, told: {} };
}

/**
 * The bytes that draw `pixels` with `protocol`, ending on the line after the picture. `sixel`: the
 * sixel picture's cell size and area (kitty and iTerm2 fit the picture to cells themselves).
 */
async function render(pixels: PixelRows, decision: Extract<Decision, { kind: 'draw' }>, terminal: CellSize, sixel: SixelGeometry): Promise<{ text: Array<string | Buffer>; cells: CellSize; scaledAt: number }> {
  const area = previewArea(terminal);
  if (decision.protocol === 'blocks') {
    const fit = fitImage(pixels, area, HALF_BLOCK_CELL);
    const scaled = scaleDown(pixels, fit.pixels.width, fit.pixels.height);
    const scaledAt = performance.now();
    const { halfBlocks } = await import('./encoders/blocks.js');
    return { text: [halfBlocks(scaled, decision.colours)], cells: { columns: scaled.width, rows: Math.ceil(scaled.height / 2) }, scaledAt };
  }
  const fit: Fit = decision.protocol === 'sixel' ? fitImage(pixels, sixel.area, sixel.cell) : fitImage(pixels, area, ASSUMED_CELL);
  const scaled = scaleDown(pixels, fit.pixels.width, fit.pixels.height);
  const scaledAt = performance.now();
  let escape: string | Buffer;
  switch (decision.protocol) {
    case 'kitty':
      escape = (await import('./encoders/kitty.js')).kittyImage(scaled, fit.cells);
      break;
    case 'iterm':
      escape = (await import('./encoders/iterm.js')).itermImage(scaled, fit.cells);
      break;
    case 'sixel':
      escape = (await import('./encoders/sixel.js')).sixelImage(scaled);
      break;
  }
  // Sixel comes as ASCII bytes (a quarter of a megabyte is not worth a string); it is never wrapped.
  if (typeof escape === 'string' && decision.passthrough === 'tmux') escape = wrapForTmux(escape);
  // Each protocol leaves the cursor on the picture's last row: a newline moves past it.
  return { text: typeof escape === 'string' ? [`${escape}\n`] : [escape, '\n'], cells: fit.cells, scaledAt };
}

/**
 * Show `source` in the terminal on stdout, fitted to at most its width and two thirds of its
 * height. Nothing is drawn when stdout is not a terminal or the choice is none. A file that
 * cannot be read or decoded is a one-line warning on stderr, never a failure: the image is saved
 * whatever happens to its preview.
 */
export async function showPreview(io: IO, source: PreviewSource, options: PreviewOptions): Promise<PreviewResult> {
  const label = options.label ?? ('path' in source ? source.path : 'the image');
  return showDecoded(io, options, label, async () => decodeRows('path' in source ? await readFile(source.path) : source.bytes));
}

/**
 * Show the pixels `decode` gives (called only once a preview is decided on): the work of
 * {@link showPreview}, shared with the contact sheet of several variants (contact-sheet.ts).
 */
export async function showDecoded(io: IO, options: PreviewOptions, label: string, decode: () => Promise<PixelRows>): Promise<PreviewResult> {
  if (!io.stdoutIsTTY) return { shown: false, reason: 'stdout is not a terminal' };
  const { decision, told } = await decideWithProbe(io, options);
  if (decision.kind !== 'draw') return { shown: false, reason: decision.kind === 'none' ? decision.reason : 'undecided' };
  const debug = debugLogger(io);
  try {
    const started = performance.now();
    const pixels = await decode();
    const decoded = performance.now();
    const terminal = terminalSize(io, options.terminal);
    const sixel = sixelGeometry(terminal, told);
    const { text, cells, scaledAt } = await render(pixels, decision, terminal, sixel);
    const encoded = performance.now();
    for (const piece of text) io.stdout.write(piece);
    const times = { decode: decoded - started, scale: scaledAt - decoded, encode: encoded - scaledAt, write: performance.now() - encoded };
    debug?.(describeDrawing(decision.protocol, pixels, cells, sixel, times, text));
    return { shown: true, protocol: decision.protocol, cells };
  } catch (error) {
    const reason = error instanceof PreviewDecodeError ? error.message : describeFailure(error);
    io.warn(`no preview of ${label}: ${reason}`);
    return { shown: false, reason };
  }
}

/** The debug line (SVC_DEBUG=1) of a preview drawn: how, how big, and how long each part took. */
function describeDrawing(protocol: Protocol, image: PixelSize, cells: CellSize, sixel: SixelGeometry, times: Record<string, number>, text: Array<string | Buffer>): string {
  const bytes = text.reduce((sum, piece) => sum + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length), 0);
  const from = { told: 'from the terminal', graphics: "from the terminal's sixel area", assumed: 'assumed' }[sixel.source];
  const cellSize = protocol === 'sixel' ? `, cell ${sixel.cell.width}×${sixel.cell.height} px (${from})` : '';
  return `preview: ${protocol}, ${image.width}×${image.height} image in ${cells.columns}×${cells.rows} cells${cellSize}, ${bytes} bytes; ms: ${Object.entries(times)
    .map(([step, ms]) => `${step} ${ms.toFixed(1)}`)
    .join(', ')}`;
}

/** A read failure in words ("no such file or folder (ENOENT)"); anything else stays vague on purpose. */
function describeFailure(error: unknown): string {
  return errnoCode(error) ? `cannot read it: ${describeSystemError(error)}` : 'it could not be drawn';
}
