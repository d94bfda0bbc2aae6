/**
 * Stored settings and the stored key, through conf. Two files in the config folder:
 * `config.json` (settings) and `credentials.json` (the key), both 0600 in a 0700 folder, so that
 * `svc config list` never has a reason to read the key and the key file can be removed alone.
 */
import type Conf from 'conf';
import { SvcError } from '../errors.js';
import { configDir } from './paths.js';
import { ensurePrivateDir } from './private-dir.js';
import { importWithoutSignalHooks } from './quiet-signal-hooks.js';

export interface JsonStore {
  /** Absolute path of the file. */
  readonly path: string;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  all(): Record<string, unknown>;
}

const OWNER_ONLY = 0o600;

/** Open one of svc's JSON files in the config folder. conf is loaded on first use only. */
export async function openStore(env: Record<string, string | undefined>, name: 'config' | 'credentials'): Promise<JsonStore> {
  const dir = configDir(env);
  ensurePrivateDir(dir);
  const { default: ConfClass } = await importWithoutSignalHooks(() => import('conf'));
  const conf: Conf<Record<string, unknown>> = new ConfClass<Record<string, unknown>>({
    cwd: dir,
    configName: name,
    projectName: 'svc',
    configFileMode: OWNER_ONLY,
    // Keys like "baseUrl" are flat; dots in them must not become nested objects.
    accessPropertiesByDotNotation: false,
  });
  const guard = <T>(action: () => T): T => {
    try {
      return action();
    } catch (error) {
      if (error instanceof SyntaxError) {
        throw new SvcError(`${conf.path} is not valid JSON`, { hint: 'fix the file by hand or delete it', cause: error });
      }
      throw error;
    }
  };
  return {
    path: conf.path,
    get: (key) => guard(() => conf.get(key)),
    set: (key, value) => guard(() => conf.set(key, value)),
    delete: (key) => guard(() => conf.delete(key)),
    all: () => guard(() => ({ ...conf.store })),
  };
}
