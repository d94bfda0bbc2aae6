/**
 * What each service said when asked for its models (GET /v1/models), one entry per base URL, in
 * `$XDG_CACHE_HOME/svc/models.json`: the ids it listed, or that it has no model list. Read by shell
 * completion of `-m` and `svc config set model` (only the ids of the base URL in use, so another
 * service's models are never offered), by the choice of a chat model when none is set, and by
 * `/model` in the session. Written by `svc models`, that choice and `svc auth`. A cache that cannot
 * be read or written costs nothing but a question asked again.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from './replace-file.js';

/** `dir`: svc's cache folder (paths.ts cacheDir), given by the caller. */
const cacheFile = (dir: string): string => join(dir, 'models.json');

/** Services remembered at most; the ones asked longest ago go first. */
const MAX_SERVERS = 32;

/** What one service answered: its ids, or `ids: null` when it has no model list (404 or 405). */
export interface KeptModels {
  ids: string[] | null;
  /** When it was asked (ISO 8601). */
  at: string;
}

type Kept = Record<string, KeptModels>;

function entryOf(value: unknown): KeptModels | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { ids, at } = value as { ids?: unknown; at?: unknown };
  const when = typeof at === 'string' ? at : '';
  if (ids === null) return { ids: null, at: when };
  if (!Array.isArray(ids)) return undefined;
  return { ids: ids.filter((id): id is string => typeof id === 'string'), at: when };
}

/** Every entry kept; the one-service file of earlier versions (`{baseUrl, ids}`) is read as one entry. */
function readKept(dir: string): Kept {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(cacheFile(dir), 'utf8'));
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { servers, baseUrl } = parsed as { servers?: unknown; baseUrl?: unknown };
  const kept: Kept = {};
  if (typeof servers === 'object' && servers !== null) {
    for (const [url, value] of Object.entries(servers)) {
      const entry = entryOf(value);
      if (entry) kept[url] = entry;
    }
  } else if (typeof baseUrl === 'string') {
    const entry = entryOf(parsed);
    if (entry) kept[baseUrl] = entry;
  }
  return kept;
}

/** What `baseUrl` answered when last asked; undefined when it never was (or the cache is gone). */
export function cachedModels(dir: string, baseUrl: string): KeptModels | undefined {
  const kept = readKept(dir);
  return Object.hasOwn(kept, baseUrl) ? kept[baseUrl] : undefined;
}

/**
 * The ids kept for this base URL (none when there are none, or it was never asked). Without a base
 * URL (none is set yet): the ids of the service asked last, for completion to offer.
 */
export function cachedModelIds(dir: string, baseUrl: string | undefined): string[] {
  if (baseUrl !== undefined) return cachedModels(dir, baseUrl)?.ids ?? [];
  const latest = Object.values(readKept(dir)).sort((a, b) => b.at.localeCompare(a.at))[0];
  return latest?.ids ?? [];
}

/** Keep what `baseUrl` answered: its ids, or null for no model list. Never fails. */
export function keepModelIds(dir: string, baseUrl: string, ids: string[] | null, now: Date = new Date()): void {
  try {
    const kept = readKept(dir);
    delete kept[baseUrl];
    const newest = Object.entries(kept).sort(([, a], [, b]) => b.at.localeCompare(a.at)).slice(0, MAX_SERVERS - 1);
    const servers = Object.fromEntries([[baseUrl, { ids, at: now.toISOString() }], ...newest]);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    replaceFile(cacheFile(dir), `${JSON.stringify({ servers })}\n`, 0o600);
  } catch {
    // A read-only cache folder: the list was used; completion offers less and the next run asks again.
  }
}
