/**
 * Reading the stored key of a profile with care, since it is a secret: a key file others can
 * read is made owner-only (and the user told), one that cannot be read is skipped and reported,
 * never quoted. Shared by the factory (the profile in use) and `svc profiles list` (every one).
 */
import type { Reporter } from '../core/reporter.js';
import { resolveApiKey, type ResolvedKey } from './api-key.js';
import { tightenSecretFile } from '../storage/private-dir.js';
import type { BrokenStoreFileError, JsonStoreFile } from './store.js';

/** Say once, on stderr, that a settings file is skipped (the command goes on without it). */
export function warnSkipped(io: Reporter, error: BrokenStoreFileError, what: string): void {
  io.warn(`${error.message}; ${what}`, error.hint);
}

/**
 * The key stored in `credentials`, or undefined when none is stored or its file cannot be read
 * (reported). A stored key that cannot be sent throws UnusableKeyError (see resolveApiKey).
 */
export function readStoredKey(io: Reporter, credentials: JsonStoreFile): ResolvedKey | undefined {
  const tightened = tightenSecretFile(credentials.path);
  if (tightened?.fixed) io.note(`note: ${tightened.message}`);
  else if (tightened) io.warn(tightened.message);
  const problem = credentials.problem();
  if (problem) {
    warnSkipped(io, problem, 'no stored key can be read from it');
    return undefined;
  }
  // An empty environment: only the stored key is asked for here.
  return resolveApiKey({}, credentials);
}
