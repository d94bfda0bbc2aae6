/**
 * What the last listing saw of each conversation file, kept in `$XDG_CACHE_HOME/svc/
 * conversation-list.jsonl` so the next `svc sessions list` reads only the files that changed
 * since: listing 10,000 conversations otherwise reads and parses 60 MB (bench/RESULTS.md).
 *
 * An entry stands only while its file has the same modification time, size and inode number:
 * svc appends to a conversation (the size changes) and writes new ones whole under a new inode,
 * and so does any editor that saves through a new file. The cache holds the first line of each
 * conversation, so it is owner-only like the conversations. It is only a copy: one that cannot be
 * read, is damaged, or was made for another folder is ignored (and rewritten), and one that
 * cannot be written costs only speed.
 *
 * The format is a line of JSON saying what the cache is, then a line per file: its name, a tab,
 * and a JSON array. Lines are parsed only when asked for, so `sessions list -n 20` of 10,000
 * parses 20 of them (a single JSON document of them all took a 10,000 listing 150 ms to read).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../settings/private-dir.js';
import { tempPathIn } from '../storage/temp-name.js';
import type { ConversationFile } from './file-entries.js';
import type { ListedConversation, Tokens } from './listed.js';

/** Raised whenever the shape of an entry changes: an older svc's cache is then ignored, not misread. */
const VERSION = 1;

/** One file's line after its name: what the file looked like (mtimeMs, size, ino), then what it holds. */
type Row = [mtimeMs: number, size: number, ino: number, updated: string, turns: number, opening: string, models: string[], tokensByModel: Record<string, Tokens>];

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isTokens(value: unknown): value is Tokens {
  return Array.isArray(value) && value.length === 3 && isCount(value[0]) && isCount(value[1]) && isCount(value[2]);
}

/** A row as this svc writes it; anything else (a hand edit, a damaged line) is read as absent. Plain loops: it runs for every file of a listing. */
function isRow(value: unknown): value is Row {
  if (!Array.isArray(value) || value.length !== 8) return false;
  if (!isCount(value[0]) || !isCount(value[1]) || !isCount(value[2]) || typeof value[3] !== 'string' || !isCount(value[4]) || typeof value[5] !== 'string') return false;
  const models: unknown = value[6];
  if (!Array.isArray(models)) return false;
  for (const model of models) if (typeof model !== 'string') return false;
  const tokens: unknown = value[7];
  if (typeof tokens !== 'object' || tokens === null || Array.isArray(tokens)) return false;
  for (const model in tokens) if (!isTokens((tokens as Record<string, unknown>)[model])) return false;
  return true;
}

function rowOf(file: ConversationFile, listed: ListedConversation): Row {
  return [file.mtimeMs, file.size, file.ino, listed.updated, listed.turns, listed.opening, listed.models, listed.tokensByModel];
}

function listedOfRow(name: string, row: Row): ListedConversation {
  return { name, updated: row[3], turns: row[4], opening: row[5], models: row[6], tokensByModel: row[7] };
}

export class ListingCache {
  readonly #path: string;
  /** The conversations folder the entries describe: a cache made for another one is not used. */
  readonly #dir: string;
  /** The cache as read. */
  #text = '';
  /**
   * Where each file's row is in #text (parsed when asked for), or the text of its row as this
   * listing made it (text rather than arrays: fewer objects for the garbage collector to move).
   */
  readonly #rows = new Map<string, number | string>();
  #changed = false;

  private constructor(path: string, dir: string) {
    this.#path = path;
    this.#dir = dir;
  }

  /** The cache at `path` for the conversations in `dir`; empty when there is none yet or it cannot be used. */
  static open(path: string, dir: string): ListingCache {
    const cache = new ListingCache(path, dir);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      cache.#changed = true; // none yet, or unreadable: written afresh
      return cache;
    }
    const header = `${JSON.stringify(cache.#header())}\n`;
    if (!text.startsWith(header)) {
      cache.#changed = true;
      return cache;
    }
    // Where each file's row starts in the text, not the row itself: no string is made of a line
    // that is never asked for.
    cache.#text = text;
    for (let start = header.length; start < text.length; ) {
      const end = lineEnd(text, start);
      const tab = text.indexOf('\t', start);
      if (tab > start && tab < end) cache.#rows.set(text.slice(start, tab), tab + 1);
      start = end + 1;
    }
    return cache;
  }

  #header(): { v: number; dir: string } {
    return { v: VERSION, dir: this.#dir };
  }

  /** What the listing last saw of `file`, if the file has not changed since. */
  get(file: ConversationFile): ListedConversation | undefined {
    const kept = this.#rows.get(file.name);
    // Parsed afresh each time rather than kept parsed: a listing asks for each file once, and
    // rows kept alive would only give the garbage collector more to move.
    const row = kept === undefined ? undefined : parsedRow(typeof kept === 'number' ? this.#rowText(kept) : kept);
    if (!row || row[0] !== file.mtimeMs || row[1] !== file.size || row[2] !== file.ino) return undefined;
    return listedOfRow(file.name, row);
  }

  /** Keep what a listing read of `file` for the next one. */
  set(file: ConversationFile, listed: ListedConversation): void {
    this.#rows.set(file.name, JSON.stringify(rowOf(file, listed)));
    this.#changed = true;
  }

  #rowText(start: number): string {
    return this.#text.slice(start, lineEnd(this.#text, start));
  }

  /** Forget `name` (a file that is gone, or holds no conversation now). */
  drop(name: string): void {
    if (this.#rows.delete(name)) this.#changed = true;
  }

  /** The names that have an entry. */
  names(): string[] {
    return [...this.#rows.keys()];
  }

  /**
   * Write the cache if anything changed: whole or not at all (a temporary file renamed over it),
   * so two listings at once leave one of their caches, never a mix. A failure costs only speed.
   */
  save(): void {
    if (!this.#changed) return;
    const lines = [JSON.stringify(this.#header())];
    for (const [name, row] of this.#rows) lines.push(`${name}\t${typeof row === 'number' ? this.#rowText(row) : row}`);
    let temp: string | undefined;
    try {
      const folder = dirname(this.#path);
      ensurePrivateDir(folder);
      temp = tempPathIn(folder);
      writeFileSync(temp, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
      renameSync(temp, this.#path);
      this.#changed = false;
    } catch {
      try {
        if (temp !== undefined) rmSync(temp, { force: true });
      } catch {
        // Nothing more to do: a stray temporary file in svc's own cache folder.
      }
    }
  }
}

/** Where the line that `start` is in ends: its newline, or the end of the text. */
function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}

function parsedRow(line: string): Row | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRow(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
