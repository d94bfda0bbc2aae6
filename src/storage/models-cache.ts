/**
 * The model ids the last `svc models` got, kept for shell completion of `-m` and of
 * `svc config set model`: `$XDG_CACHE_HOME/svc/models.json`, with the base URL they came from,
 * so another service's models are never offered. A cache that cannot be read or written costs
 * nothing but completion.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from './replace-file.js';

/** `dir`: svc's cache folder (settings/paths.ts cacheDir), given by the caller: storage knows no settings. */
const cacheFile = (dir: string): string => join(dir, 'models.json');

/** The ids kept by the last `svc models` for this base URL (none when there are none, or for another service). */
export function cachedModelIds(dir: string, baseUrl: string | undefined): string[] {
  try {
    const kept = JSON.parse(readFileSync(cacheFile(dir), 'utf8')) as { baseUrl?: unknown; ids?: unknown };
    if (baseUrl !== undefined && kept.baseUrl !== baseUrl) return [];
    return Array.isArray(kept.ids) ? kept.ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Keep the ids for completion; a cache that cannot be written costs nothing but completion. */
export function keepModelIds(dir: string, baseUrl: string, ids: string[]): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    replaceFile(cacheFile(dir), `${JSON.stringify({ baseUrl, ids, at: new Date().toISOString() })}\n`, 0o600);
  } catch {
    // A read-only cache folder: the list was printed; completion just offers less.
  }
}

