/**
 * Reading one of svc's JSON files in the config folder, and saying precisely what is wrong with
 * one that cannot be used, without ever quoting it: credentials.json holds the key, and a
 * hand-edited config.json may hold anything. (JSON.parse's own messages quote the text in newer
 * Node versions, so neither they nor the SyntaxError itself go into our errors.)
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SvcError } from '../core/errors.js';
import { isObject } from '../core/json.js';

/** A settings or credentials file that exists but cannot be used. Exit 1: nothing was sent. */
export class BrokenStoreFileError extends SvcError {
  readonly path: string;
  /** What is wrong, without the path: "is not valid JSON (line 2, column 5)". */
  readonly problem: string;
  /** Whether writing a fresh file in its place is possible (it is a file, only its content is bad). */
  readonly replaceable: boolean;
  constructor(path: string, problem: string, hint: string, replaceable: boolean) {
    super(`${path} ${problem}`, { hint });
    this.path = path;
    this.problem = problem;
    this.replaceable = replaceable;
  }

  /** The same problem, refusing a change: the user's file stays as it is. */
  refusingChange(): BrokenStoreFileError {
    return new BrokenStoreFileError(this.path, `${this.problem}; svc did not change it`, this.hint ?? '', this.replaceable);
  }
}

/** Where JSON.parse stopped, as "line L, column C", from the position in its message. */
function syntaxPlace(text: string, error: unknown): string | undefined {
  const match = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!match) return /end of JSON input/.test(String(error)) ? 'it ends too early' : undefined;
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * The values stored in `path`: {} when there is no file yet, or an empty one. Throws
 * BrokenStoreFileError, with `fix` as its hint, for anything else that is not a JSON object.
 */
export function readStoreFile(path: string, fix: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {}; // nothing stored yet
    if (code === 'EISDIR') throw new BrokenStoreFileError(path, 'is a folder, not a file', 'move it away: svc keeps this file there', false);
    if (code === 'ENOTDIR') {
      throw new BrokenStoreFileError(path, `cannot be read: ${dirname(path)} is not a folder`, 'move that file away: svc keeps its settings in that folder', false);
    }
    if (code === 'EACCES' || code === 'EPERM') {
      throw new BrokenStoreFileError(path, 'cannot be read: permission denied', `check its owner and mode: ls -l ${path}`, false);
    }
    throw new BrokenStoreFileError(path, `cannot be read (${code ?? 'unknown error'})`, fix, false);
  }
  // A zero-byte or blank file holds nothing: there is nothing to lose or report.
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const place = syntaxPlace(text, error);
    throw new BrokenStoreFileError(path, `is not valid JSON${place ? ` (${place})` : ''}`, fix, true);
  }
  if (!isObject(value)) throw new BrokenStoreFileError(path, `holds ${kindOf(value)}, not a JSON object`, fix, true);
  return value;
}
