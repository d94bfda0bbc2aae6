/**
 * The saved conversations a listing shows (`svc sessions list`, `svc chat --list`), one at a time,
 * the most recently written file first: what the listing cache has of a file that has not changed,
 * and what reading it gives otherwise. A caller that stops (`-n`, `| head`) stops the reading too,
 * and what was read is kept for the next listing all the same.
 */
import type { ConversationFile } from './file-entries.js';
import { passes, rawFilterOf, type ConversationFilter } from './filter.js';
import { listedOf, type ListedConversation, type SpentTokens } from './listed.js';
import { ListingCache } from './listing-cache.js';
import type { ConversationStore } from './store.js';

/**
 * The first files are read directly: reading the cache of thousands costs more than reading a few
 * dozen files does, and `-n 20` never gets further (bench/README.md, "svc sessions list").
 */
const READ_BEFORE_CACHE = 32;

/** A file as read for a listing: what it shows (nothing when it holds no conversation), and what the cache does with it. */
interface Reading {
  file: ConversationFile;
  listed: (ListedConversation & { tokens: SpentTokens }) | undefined;
  /**
   * `drop` for a file with damaged lines (every listing reads it, and reports them, again) or with
   * no conversation; `leave` for one a filter's quick look passed over unread (its row, stale or
   * not, is for listings without the filter to judge).
   */
  cache: 'set' | 'drop' | 'leave';
}

/** `withTokens`: each with its tokens (--usage), which the cache otherwise leaves unread. */
export function* listConversations(store: ConversationStore, filter: ConversationFilter, { withTokens = false } = {}): Generator<ListedConversation> {
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
      let listed = cache?.get(file, withTokens);
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
    // A few files, all read: the cache is still brought up to date, so the first lines of
    // conversations removed since do not stay in it.
    if (files.length > 0) cache ??= openCache(store, files, readEarly);
  } finally {
    cache?.save();
  }
}

function read(store: ConversationStore, file: ConversationFile, mayHold: ((raw: string) => boolean) | undefined): Reading {
  const summary = store.summaryOf(file, mayHold);
  if (summary === 'passed over') return { file, listed: undefined, cache: 'leave' };
  if (!summary) return { file, listed: undefined, cache: 'drop' };
  return { file, listed: listedOf(file.name, summary.updated, summary.conversation), cache: summary.damaged ? 'drop' : 'set' };
}

function keepIn(cache: ListingCache, reading: Reading): void {
  if (reading.cache === 'set' && reading.listed) cache.set(reading.file, reading.listed);
  else if (reading.cache === 'drop') cache.drop(reading.file.name);
}

/** The cache, without the files that are gone, with what was read before it was opened. */
function openCache(store: ConversationStore, files: ConversationFile[], readEarly: Reading[]): ListingCache {
  const cache = ListingCache.open(store.listingCachePath, store.dir);
  const present = new Set(files.map((file) => file.name));
  for (const name of cache.names()) if (!present.has(name)) cache.drop(name);
  // An entry that still stands is what was read: setting it again would only rewrite the cache.
  for (const reading of readEarly) if (!(reading.cache === 'set' && cache.get(reading.file))) keepIn(cache, reading);
  return cache;
}
