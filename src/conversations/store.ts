/**
 * Where conversations live: one `<name>.jsonl` per conversation in
 * `$XDG_DATA_HOME/svc/conversations`, owner-only.
 *
 * The folder is the user's too: a damaged line costs that line (named on stderr), a file that is
 * not svc's (`my notes.jsonl`, a folder named `x.jsonl`, someone else's log) is left out of the
 * listing and of --continue, and one file that cannot be read never hides the others.
 */
import { linkSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError, UsageError } from '../core/errors.js';
import type { Reporter } from '../core/reporter.js';
import { writeNewFile } from '../storage/write-new-file.js';
import { appendJsonLine, describeLineProblems, type JsonLines, type LineProblem } from '../storage/jsonl-file.js';
import { cacheDir, dataDir } from '../storage/paths.js';
import { ensurePrivateDir } from '../storage/private-dir.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { replay, type Conversation, type ConversationRecord } from './model.js';
import { recordOf } from './records.js';
import { CONVERSATION_EXTENSION as EXTENSION, checkConversationName } from '../core/names.js';
import { conversationFiles, entryAt, quickLook, readConversationLines, type ConversationFile } from './file-entries.js';
import { ListingCache } from './listing-cache.js';
import { checkSavable } from './savable.js';


/** An ambiguous beginning of a name lists at most this many of the names it begins. */
const MAX_CANDIDATES = 10;

/** The order of listings: most recently changed first (then by name, for a stable order). */
export function newestFirst(a: { name: string; updated: string }, b: { name: string; updated: string }): number {
  return b.updated.localeCompare(a.updated) || b.name.localeCompare(a.name);
}

export interface ConversationSummary {
  name: string;
  updated: string;
  turns: number;
  conversation: Conversation;
  /** Some lines were damaged (and reported): a listing reads it, and says so, every time. */
  damaged: boolean;
}

/** A file's lines, already read, and its time. */
type Preread = { lines: JsonLines; mtimeMs: number };

interface Loaded {
  conversation: Conversation;
  /** How many lines were records: 0 means the file is not (or no longer) a conversation. */
  records: number;
  problems: LineProblem[];
}

export interface StoreOptions {
  /** Where warnings about damaged files go (one line each); nowhere by default. */
  warn?: (line: string) => void;
}

export class ConversationStore {
  readonly dir: string;
  /** svc's data folder, where the images conversations refer to are kept (storage/image-store.ts). */
  readonly dataDir: string;
  /** Where listings keep what they saw of each file (listing-cache.ts). */
  readonly listingCachePath: string;
  readonly #warn: (line: string) => void;

  constructor(env: Record<string, string | undefined>, options: StoreOptions = {}) {
    this.dataDir = dataDir(env);
    this.dir = join(this.dataDir, 'conversations');
    this.listingCachePath = join(cacheDir(env), 'conversation-list.jsonl');
    this.#warn = options.warn ?? (() => {});
  }

  pathOf(name: string): string {
    return join(this.dir, `${checkConversationName(name)}${EXTENSION}`);
  }

  /** True when `name` is a conversation file (a name that is not a file is not one). */
  exists(name: string): boolean {
    try {
      return entryAt(this.pathOf(name)).kind === 'file';
    } catch {
      return false;
    }
  }

  /** True when nothing at all is at `name`'s path (so a conversation of that name can be started). */
  isFree(name: string): boolean {
    try {
      return entryAt(this.pathOf(name)).kind === 'missing';
    } catch {
      return false; // reading it will say what is wrong
    }
  }

  /** Add one record, on a line of its own (see appendJsonLine). */
  append(name: string, record: ConversationRecord): void {
    try {
      ensurePrivateDir(this.dir);
    } catch (error) {
      // mkdir says EEXIST when a file has the folder's name: the folder is what is missing.
      if (errnoCode(error) === 'EEXIST') throw Object.assign(new Error(`${this.dir} is not a folder`), { code: 'ENOTDIR' });
      throw error;
    }
    appendJsonLine(this.pathOf(name), record);
  }

  /** Start a conversation file (a no-op record if it exists already: names may be resumed). */
  create(name: string, now = new Date()): void {
    if (!this.exists(name)) this.append(name, { type: 'start', v: 1, name, created: now.toISOString() });
  }

  /**
   * Before anything is sent: throws, saying why, when a turn of `name` could not be saved (the
   * folder is a file, read-only, not ours). A full disk can only be found when writing.
   */
  checkWritable(name: string): void {
    checkSavable(this.dir, this.pathOf(name));
  }

