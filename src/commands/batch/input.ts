/**
 * Reading the requests: a JSONL file in the OpenAI Batch format, or one prompt per line
 * (`--prompts`), from a file or stdin. The input is read a line at a time: a first pass checks
 * every line (nothing is sent if any is bad), and the workers are fed the requests it kept, or,
 * for stdin, a pipe or a file too large to keep (KEEP_BYTES), by a second pass over it. stdin
 * and pipes cannot be read twice, so the first pass copies them to an owner-only temporary file as
 * it goes. A regular file (and that copy) is read synchronously (lines.ts fileLines says why).
 */
import { closeSync, constants, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync, type ReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InterruptedError, SvcError, UsageError } from '../../core/errors.js';
import type { IO } from '../../terminal/io.js';
import { asBytes } from '../../terminal/streams.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { BodyProblem } from './body-checks.js';
import { fileLines, readLines, type Line } from './lines.js';
import { parseRequestLine, promptRequest, type BatchRequest, type RequestDefaults } from './requests.js';

export type InputFormat = 'requests' | 'prompts';

export interface InputSource {
  /** As the user named it: the path, or "stdin". */
  name: string;
  /** The absolute path of a file, to refuse writing the output into it. */
  path: string | undefined;
  /** A regular file's size in bytes when it was opened (unknown for stdin and pipes). */
  size?: number;
  format: InputFormat;
  /** Its lines, from the start: synchronously from a regular file, else as they arrive. */
  lines(): Iterable<Line> | AsyncIterable<Line>;
  dispose(): void;
}

export type Entry = { line: number; request: BatchRequest } | { line: number; problem: string };

/**
 * The input named on the command line: `-` is stdin (never a terminal), anything else a path. A
 * path that is not a regular file (a named pipe, `<(…)`, `/dev/stdin`) can be read only once, so
 * it is kept like stdin; it is opened without blocking, so Ctrl-C still reaches svc while it
 * waits for a writer (`signal`).
 */
export function openInput(io: IO, name: string, format: InputFormat, signal?: AbortSignal): InputSource {
  if (name === '-') {
    if (io.stdinKind === 'tty') {
      throw new UsageError('- reads the requests from stdin, which is this terminal', { hint: 'pipe or redirect them: svc batch - < requests.jsonl' });
    }
    return readOnce('stdin', format, () => io.stdin, signal);
  }
  const path = resolve(io.cwd, name);
  let regular: boolean;
  let fifo: boolean;
  let size: number;
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) throw new UsageError(`${name} is a folder, not a file of requests`);
    regular = stats.isFile();
    fifo = stats.isFIFO();
    size = stats.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (errnoCode(error) === 'ENOENT') throw new UsageError(`${name}: no such file`);
    throw new UsageError(`cannot read ${name}: ${describeSystemError(error)}`);
  }
  if (!regular) return readOnce(name, format, () => openPipe(path, fifo, signal), signal);
  return { name, path, size, format, lines: () => fileLines(path), dispose() {} };
}

/** How long Ctrl-C keeps trying to release a pipe whose open has not reached it yet. */
const RELEASE_TRIES = 100;
const RELEASE_RETRY_MS = 20;

/**
 * A read stream of a pipe or device. Opening a named pipe waits for a writer, in a thread of
 * Node's pool that Node waits for at exit: if Ctrl-C comes first, svc opens the pipe for writing
 * itself (which never waits, and only succeeds while a reader is waiting) and closes it, so that
 * open returns, the stream sees the end, and svc can stop. Ctrl-C can come before the pool's
 * thread has begun its open (the stream is made, the open queued): then there is no reader yet,
 * and svc tries again shortly, as long as the open is still pending.
 */
function openPipe(path: string, fifo: boolean, signal: AbortSignal | undefined): ReadStream {
  const stream = createReadStream(path, { signal });
  if (!fifo || signal === undefined) return stream;
  let tries = 0;
  const release = (): void => {
    if (!stream.pending) return;
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting yet (its open not begun) or any more (it opened meanwhile).
      if (++tries < RELEASE_TRIES) setTimeout(release, RELEASE_RETRY_MS);
    }
  };
  signal.addEventListener('abort', release, { once: true });
  stream.once('open', () => signal.removeEventListener('abort', release));
  stream.once('close', () => signal.removeEventListener('abort', release));
  return stream;
}

/**
 * Input that can be read only once (stdin, a pipe): the first pass copies it to an owner-only
 * temporary file as it goes, and the second reads that copy.
 */
function readOnce(name: string, format: InputFormat, open: () => AsyncIterable<unknown>, signal: AbortSignal | undefined): InputSource {
  let spool: string | undefined;
  return {
    name,
    path: undefined,
    format,
    lines() {
      if (spool !== undefined) return fileLines(join(spool, 'input'));
      spool = mkdtempSync(join(tmpdir(), 'svc-batch-'));
      return readLines(copied(open(), join(spool, 'input'), name, signal));
    },
    dispose() {
      if (spool !== undefined) rmSync(spool, { recursive: true, force: true });
    },
  };
}

