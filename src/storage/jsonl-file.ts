/**
 * Files of JSON lines that svc appends to and reads back (saved conversations, input history).
 *
 * Such a file is damaged in a few typical ways: a crash or a full disk cuts the last line short,
 * power loss leaves NUL bytes, an editor or another program leaves a line that is not svc's.
 * Reading skips only the damaged lines and names them; appending always starts on a fresh line,
 * so a cut line never swallows the next record.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { describeBytes } from '../core/byte-size.js';
import { LineSplitter, linesOfFile, type SplitLine } from './line-splitter.js';

/**
 * The longest line read, in bytes. A record is one turn (a message and its reply); the longest
 * real one is far below this, while a line of garbage without a newline could be any size, and
 * reading it whole would exhaust memory.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface JsonLine {
  /** 1-based, as an editor shows it. */
  line: number;
  value: unknown;
}

export interface LineProblem {
  line: number;
  /** What is wrong, in a few words ("not complete JSON"). */
  problem: string;
  /** The line was still used (bytes that are not UTF-8 became U+FFFD); otherwise it was skipped. */
  kept?: boolean;
}

export interface JsonLines {
  values: JsonLine[];
  problems: LineProblem[];
}

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1024 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');


function parseLine(bytes: Buffer, line: number, into: JsonLines): void {
  let text: string;
  let kept: LineProblem | undefined;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    // svc only ever writes UTF-8; keep what can be read rather than drop a whole turn.
    text = lenientUtf8.decode(bytes);
    kept = { line, problem: 'bytes that are not UTF-8, kept as �', kept: true };
  }
  if (text.trim() === '') return;
  try {
    into.values.push({ line, value: JSON.parse(text) as unknown });
    if (kept) into.problems.push(kept);
  } catch {
    into.problems.push({ line, problem: 'not complete JSON' });
  }
}

/** One line into `into`: parsed, skipped when blank, or named as too long. */
function addLine(line: SplitLine, maxLineBytes: number, into: JsonLines): void {
  if ('tooLong' in line) into.problems.push({ line: line.number, problem: `longer than ${describeBytes(maxLineBytes)}` });
  else if (line.bytes.length > 0) parseLine(line.bytes, line.number, into);
}

let scratch: Buffer | undefined;

/**
 * The buffer files are read into, made once: reading is synchronous, so one is enough, and a
 * fresh megabyte for each of thousands of small files (sessions search) kept the garbage
 * collector busy for half the run. Lines are copied out of it before the next read.
 */
function readBuffer(): Buffer {
  return (scratch ??= Buffer.allocUnsafe(CHUNK_BYTES));
}

/**
 * Every line of `path` that holds JSON, and the lines that do not. Reads in pieces, so a huge
 * line costs at most {@link MAX_LINE_BYTES} of memory. Throws only when the file cannot be read.
 */
export function readJsonLines(path: string, maxLineBytes = MAX_LINE_BYTES): JsonLines {
  const result: JsonLines = { values: [], problems: [] };
  // Each line is parsed before the next read reuses the buffer (linesOfFile).
  for (const line of linesOfFile(path, maxLineBytes, readBuffer())) addLine(line, maxLineBytes, result);
  return result;
}

/** The JSON lines of a file already read whole (one far smaller than {@link MAX_LINE_BYTES}). */
export function parseJsonLines(bytes: Buffer): JsonLines {
  const result: JsonLines = { values: [], problems: [] };
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  for (const line of splitter.push(bytes)) addLine(line, MAX_LINE_BYTES, result);
  const last = splitter.end();
  if (last) addLine(last, MAX_LINE_BYTES, result);
  return result;
}

/**
 * True when the file open on `fd` (readable) does not end with a newline: its last write was cut
 * (a crash, a full disk), so the next record must start on a fresh line.
 */
export function endsMidLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== NEWLINE;
}

/**
 * Append `value` as one line, created owner-only if new. When the file does not end with a
 * newline (its last write was cut), the record starts on a fresh line, so the cut line stays the
 * only damage. The line goes out in one write(2) with O_APPEND: two processes appending at once
 * never interleave their records.
 */
export function appendJsonLine(path: string, value: unknown): void {
  const fd = openSync(path, 'a+', 0o600);
  try {
    const freshLine = endsMidLine(fd);
    const bytes = Buffer.from(`${freshLine ? '\n' : ''}${JSON.stringify(value)}\n`);
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/** One line for stderr naming the damaged lines of `path`: "line 3 skipped (not complete JSON)". */
export function describeLineProblems(path: string, problems: LineProblem[], shown = 5): string {
  const parts = problems.slice(0, shown).map((p) => (p.kept ? `line ${p.line} has ${p.problem}` : `line ${p.line} skipped (${p.problem})`));
  const more = problems.length > shown ? `, and ${problems.length - shown} more` : '';
  return `svc: ${path}: ${parts.join(', ')}${more}; the rest is kept`;
}
