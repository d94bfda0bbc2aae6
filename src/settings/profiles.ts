/**
 * Profiles: named sets of stored settings and key, one per service a user talks to.
 *
 * The profile named `default` is the config folder itself (config.json, credentials.json), exactly
 * as before profiles existed, so nothing moves for anyone who never names one. Every other profile
 * is a folder of the same two files: `<config folder>/profiles/<name>/`. Which profile a command
 * uses: --profile, else SVC_PROFILE, else the one chosen with `svc profiles use` (profiles.json in
 * the config folder), else `default`.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { isProfileName } from '../core/names.js';
import { configDir } from '../storage/paths.js';

type Env = Record<string, string | undefined>;

export const DEFAULT_PROFILE = 'default';
export const PROFILE_ENV = 'SVC_PROFILE';

export type ProfileSource = 'flag' | 'env' | 'stored' | 'default';

export interface SelectedProfile {
  name: string;
  source: ProfileSource;
  /** The folder of its config.json and credentials.json. */
  dir: string;
}

/** The folder holding `name`'s files. */
export function profileDir(env: Env, name: string): string {
  return name === DEFAULT_PROFILE ? configDir(env) : join(configDir(env), 'profiles', name);
}

/** Every profile there is: `default` first, then the named ones in alphabetical order. */
export function profileNames(env: Env): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(configDir(env), 'profiles'));
  } catch {
    entries = []; // no profiles folder (or not one): only the default
  }
  const named = entries.filter((entry) => entry !== DEFAULT_PROFILE && isProfileName(entry) && isFolder(join(configDir(env), 'profiles', entry)));
  return [DEFAULT_PROFILE, ...named.sort()];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when `name` has a folder (the default profile always exists). */
export function profileExists(env: Env, name: string): boolean {
  return name === DEFAULT_PROFILE || isFolder(profileDir(env, name));
}

const SOURCE_WORDS: Record<ProfileSource, string> = {
  flag: '--profile',
  env: PROFILE_ENV,
  stored: 'the default chosen with `svc profiles use`',
  default: 'the default',
};

/** Where the profile in use came from, in the words a message uses. */
export function profileOrigin(source: ProfileSource): string {
  return SOURCE_WORDS[source];
}

/**
 * A profile that was named but has no folder: exit 2, nothing sent, with the profiles there are
 * and how to make this one (a typo must not quietly fall back to another service's settings).
 * `source` is where the name came from, when it did not come from the command's own argument.
 */
export function unknownProfileError(env: Env, name: string, source?: ProfileSource): UsageError {
  const known = profileNames(env).join(', ');
  const from = source ? ` (from ${profileOrigin(source)})` : '';
  const fix = source === 'stored' ? 'choose another with `svc profiles use <name>`' : `create it with \`svc auth login --profile ${name}\` or \`svc config set --profile ${name} baseUrl <url>\``;
  return new UsageError(`no profile named "${name}"${from}; profiles: ${known}`, { hint: fix });
}
