/**
 * The saved conversations a listing shows (`svc sessions list`, `svc chat --list`), one at a time,
 * the most recently written file first: what the listing cache has of a file that has not changed,
 * and what reading it gives otherwise. A caller that stops (`-n`, `| head`) stops the reading too,
 * and what was read is kept for the next listing all the same.
 */
import type { ConversationFile } from './file-entries.js';
import { passes, rawFilterOf, type ConversationFilter } from './filter.js';
import { listedOf, type ListedConversation } from './listed.js';
import { ListingCache } from './listing-cache.js';
import type { ConversationStore } from './store.js';

/**
 * The first files are read directly: reading the cache costs a listing of 10,000 about 25 ms,
 * more than reading a few dozen files does, and `-n 20` never gets further (bench/RESULTS.md).
 */
const READ_BEFORE_CACHE = 32;

/** A file as read for a listing: what it shows (nothing when it holds no conversation), and whether to cache that. */
interface Reading {
  file: ConversationFile;
  listed: ListedConversation | undefined;
  /** False for a file with damaged lines: every listing reads it, and reports them, again. */
  keep: boolean;
}

export function* listConversations(store: ConversationStore, filter: ConversationFilter): Generator<ListedConversation> {
  if (filter.limit !== undefined && filter.limit <= 0) return;
  const files = store.files();
  const mayHold = rawFilterOf(filter);
  let cache: ListingCache | undefined;
  const readEarly: Reading[] = [];
  let count = 0;
  try {
    for (let index = 0; index < files.length; index++) {
      const file = files[index]!;
      if (index === READ_BEFORE_CACHE) cache = openCache(store, files, readEarly);
      let listed = cache?.get(file);
      if (!listed) {
        const reading = read(store, file, mayHold);
        listed = reading.listed;
        if (cache) keepIn(cache, reading);
        else readEarly.push(reading);
      }
      if (!listed || !passes(listed, filter)) continue;
      yield listed;
      count += 1;
      if (filter.limit !== undefined && count >= filter.limit) return;
    }
  } finally {
    cache?.save();
  }
}

/** `file` read for the listing; nothing when it holds no conversation (said on stderr) or cannot pass `mayHold`. */
function read(store: ConversationStore, file: ConversationFile, mayHold: ((raw: string) => boolean) | undefined): Reading {
  const summary = store.summaryOf(file, mayHold);
  if (!summary) return { file, listed: undefined, keep: false };
  return { file, listed: listedOf(file.name, summary.updated, summary.conversation), keep: !summary.damaged };
}

function keepIn(cache: ListingCache, { file, listed, keep }: Reading): void {
  if (listed && keep) cache.set(file, listed);
  else cache.drop(file.name);
}

/** The cache, without the files that are gone, with what was read before it was opened. */
function openCache(store: ConversationStore, files: ConversationFile[], readEarly: Reading[]): ListingCache {
  const cache = ListingCache.open(store.listingCachePath, store.dir);
  const present = new Set(files.map((file) => file.name));
  for (const name of cache.names()) if (!present.has(name)) cache.drop(name);
  // An entry that still stands is what was read: setting it again would only rewrite the cache.
  for (const reading of readEarly) if (!(reading.keep && cache.get(reading.file))) keepIn(cache, reading);
  return cache;
}
