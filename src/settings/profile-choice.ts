/**
 * Which profile a command uses: --profile, else SVC_PROFILE, else the default chosen with
 * `svc profiles use` (kept in profiles.json in the config folder), else `default`.
 */
import type { Reporter } from '../core/reporter.js';
import { configDir } from '../storage/paths.js';
import { isProfileName, parseProfileName } from '../core/names.js';
import { DEFAULT_PROFILE, PROFILE_ENV, profileDir, type SelectedProfile } from './profiles.js';
import { openStore, type JsonStoreFile } from './store.js';
import { warnSkipped } from './stored-key.js';

const CHOICE_KEY = 'default';

/** profiles.json: `{"default": "<name>"}`, written by `svc profiles use`. */
export function choiceStore(env: Reporter['env']): Promise<JsonStoreFile> {
  return openStore(configDir(env), 'profiles');
}

/**
 * The default chosen with `svc profiles use`, if any. A choice file that cannot be read, or that
 * holds something other than a profile name, is skipped and reported: the command goes on with
 * the `default` profile (its own base URL and key, never a mix of two profiles).
 */
export async function chosenDefault(io: Reporter): Promise<string | undefined> {
  const store = await choiceStore(io.env);
  const problem = store.problem();
  if (problem) {
    warnSkipped(io, problem, `the ${DEFAULT_PROFILE} profile is used`);
    return undefined;
  }
  const value = store.get(CHOICE_KEY);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && isProfileName(value)) return value === DEFAULT_PROFILE ? undefined : value;
  io.warn(`${store.path}: "${CHOICE_KEY}" is not a profile name; the ${DEFAULT_PROFILE} profile is used`, `choose again with \`svc profiles use <name>\``);
  return undefined;
}

/** Make `name` the default (`default` itself removes the choice). */
export async function chooseDefault(io: Reporter, name: string): Promise<void> {
  const store = await choiceStore(io.env);
  const broken = store.problem();
  if (broken) {
    // The file holds nothing but the choice being made again.
    await store.replace(CHOICE_KEY, name);
    io.note(`note: ${broken.message}; replaced it`);
  } else if (name === DEFAULT_PROFILE) {
    await store.delete(CHOICE_KEY);
  } else {
    await store.set(CHOICE_KEY, name);
  }
}

/** The profile in use, from the --profile value (checked already), the environment or the choice. */
export async function selectProfile(io: Reporter, flag: string | undefined): Promise<SelectedProfile> {
  const pick = (name: string, source: SelectedProfile['source']): SelectedProfile => ({ name, source, dir: profileDir(io.env, name) });
  if (flag !== undefined) return pick(parseProfileName(flag, '--profile'), 'flag');
  const fromEnv = io.env[PROFILE_ENV];
  if (fromEnv) return pick(parseProfileName(fromEnv, PROFILE_ENV), 'env');
  const chosen = await chosenDefault(io);
  return chosen ? pick(chosen, 'stored') : pick(DEFAULT_PROFILE, 'default');
}