  /**
   * Read a conversation. Damaged lines are skipped and named in one warning; a name that is not
   * a conversation file, or a file that cannot be read, is an error that says which and why.
   */
  read(name: string): Conversation {
    return this.#load(name, true).conversation;
  }

  /** The lines of `name`'s file (file-entries.ts readConversationLines: it throws, saying why). */
  #readLines(name: string, known?: ConversationFile): Preread {
    return readConversationLines(this.pathOf(name), name, known);
  }

  /**
   * Every record of `name`'s log, in order, undone turns and all (`svc sessions show --all`).
   * Damaged lines are skipped and named in one warning, as `read` does.
   */
  records(name: string): ConversationRecord[] {
    const { lines } = this.#readLines(name);
    return this.#recordsOf(name, lines, true).records;
  }

  #recordsOf(name: string, lines: JsonLines, report: boolean): { records: ConversationRecord[]; problems: LineProblem[] } {
    const records: ConversationRecord[] = [];
    const problems = [...lines.problems];
    for (const { line, value } of lines.values) {
      const record = recordOf(value);
      if (record) records.push(record);
      else problems.push({ line, problem: 'not a conversation record' });
    }
    problems.sort((a, b) => a.line - b.line);
    if (report && problems.length > 0) this.#warn(describeLineProblems(this.pathOf(name), problems));
    return { records, problems };
  }

  /**
   * Write a new conversation whole, from its records: all of it or nothing, and never over
   * anything already at that name (a conversation, a file that is not one): that is a usage
   * error naming it, and nothing is written.
   */
  createWith(name: string, records: ConversationRecord[]): void {
    const path = this.pathOf(name);
    const taken = (): UsageError => new UsageError(`a conversation named "${name}" exists already; nothing was written`, { hint: 'choose another name' });
    if (!this.isFree(name)) throw taken();
    try {
      ensurePrivateDir(this.dir);
    } catch (error) {
      throw new SvcError(`cannot save conversations in ${this.dir}: ${describeSystemError(error)}`, { cause: error });
    }
    writeNewFile(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''), 0o600, {
      taken,
      cannot: (error) => new SvcError(`cannot write ${path}: ${describeSystemError(error)}; nothing was written`, { cause: error }),
    });
  }

  /** Load `name`, from its file (as a listing found it) or from lines already read. */
  #load(name: string, report: boolean, from?: Preread | ConversationFile): Loaded {
    const { lines, mtimeMs } = from && 'lines' in from ? from : this.#readLines(name, from);
    const { records, problems } = this.#recordsOf(name, lines, report);
    const conversation = replay(name, records);
    // A file whose start record was lost still has a date: when it last changed.
    if (conversation.created === '') conversation.created = conversation.updated || new Date(mtimeMs).toISOString();
    return { conversation, records: records.length, problems };
  }

  /**
   * Load `name` for a listing: a file that cannot be read or holds no record is named and passed
   * over; its damaged lines are reported only when `reportLines` (--continue reads it again).
   */
  #probe(name: string, reportLines: boolean, from?: Preread | ConversationFile): Loaded | undefined {
    try {
      const loaded = this.#load(name, reportLines, from);
      if (loaded.records > 0) return loaded;
      if (loaded.problems.length > 0) this.#warn(`svc: ${this.pathOf(name)}: no line in it is a conversation record; left out`);
    } catch (error) {
      this.#warn(`svc: ${error instanceof Error ? error.message : String(error)}; left out`);
    }
    return undefined;
  }

  /** Every saved conversation, most recently changed first. */
  list(): ConversationSummary[] {
    return [...this.each(undefined)].sort(newestFirst);
  }

  /** The conversation files, newest first by file time (file-entries.ts). */
  files(): ConversationFile[] {
    return conversationFiles(this.dir);
  }

  /**
   * Each saved conversation whose file text passes `mayHold`, read as `list` reads them, one at a
   * time and in no set order: a caller that keeps little of each (sessions search on thousands)
   * never holds them all.
   */
  *each(mayHold: ((raw: string) => boolean) | undefined): Generator<ConversationSummary> {
    for (const file of this.files()) {
      const summary = this.summaryOf(file, mayHold);
      if (typeof summary === 'object') yield summary;
    }
  }

  /**
   * `file` loaded for a listing: undefined when it cannot be read or holds no conversation (said
   * through `warn`, as are its damaged lines); 'passed over' when a quick look at its raw text
   * (file-entries.ts) shows it fails `mayHold`: files a search or a filter cannot match are not parsed.
   */
  summaryOf(file: ConversationFile, mayHold?: (raw: string) => boolean): ConversationSummary | 'passed over' | undefined {
    const look = mayHold ? quickLook(this.pathOf(file.name), file.size, mayHold) : undefined;
    if (look === false) return 'passed over';
    const loaded = this.#probe(file.name, true, look ? { lines: look, mtimeMs: file.mtimeMs } : file);
    if (!loaded) return undefined;
    const { conversation } = loaded;
    const updated = conversation.updated || new Date(file.mtimeMs).toISOString();
    return { name: file.name, updated, turns: conversation.turns.length, conversation, damaged: loaded.problems.length > 0 };
  }

  /**
   * The conversation changed last, if any: by file time, passing over files that hold no
   * conversation (so --continue never picks a stray file and fails after sending).
   */
  latest(): string | undefined {
    for (const file of this.files()) {
      if (this.#probe(file.name, false, file)) return file.name;
    }
    return undefined;
  }

  /**
   * The conversation `text` names: itself when something is saved under that name, else the one
   * saved name it begins (`wo` for `work`). A beginning shared by several is exit 2 listing them;
   * one shared by none is returned as it is, for the reading to say there is no such conversation.
   */
  resolve(text: string): string {
    // Something at the whole name (a conversation, or a folder the reading will name) is never taken for a beginning.
    if (!this.isFree(checkConversationName(text))) return text;
    const candidates = this.files()
      .map((file) => file.name)
      .filter((name) => name.startsWith(text))
      .sort();
    if (candidates.length === 1) return candidates[0]!;
    if (candidates.length === 0) return text;
    const shown = candidates.length > MAX_CANDIDATES ? `${candidates.slice(0, MAX_CANDIDATES).join(', ')} and ${candidates.length - MAX_CANDIDATES} more` : candidates.join(', ');
    throw new UsageError(`"${text}" could be any of ${candidates.length} conversations: ${shown}`, { hint: 'give more of the name' });
  }

  /**
   * Give conversation `from` the name `to`: its file moves, whole, with its time (so it keeps its
   * place in listings). A `to` already taken (by a conversation or anything else) is exit 2 and
   * nothing moves; two renames racing for one name cannot both take it (link() refuses a taken name).
   */
  rename(from: string, to: string): void {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    if (!this.exists(from)) throw new UsageError(`no saved conversation named "${from}"`, { hint: 'see them with `svc sessions list`' });
    const taken = (): UsageError => new UsageError(`a conversation named "${to}" exists already; nothing was renamed`, { hint: `choose another name, or delete it first: svc sessions delete ${to}` });
    if (!this.isFree(to)) throw taken();
    moveFile(source, target, taken, from, to);
    ListingCache.forget(this.listingCachePath, this.dir, from);
  }

  /** Delete `name`'s file, and what the listing cache keeps of it (its first line). */
  delete(name: string): void {
    const path = this.pathOf(name);
    if (!this.exists(name)) throw new UsageError(`no saved conversation named "${name}"`, { hint: 'see them with `svc sessions list`' });
    try {
      rmSync(path);
    } catch (error) {
      throw new SvcError(`cannot delete ${path}: ${describeSystemError(error)}`, { cause: error });
    }
    ListingCache.forget(this.listingCachePath, this.dir, name);
  }
}

/**
 * `source` moved to `target`, never over a file already there: a hard link made under the new name
 * (refused when it is taken), then the old name removed. Where the file system has no hard links,
 * a rename, the name having been found free just before.
 */
function moveFile(source: string, target: string, taken: () => UsageError, from: string, to: string): void {
  const cannot = (error: unknown): SvcError => new SvcError(`cannot rename ${source}: ${describeSystemError(error)}; nothing was renamed`, { cause: error });
  try {
    linkSync(source, target);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') throw taken();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw cannot(error);
    try {
      renameSync(source, target);
    } catch (renameError) {
      throw cannot(renameError);
    }
    return;
  }
  try {
    rmSync(source);
  } catch (error) {
    // Both names hold it now: the new one stays, and the user is told what is left.
    throw new SvcError(`renamed "${from}" to "${to}", but cannot remove ${source}: ${describeSystemError(error)}`, { cause: error, hint: `remove it yourself, or: svc sessions delete ${from}` });
  }
}

/** The store of the user's conversations, telling stderr about damaged files it meets. */
export function conversationStoreFor(io: Reporter): ConversationStore {
  return new ConversationStore(io.env, { warn: (line) => io.say(line) });
}
