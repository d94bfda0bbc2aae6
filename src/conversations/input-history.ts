/**
 * Earlier inputs for Up/Down, kept across sessions in `$XDG_STATE_HOME/svc/input-history.jsonl`
 * (one JSON string per line, owner-only). With --no-save the earlier inputs are still offered,
 * and the session's own ones for as long as it lasts, but nothing is written.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter } from '../core/reporter.js';
import { appendJsonLine, describeLineProblems, readJsonLines, type LineProblem } from '../storage/jsonl-file.js';
import { stateDir } from '../storage/paths.js';
import { ensurePrivateDir } from '../storage/private-dir.js';
import { describeSystemError } from '../core/system-errors.js';

/** How many inputs are kept, in the file and in readline's own list. */
export const KEEP = 1000;

export class InputHistory {
  /** Newest first, as readline wants it. */
  readonly entries: string[];
  readonly #file: string | undefined;

  private constructor(entries: string[], file: string | undefined) {
    this.entries = entries;
    this.#file = file;
  }

  /** History kept in memory only. */
  static memory(): InputHistory {
    return new InputHistory([], undefined);
  }

  /**
   * The history of earlier sessions. Damaged lines (a cut last line, a line that is not a string)
   * are skipped and named once through `warn`; a history that cannot be read at all is started
   * afresh, with a word, since losing it costs only Up-arrow convenience. With `write: false`
   * the inputs added later are kept in memory only.
   */
  static load(env: Record<string, string | undefined>, warn: (line: string) => void = () => {}, write = true): InputHistory {
    const file = join(stateDir(env), 'input-history.jsonl');
    const entries: string[] = [];
    try {
      // Only a regular file is read: a FIFO or a device there would block or never end.
      if (statSync(file).isFile()) {
        const { values, problems } = readJsonLines(file);
        const skipped: LineProblem[] = [...problems];
        for (const { line, value } of values) {
          if (typeof value === 'string') entries.push(value);
          else skipped.push({ line, problem: 'not a history entry' });
        }
        if (skipped.length > 0) warn(describeLineProblems(file, skipped.sort((a, b) => a.line - b.line)));
      } else {
        warn(`svc: ${file} is not a file; input history is not kept`);
        return new InputHistory([], undefined);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`svc: cannot read ${file} (${describeSystemError(error)}); earlier inputs are not offered`);
    }
    return new InputHistory(entries.slice(-KEEP).reverse(), write ? file : undefined);
  }

  add(entry: string): void {
    if (entry.trim() === '' || this.entries[0] === entry) return;
    this.entries.unshift(entry);
    if (this.entries.length > KEEP) this.entries.length = KEEP;
    if (!this.#file) return;
    try {
      ensurePrivateDir(join(this.#file, '..'));
      appendJsonLine(this.#file, entry);
    } catch {
      // Losing an entry of input history is not worth interrupting the conversation for.
    }
  }
}

/**
 * The user's saved input history, telling stderr (once) about damage it meets; with `write:
 * false` (--no-save) it is read, never written.
 */
export function inputHistoryFor(io: Reporter, write = true): InputHistory {
  return InputHistory.load(io.env, (line) => io.say(line), write);
}
