/**
 * The models svc can name without asking the service, for Tab on `-m` and `svc config set model`:
 * the service's documented defaults, the models set in the environment and in every profile's
 * settings, the models roles name, and the ids the last `svc models` kept for this base URL.
 * Only files are read: completing never waits on the network.
 *
 * A model list says nothing of what each model does, so the kept ids are offered as chat models
 * (what most are), less those known only as image models; image models are the ones svc knows
 * as such: the documented one and those set as imageModel.
 */
import { join } from 'node:path';
import { neutraliseForTerminal } from '../core/terminal-text.js';
import { listRoles } from '../roles/store.js';
import { cachedModelIds } from '../storage/models-cache.js';
import { settingDefinitions } from './definitions.js';
import { cacheDir } from '../storage/paths.js';
import { profileDir, profileNames } from './profiles.js';
import { parseStored } from './resolve.js';
import { readStoreFile } from './store-file.js';

type Env = Record<string, string | undefined>;

export type ModelUse = 'chat' | 'image';

const SETTING = { chat: 'model', image: 'imageModel' } as const;

/** `use`'s model as the environment and each profile's settings give it (a value that is not a model id is left out). */
function setModels(env: Env, use: ModelUse): string[] {
  const name = SETTING[use];
  const definition = settingDefinitions[name];
  const found: string[] = [definition.defaultValue];
  const fromEnv = env[definition.env];
  if (fromEnv) found.push(fromEnv);
  for (const profile of profileNames(env)) {
    const path = join(profileDir(env, profile), 'config.json');
    try {
      const stored = readStoreFile(path, '')[name];
      if (stored !== undefined && stored !== null) found.push(parseStored(name, stored, path));
    } catch {
      // A profile whose settings cannot be read offers nothing; the command that uses it says why.
    }
  }
  return found;
}

/** The models roles name (all chat models: a role is a way of asking in a chat). */
function roleModels(env: Env): string[] {
  try {
    return listRoles(env).flatMap((entry) => ('role' in entry && entry.role.model !== undefined ? [entry.role.model] : []));
  } catch {
    return [];
  }
}

/**
 * The `use` models svc knows, the documented default first, each once. `baseUrl` is the service in
 * effect, whose kept model list is offered (none kept, or kept for another service: none).
 */
export function knownModels(env: Env, use: ModelUse, baseUrl: string | undefined): string[] {
  const image = setModels(env, 'image');
  if (use === 'image') return offerable(image);
  const chat = [...setModels(env, 'chat'), ...roleModels(env)];
  const imageOnly = new Set(image.filter((id) => !chat.includes(id)));
  const kept = cachedModelIds(cacheDir(env), baseUrl).filter((id) => !imageOnly.has(id));
  return offerable([...chat, ...kept]);
}

/**
 * Each id once, and only ids a shell can offer as they are: a kept id comes from the service, and
 * one with a space or a control character in it (an escape sequence) never reaches a completion
 * menu, which would print it to the terminal.
 */
function offerable(ids: string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()))].filter((id) => id !== '' && !/\s/.test(id) && neutraliseForTerminal(id) === id);
}
