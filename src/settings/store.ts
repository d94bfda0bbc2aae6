/**
 * Stored settings and the stored key, written through conf. Two files in the config folder:
 * `config.json` (settings) and `credentials.json` (the key), both 0600 in a 0700 folder, so that
 * `svc config list` never has a reason to read the key and the key file can be removed alone.
 *
 * Reading is a plain JSON read of conf's file: conf (with ajv and its friends) takes longer to
 * load than the rest of a chat request, and is only needed to write (atomically, with the mode).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { SvcError } from '../errors.js';
import { isObject } from '../json.js';
import { configDir } from './paths.js';
import { ensurePrivateDir } from './private-dir.js';
import { importWithoutSignalHooks } from './quiet-signal-hooks.js';

export interface JsonStore {
  /** Absolute path of the file. */
  readonly path: string;
  get(key: string): unknown;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  all(): Record<string, unknown>;
}

const OWNER_ONLY = 0o600;

function invalidJson(path: string, cause: unknown): SvcError {
  return new SvcError(`${path} is not valid JSON`, { hint: 'fix the file by hand or delete it', cause });
}

function readJson(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {}; // no file yet: nothing stored
  }
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch (error) {
    throw invalidJson(path, error);
  }
}

/** Open one of svc's JSON files in the config folder. */
export async function openStore(env: Record<string, string | undefined>, name: 'config' | 'credentials'): Promise<JsonStore> {
  const dir = configDir(env);
  const path = join(dir, `${name}.json`);
  let writer: Conf<Record<string, unknown>> | undefined;
  const conf = async (): Promise<Conf<Record<string, unknown>>> => {
    if (writer) return writer;
    ensurePrivateDir(dir);
    const { default: ConfClass } = await importWithoutSignalHooks(() => import('conf'));
    writer = new ConfClass<Record<string, unknown>>({
      cwd: dir,
      configName: name,
      projectName: 'svc',
      configFileMode: OWNER_ONLY,
      // Keys like "baseUrl" are flat; dots in them must not become nested objects.
      accessPropertiesByDotNotation: false,
    });
    return writer;
  };
  const write = async (change: (store: Conf<Record<string, unknown>>) => void): Promise<void> => {
    const store = await conf();
    try {
      change(store);
    } catch (error) {
      throw error instanceof SyntaxError ? invalidJson(path, error) : error;
    }
  };
  return {
    path,
    get: (key) => readJson(path)[key],
    set: (key, value) => write((store) => store.set(key, value)),
    delete: (key) => write((store) => store.delete(key)),
    all: () => readJson(path),
  };
}
