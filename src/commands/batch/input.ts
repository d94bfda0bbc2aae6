/**
 * Reading the requests: a JSONL file in the OpenAI Batch format, or one prompt per line
 * (`--prompts`), from a file or stdin. The input is read twice as a stream, never held: a first
 * pass checks every line (nothing is sent if any is bad), a second feeds the workers. stdin cannot
 * be read twice, so the first pass copies it to an owner-only temporary file as it goes.
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SvcError, UsageError } from '../../core/errors.js';
import type { IO } from '../../terminal/io.js';
import { asBytes } from '../../terminal/streams.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { BodyProblem } from './body-checks.js';
import { readLines } from './lines.js';
import { parseRequestLine, promptRequest, type BatchRequest, type RequestDefaults } from './requests.js';

export type InputFormat = 'requests' | 'prompts';

export interface InputSource {
  /** As the user named it: the path, or "stdin". */
  name: string;
  /** The absolute path of a file, to refuse writing the output into it. */
  path: string | undefined;
  format: InputFormat;
  read(): AsyncIterable<unknown>;
  dispose(): void;
}

export type Entry = { line: number; request: BatchRequest } | { line: number; problem: string };

/** The input named on the command line: `-` is stdin (never a terminal), anything else a file. */
export function openInput(io: IO, name: string, format: InputFormat): InputSource {
  if (name === '-') return stdinSource(io, format);
  const path = resolve(io.cwd, name);
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${name} is a folder, not a file of requests`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (errnoCode(error) === 'ENOENT') throw new UsageError(`${name}: no such file`);
    throw new UsageError(`cannot read ${name}: ${describeSystemError(error)}`);
  }
  return { name, path, format, read: () => createReadStream(path), dispose() {} };
}

function stdinSource(io: IO, format: InputFormat): InputSource {
  if (io.stdinKind === 'tty') {
    throw new UsageError('- reads the requests from stdin, which is this terminal', { hint: 'pipe or redirect them: svc batch - < requests.jsonl' });
  }
  let spool: string | undefined;
  return {
    name: 'stdin',
    path: undefined,
    format,
    read() {
      if (spool !== undefined) return createReadStream(join(spool, 'input'));
      spool = mkdtempSync(join(tmpdir(), 'svc-batch-'));
      return copied(io.stdin, join(spool, 'input'));
    },
    dispose() {
      if (spool !== undefined) rmSync(spool, { recursive: true, force: true });
    },
  };
}

/** Pass `stream` on while copying it to `path` (created owner-only: requests may be private). */
async function* copied(stream: AsyncIterable<unknown>, path: string): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'wx', 0o600);
  try {
    for await (const piece of stream) {
      const bytes = asBytes(piece);
      try {
        for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      } catch (error) {
        throw new SvcError(`cannot keep a copy of stdin in ${tmpdir()}: ${describeSystemError(error)}; nothing was sent`, { hint: 'free some space there (or set TMPDIR), or pass the requests as a file' });
      }
      yield bytes;
    }
  } finally {
    closeSync(fd);
  }
}

/** Every non-blank line of the input as a request, or what is wrong with it. */
export async function* readEntries(source: InputSource, defaults: RequestDefaults): AsyncGenerator<Entry> {
  for await (const line of readLines(source.read())) {
    if ('tooLong' in line) {
      yield { line: line.number, problem: 'the line is longer than 32 MiB' };
      continue;
    }
    if (line.text.trim() === '') continue;
    try {
      const request = source.format === 'prompts' ? promptRequest(line.text, line.number, defaults) : parseRequestLine(line.text, defaults);
      yield { line: line.number, request };
    } catch (error) {
      if (!(error instanceof BodyProblem)) throw error;
      yield { line: line.number, problem: error.message };
    }
  }
}

export interface CheckedInput {
  total: number;
  chat: number;
  image: number;
  /** Requests an earlier run finished: succeeded, and failed (redone only with --retry-failed). */
  doneBefore: number;
  failedBefore: number;
}

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
  const counts: CheckedInput = { total: 0, chat: 0, image: 0, doneBefore: 0, failedBefore: 0 };
  const problem = (line: number, text: string): void => {
    badLines += 1;
    if (problems.length < LISTED_PROBLEMS) problems.push(`  line ${line}: ${text}`);
  };
  for await (const entry of readEntries(source, defaults)) {
    if ('problem' in entry) {
      problem(entry.line, entry.problem);
      continue;
    }
    const { customId, kind } = entry.request;
    const earlier = seen.get(customId);
    if (earlier !== undefined) {
      problem(entry.line, `custom_id ${JSON.stringify(customId)} is already used on line ${earlier}`);
      continue;
    }
    seen.set(customId, entry.line);
    if (kind === 'image') {
      const clash = imageFiles.get(customId.toLowerCase());
      if (clash !== undefined) {
        problem(entry.line, `custom_id ${JSON.stringify(customId)} names the same image file as line ${clash} on file systems that ignore case`);
        continue;
      }
      imageFiles.set(customId.toLowerCase(), entry.line);
    }
    counts.total += 1;
    counts[kind] += 1;
    const before = previous.get(customId);
    if (before === true) counts.doneBefore += 1;
    else if (before === false) counts.failedBefore += 1;
  }
  if (badLines > 0) {
    const more = badLines > problems.length ? `\n  … and ${badLines - problems.length} more` : '';
    throw new UsageError(`${source.name}: ${badLines} bad ${badLines === 1 ? 'line' : 'lines'}; nothing was sent\n${problems.join('\n')}${more}`);
  }
  if (counts.total === 0) throw new UsageError(`${source.name} holds no ${source.format === 'prompts' ? 'prompts' : 'requests'}; nothing to do`);
  return counts;
}
