/**
 * The content blacklist, shared by the chat and image endpoints: a request whose text contains a
 * listed term is refused with `400 Request contains disallowed content` (docs/service-api.md,
 * "Errors").
 * What counts as the request's text is the endpoint's call: every chat message, and an image's
 * prompt but not its negative prompt (images-route.ts says why).
 */
import { EmulatorError } from './errors.js';

/**
 * Built-in terms. Clearly harmful phrases that ordinary text does not contain by accident, so the
 * emulator never refuses a normal prompt; users add their own with `blockTerms` / `--block`.
 */
export const BUILTIN_BLACKLIST: readonly string[] = Object.freeze([
  'bioweapon',
  'nerve agent synthesis',
  'ransomware payload',
  'counterfeit banknotes',
  'credit card skimmer',
  'pipe bomb',
]);

/** Lower-cases and collapses whitespace, so `Pipe\n  Bomb` still matches `pipe bomb`. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** A compiled blacklist: the built-in terms plus extra ones. */
export interface Blacklist {
  /** The normalised terms in force. */
  readonly terms: readonly string[];
  /** The first term found in `text` (case-insensitive), or undefined. */
  find(text: string): string | undefined;
}

/**
 * Builds a blacklist from the built-in terms and `extra`. Blank extra terms are dropped: an empty
 * term would match every text and refuse everything.
 */
export function createBlacklist(extra: readonly string[] = []): Blacklist {
  const terms = [...new Set([...BUILTIN_BLACKLIST, ...extra].map((t) => normalise(t).trim()).filter((t) => t !== ''))];
  return {
    terms,
    find(text) {
      const haystack = normalise(text);
      return terms.find((term) => haystack.includes(term));
    },
  };
}

/**
 * Throws the service's content-policy 400 when any of `texts` contains a blacklisted term. The
 * message is exactly the one in the spec and does not name the term, as a real filter would not.
 */
export function assertAllowed(blacklist: Blacklist, texts: Iterable<string>): void {
  for (const text of texts) {
    if (blacklist.find(text) !== undefined) {
      throw new EmulatorError(400, 'Request contains disallowed content', { code: 'content_policy_violation' });
    }
  }
}
