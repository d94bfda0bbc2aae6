/**
 * Where conversations live: one `<name>.jsonl` per conversation in
 * `$XDG_DATA_HOME/svc/conversations`, owner-only.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { dataDir } from '../settings/paths.js';
import { ensurePrivateDir } from '../settings/private-dir.js';
import { replay, type Conversation, type ConversationRecord } from './model.js';

const EXTENSION = '.jsonl';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Names are file names: letters, digits, dot, dash, underscore; no path, no hidden files. */
export function checkConversationName(name: string): string {
  if (!NAME.test(name) || name.endsWith(EXTENSION)) {
    throw new UsageError(`"${name}" is not a usable conversation name`, { hint: 'use letters, digits, ".", "-" and "_" (at most 64)' });
  }
  return name;
}

/** A fresh name for an unnamed conversation: sortable by time, unique enough to never collide. */
export function newConversationName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

export interface ConversationSummary {
  name: string;
  updated: string;
  turns: number;
  conversation: Conversation;
}

export class ConversationStore {
  readonly dir: string;

  constructor(env: Record<string, string | undefined>) {
    this.dir = join(dataDir(env), 'conversations');
  }

  pathOf(name: string): string {
    return join(this.dir, `${checkConversationName(name)}${EXTENSION}`);
  }

  exists(name: string): boolean {
    try {
      return statSync(this.pathOf(name)).isFile();
    } catch {
      return false;
    }
  }

  /** Add one record. One appendFile call is one write(2) with O_APPEND: records never interleave. */
  append(name: string, record: ConversationRecord): void {
    ensurePrivateDir(this.dir);
    appendFileSync(this.pathOf(name), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  /** Start a conversation file (a no-op record if it exists already: names may be resumed). */
  create(name: string, now = new Date()): void {
    if (!this.exists(name)) this.append(name, { type: 'start', v: 1, name, created: now.toISOString() });
  }

  /** Read a conversation; lines that do not parse (a torn last write) are skipped. */
  read(name: string): Conversation {
    let text: string;
    try {
      text = readFileSync(this.pathOf(name), 'utf8');
    } catch {
      throw new UsageError(`no saved conversation named "${name}"`, { hint: 'see them with `svc sessions list`' });
    }
    const records: ConversationRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as ConversationRecord);
      } catch {
        // A line cut by a crash: everything before it is still good.
      }
    }
    return replay(name, records);
  }

  /** Every saved conversation, most recently changed first. */
  list(): ConversationSummary[] {
    let files: string[];
    try {
      files = readdirSync(this.dir).filter((file) => file.endsWith(EXTENSION));
    } catch {
      return [];
    }
    const summaries = files.map((file) => {
      const name = file.slice(0, -EXTENSION.length);
      const conversation = this.read(name);
      const mtime = statSync(join(this.dir, file)).mtime.toISOString();
      return { name, updated: conversation.updated || mtime, turns: conversation.turns.length, conversation };
    });
    return summaries.sort((a, b) => b.updated.localeCompare(a.updated) || b.name.localeCompare(a.name));
  }

  /** The conversation changed last, if any (by file time: no need to read them all). */
  latest(): string | undefined {
    let latest: { name: string; mtime: number } | undefined;
    try {
      for (const file of readdirSync(this.dir)) {
        if (!file.endsWith(EXTENSION)) continue;
        const mtime = statSync(join(this.dir, file)).mtimeMs;
        if (!latest || mtime > latest.mtime) latest = { name: file.slice(0, -EXTENSION.length), mtime };
      }
    } catch {
      return undefined;
    }
    return latest?.name;
  }

  delete(name: string): void {
    if (!this.exists(name)) throw new UsageError(`no saved conversation named "${name}"`);
    rmSync(this.pathOf(name));
  }
}
