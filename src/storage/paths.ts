/**
 * Where svc keeps its files. XDG base directories on every platform (as gh does), so a test or a
 * user can move everything by setting XDG_CONFIG_HOME / XDG_DATA_HOME / XDG_STATE_HOME.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

// The XDG spec says relative paths in these variables are invalid and must be ignored.
function xdg(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  const base = value && value.startsWith('/') ? value : join(env.HOME || homedir(), ...fallback);
  return join(base, 'svc');
}

/** Settings and the stored key. */
export const configDir = (env: Env): string => xdg(env, 'XDG_CONFIG_HOME', ['.config']);
/** Saved conversations. */
export const dataDir = (env: Env): string => xdg(env, 'XDG_DATA_HOME', ['.local', 'share']);
/** Input history and other state that may be lost without harm. */
export const stateDir = (env: Env): string => xdg(env, 'XDG_STATE_HOME', ['.local', 'state']);
/** Copies of what a service said that can be asked again (the model list, for completion). */
export const cacheDir = (env: Env): string => xdg(env, 'XDG_CACHE_HOME', ['.cache']);
