/**
 * Earlier inputs for Up/Down, kept across sessions in `$XDG_STATE_HOME/svc/input-history.jsonl`
 * (one JSON string per line, owner-only). With --no-save nothing is written.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from '../../../settings/paths.js';
import { ensurePrivateDir } from '../../../settings/private-dir.js';

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

  static load(env: Record<string, string | undefined>): InputHistory {
    const dir = stateDir(env);
    const file = join(dir, 'input-history.jsonl');
    let entries: string[] = [];
    try {
      entries = readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line) => {
          try {
            const value: unknown = JSON.parse(line);
            return typeof value === 'string' ? [value] : [];
          } catch {
            return [];
          }
        })
        .slice(-KEEP)
        .reverse();
    } catch {
      // No history yet.
    }
    return new InputHistory(entries, file);
  }

  add(entry: string): void {
    if (entry.trim() === '' || this.entries[0] === entry) return;
    this.entries.unshift(entry);
    if (this.entries.length > KEEP) this.entries.length = KEEP;
    if (!this.#file) return;
    try {
      ensurePrivateDir(join(this.#file, '..'));
      appendFileSync(this.#file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // Losing an entry of input history is not worth interrupting the conversation for.
    }
  }
}
