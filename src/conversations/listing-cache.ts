/**
 * What the last listing saw of each conversation file, kept in `$XDG_CACHE_HOME/svc/
 * conversation-list.jsonl` so the next `svc sessions list` reads only the files that changed
 * since: otherwise every listing reads and parses every conversation whole (bench/README.md,
 * "svc sessions list").
 *
 * An entry stands only while its file has the same modification and change times, size and inode
 * number: svc appends to a conversation (the size and times change) and writes new ones whole
 * under a new inode, and no one can set the change time back (a write or a chmod moves it). The cache holds the first line of each
 * conversation, so it is owner-only like the conversations. It is only a copy: one that cannot be
 * read, is damaged, or was made for another folder is ignored (and rewritten), and one that
 * cannot be written costs only speed.
 *
 * The format is a line of JSON saying what the cache is, then a line per file: its name, a tab,
 * a JSON array of what the listing shows, a tab, a JSON array of its tokens (for --usage). Lines
 * are parsed only when asked for, so `sessions list -n 20` of thousands parses 20 of them, where
 * a single JSON document would be parsed whole every time.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../storage/private-dir.js';
import { ByteBuilder } from '../core/byte-builder.js';
import { replaceFile } from '../storage/replace-file.js';
import type { ConversationFile } from './file-entries.js';
import type { ListedConversation, SpentTokens, Tokens } from './listed.js';

/** Raised whenever the shape of an entry changes: an older svc's cache is then ignored, not misread. */
const VERSION = 1;

/** What a file looked like (mtimeMs, size, ino, ctimeMs), then what a listing shows of it. */
type Head = [mtimeMs: number, size: number, ino: number, ctimeMs: number, updated: string, turns: number, opening: string, models: string[]];
/** Its tokens: apart, after a second tab, and parsed only for --usage (fewer objects for every other listing). */
type TokenPart = [spent: Tokens, byModel: Record<string, Tokens>];

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isTokens(value: unknown): value is Tokens {
  return Array.isArray(value) && value.length === 3 && isCount(value[0]) && isCount(value[1]) && isCount(value[2]);
}

/** A head as this svc writes it; anything else (a hand edit, a damaged line) is read as absent. Plain loops: it runs for every file of a listing. */
function isHead(value: unknown): value is Head {
  if (!Array.isArray(value) || value.length !== 8) return false;
  if (!isCount(value[0]) || !isCount(value[1]) || !isCount(value[2]) || !isCount(value[3])) return false;
  if (typeof value[4] !== 'string' || !isCount(value[5]) || typeof value[6] !== 'string') return false;
  const models: unknown = value[7];
  if (!Array.isArray(models)) return false;
  for (const model of models) if (typeof model !== 'string') return false;
  return true;
}

function isTokenPart(value: unknown): value is TokenPart {
  if (!Array.isArray(value) || value.length !== 2 || !isTokens(value[0])) return false;
  const byModel: unknown = value[1];
  if (typeof byModel !== 'object' || byModel === null || Array.isArray(byModel)) return false;
  // Own keys only (`in` would also walk anything a bug put on Object.prototype).
  for (const model of Object.keys(byModel)) if (!isTokens((byModel as Record<string, unknown>)[model])) return false;
  return true;
}

/** A file's row: its head, a tab, its token part. */
function rowOf(file: ConversationFile, listed: ListedConversation & { tokens: SpentTokens }): string {
  const head: Head = [file.mtimeMs, file.size, file.ino, file.ctimeMs, listed.updated, listed.turns, listed.opening, listed.models];
  const tokens: TokenPart = [listed.tokens.spent, listed.tokens.byModel];
  return `${JSON.stringify(head)}\t${JSON.stringify(tokens)}`;
}

/** `text` as JSON of the shape `is` accepts, or undefined. */
function parsed<T>(text: string, is: (value: unknown) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return is(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export class ListingCache {
  readonly #path: string;
  /** The conversations folder the entries describe: a cache made for another one is not used. */
  readonly #dir: string;
  /** The cache as read. */
  #text = '';
  /**
   * Where each file's row is: at or after 0, in #text (the cache as read); below 0, in #fresh
   * (`-1 - start`: rows this listing made). Parsed when asked for.
   */
  readonly #rows = new Map<string, number>();
  /** The rows this listing made, each ended by a newline, kept as bytes (core/byte-builder.ts says why). */
  readonly #fresh = new ByteBuilder();
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
      // Only a regular file is opened: a FIFO put there would block the listing.
      if (!statSync(path).isFile()) throw new Error('not a regular file');
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

  /** Drop `name` from the cache at `path`, if it is there (its conversation was deleted). */
  static forget(path: string, dir: string, name: string): void {
    const cache = ListingCache.open(path, dir);
    if (cache.#rows.has(name)) {
      cache.drop(name);
      cache.save();
    }
  }

  #header(): { v: number; dir: string } {
    return { v: VERSION, dir: this.#dir };
  }

  /**
   * What the listing last saw of `file`, if the file has not changed since; with its tokens when
   * `withTokens` (a row whose tokens cannot be read is then no row).
   */
  get(file: ConversationFile, withTokens = false): ListedConversation | undefined {
    const at = this.#rows.get(file.name);
    if (at === undefined) return undefined;
    // Parsed afresh each time rather than kept parsed: a listing asks for each file once, and
    // rows kept alive would only give the garbage collector more to move.
    const row = this.#rowText(at);
    const tab = row.indexOf('\t');
    if (tab === -1) return undefined;
    const head = parsed(row.slice(0, tab), isHead);
    if (!head || head[0] !== file.mtimeMs || head[1] !== file.size || head[2] !== file.ino || head[3] !== file.ctimeMs) return undefined;
    // JSON.parse makes a model named `__proto__` an own key like any other; it is only read from here.
    const listed: ListedConversation = { name: file.name, updated: head[4], turns: head[5], opening: head[6], models: head[7] };
    if (!withTokens) return listed;
    const tokens = parsed(row.slice(tab + 1), isTokenPart);
    return tokens && { ...listed, tokens: { spent: tokens[0], byModel: tokens[1] } };
  }

  /** Keep what a listing read of `file` for the next one. */
  set(file: ConversationFile, listed: ListedConversation & { tokens: SpentTokens }): void {
    this.#rows.set(file.name, -1 - this.#fresh.append(`${rowOf(file, listed)}\n`));
    this.#changed = true;
  }

  #rowText(at: number): string {
    if (at >= 0) return this.#text.slice(at, lineEnd(this.#text, at));
    const start = -1 - at;
    return this.#fresh.view(start, this.#fresh.indexOf(0x0a, start)).toString('utf8');
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
    const out = new ByteBuilder(this.#text.length + this.#fresh.length + 1024);
    out.append(`${JSON.stringify(this.#header())}\n`);
    for (const [name, at] of this.#rows) {
      out.append(`${name}\t`);
      if (at >= 0) {
        out.append(`${this.#rowText(at)}\n`);
      } else {
        const start = -1 - at;
        out.appendBytes(this.#fresh.view(), start, this.#fresh.indexOf(0x0a, start) + 1);
      }
    }
    try {
      ensurePrivateDir(dirname(this.#path));
      replaceFile(this.#path, out.view(), 0o600);
      this.#changed = false;
    } catch {
      // Not kept: the next listing reads the files again.
    }
  }
}

/** Where the line that `start` is in ends: its newline, or the end of the text. */
function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
}