/** Pass `stream` on while copying it to `path` (created owner-only: requests may be private). */
async function* copied(stream: AsyncIterable<unknown>, path: string, name: string, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'wx', 0o600);
  try {
    for await (const piece of stream) {
      const bytes = asBytes(piece);
      try {
        for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      } catch (error) {
        throw new SvcError(`cannot keep a copy of ${name} in ${tmpdir()}: ${describeSystemError(error)}; nothing was sent`, { hint: 'free some space there (or set TMPDIR), or pass the requests as a file' });
      }
      yield bytes;
    }
  } catch (error) {
    // Stopped while reading (a pipe whose writer never came): nothing was sent.
    if (signal?.aborted === true) throw new InterruptedError('interrupted while reading the requests; nothing was sent');
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** One line of the input as a request, or what is wrong with it; undefined for a blank line. */
function entryOf(line: Line, format: InputFormat, defaults: RequestDefaults): Entry | undefined {
  if ('tooLong' in line) return { line: line.number, problem: 'the line is longer than 32 MiB' };
  if (line.text.trim() === '') return undefined;
  try {
    const request = format === 'prompts' ? promptRequest(line.text, line.number, defaults) : parseRequestLine(line.text, defaults);
    return { line: line.number, request };
  } catch (error) {
    if (!(error instanceof BodyProblem)) throw error;
    return { line: line.number, problem: error.message };
  }
}

function* syncEntries(lines: Iterable<Line>, format: InputFormat, defaults: RequestDefaults): Generator<Entry> {
  for (const line of lines) {
    const entry = entryOf(line, format, defaults);
    if (entry !== undefined) yield entry;
  }
}

async function* asyncEntries(lines: AsyncIterable<Line>, format: InputFormat, defaults: RequestDefaults): AsyncGenerator<Entry> {
  for await (const line of lines) {
    const entry = entryOf(line, format, defaults);
    if (entry !== undefined) yield entry;
  }
}

/** Every non-blank line of the input as a request, or what is wrong with it (synchronously when the input is a file). */
export function readEntries(source: InputSource, defaults: RequestDefaults): Iterable<Entry> | AsyncIterable<Entry> {
  const lines = source.lines();
  return Symbol.iterator in lines ? syncEntries(lines, source.format, defaults) : asyncEntries(lines, source.format, defaults);
}

export interface CheckedInput {
  /**
   * Every request, in order, when the input is a file small enough to keep (KEEP_BYTES): the second
   * pass then sends these instead of reading and checking the input again.
   */
  requests: BatchRequest[] | undefined;
  total: number;
  chat: number;
  image: number;
  /** Requests an earlier run finished: succeeded, and failed (redone only with --retry-failed). */
  doneBefore: number;
  failedBefore: number;
}

/**
 * An input file up to this size has its checked requests kept, so the second pass neither reads
 * nor parses it again (bench/README.md, "The batch's checked requests kept for a small input").
 * Parsed requests take several times their text, so the bound is low, and decided from the
 * file's size before anything is kept (keeping the first megabyte of a larger file and then
 * dropping it would raise the batch's peak memory); a larger file, stdin and pipes are read
 * again, so a batch of any size still runs in memory that does not grow with it.
 */
const KEEP_BYTES = 1024 * 1024;

/** How many bad lines are listed; the rest are counted. */
const LISTED_PROBLEMS = 100;

/**
 * The first pass: every line is checked, custom_ids are unique (image ids also ignoring case, as
 * their files would collide on macOS and Windows). Any bad line: a usage error listing them all
 * (the first hundred, and how many more), before anything is sent.
 */
export async function checkInput(source: InputSource, defaults: RequestDefaults, previous: ReadonlyMap<string, boolean>): Promise<CheckedInput> {
  const seen = new Map<string, number>();
  const imageFiles = new Map<string, number>();
  const problems: string[] = [];
  let badLines = 0;
  const kept = source.size !== undefined && source.size <= KEEP_BYTES;
  const counts: CheckedInput = { requests: kept ? [] : undefined, total: 0, chat: 0, image: 0, doneBefore: 0, failedBefore: 0 };
  const problem = (line: number, text: string): void => {
    badLines += 1;
    if (problems.length < LISTED_PROBLEMS) problems.push(`  line ${line}: ${text}`);
  };
  const take = (entry: Entry): void => {
    if ('problem' in entry) {
      problem(entry.line, entry.problem);
      return;
    }
    const { customId, kind } = entry.request;
    const earlier = seen.get(customId);
    if (earlier !== undefined) {
      problem(entry.line, `custom_id ${JSON.stringify(customId)} is already used on line ${earlier}`);
      return;
    }
    seen.set(customId, entry.line);
    if (kind === 'image') {
      const clash = imageFiles.get(customId.toLowerCase());
      if (clash !== undefined) {
        problem(entry.line, `custom_id ${JSON.stringify(customId)} names the same image file as line ${clash} on file systems that ignore case`);
        return;
      }
      imageFiles.set(customId.toLowerCase(), entry.line);
    }
    counts.total += 1;
    counts[kind] += 1;
    counts.requests?.push(entry.request);
    const before = previous.get(customId);
    if (before === true) counts.doneBefore += 1;
    else if (before === false) counts.failedBefore += 1;
  };
  const entries = readEntries(source, defaults);
  if (Symbol.iterator in entries) for (const entry of entries) take(entry);
  else for await (const entry of entries) take(entry);
  if (badLines > 0) {
    const more = badLines > problems.length ? `\n  … and ${badLines - problems.length} more` : '';
    throw new UsageError(`${source.name}: ${badLines} bad ${badLines === 1 ? 'line' : 'lines'}; nothing was sent\n${problems.join('\n')}${more}`);
  }
  if (counts.total === 0) throw new UsageError(`${source.name} holds no ${source.format === 'prompts' ? 'prompts' : 'requests'}; nothing to do`);
  return counts;
}
