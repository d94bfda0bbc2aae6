/**
 * Names that become one file or folder of svc's own (a profile, a role): lowercase letters,
 * digits, "-" and "_", a letter or digit first, at most 32. One folder entry on every file system
 * (no separator, no "." or "..", nothing hidden), and no two spellings that a case-insensitive
 * disk (macOS, Windows) would take for one.
 */
const SIMPLE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** What a simple name may be, for the hint under a refusal. */
export const SIMPLE_NAME_RULE = 'use lowercase letters, digits, "-" and "_" (at most 32, a letter or digit first)';

export function isSimpleName(text: string): boolean {
  return SIMPLE_NAME.test(text);
}
