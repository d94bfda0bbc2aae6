/**
 * Stored settings and the stored key, written through conf. Two files in a profile's folder
 * (profiles.ts): `config.json` (settings) and `credentials.json` (the key), both 0600 in a 0700
 * folder, so that `svc config list` never has a reason to read the key and the key file can be
 * removed alone. `profiles.json` in the config folder says which profile is the default.
 * `mcp.json` beside them holds the profile's MCP servers (src/tools/servers.ts).
 *
 * Reading is a plain JSON read of conf's file (store-file.ts): conf (with ajv and its friends)
 * takes longer to load than the rest of a chat request, and is only needed to write (atomically,
 * with the mode, and through a symlink to its target rather than over the link).
 */
import { lstatSync, readFileSync, realpathSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { SvcError } from '../core/errors.js';
import { ensurePrivateDir } from '../storage/private-dir.js';
import { BrokenStoreFileError, readStoreFile } from './store-file.js';

export { BrokenStoreFileError };

export type StoreName = 'config' | 'credentials' | 'profiles' | 'mcp';

export interface JsonStore {
  /** Absolute path of the file. */
  readonly path: string;
  /** One stored value. Throws BrokenStoreFileError when the file cannot be used. */
  get(key: string): unknown;
  /** Store a value. A file that cannot be read is never overwritten: that throws, and says so. */
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every stored value. Throws BrokenStoreFileError when the file cannot be used. */
  all(): Record<string, unknown>;
}

/** A store as a file on disk: what to do when that file cannot be read. */
export interface JsonStoreFile extends JsonStore {
  /** What is wrong with the file, when it exists and cannot be used. */
  problem(): BrokenStoreFileError | undefined;
  /**
   * Write a file holding only `key`, in place of one whose content cannot be read (the key file,
   * whose only content is the key being replaced). The caller has told the user.
   */
  replace(key: string, value: unknown): Promise<void>;
  /** Remove the file (logout from a key file that cannot be read). */
  remove(): void;
}

const OWNER_ONLY = 0o600;

/** How to repair each file by hand, shown under the message that says it is broken. */
const FIX_HINTS: Record<StoreName, string> = {
  config: 'fix it by hand, or move it away and store the settings again with `svc config set`',
  credentials: 'fix it by hand, or store the key again with `svc auth login` (which replaces the file)',
  profiles: 'fix it by hand, or choose the default again with `svc profiles use <name>` (which replaces the file)',
  mcp: 'fix it by hand, or move it away and add the servers again with `svc mcp add` or `svc mcp import`',
};

/** A write that failed in the file system, in words: the path and the reason, never a stack. */
function writeFailure(path: string, error: unknown): SvcError {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    ENOTDIR: 'a part of its folder path is a file',
    EEXIST: 'a part of its folder path is a file',
    EISDIR: 'it is a folder',
  };
  const reason = (code && reasons[code]) ?? `${code ?? 'unknown error'}`;
  return new SvcError(`cannot write ${path}: ${reason}; nothing was changed`, { hint: `check the folder: ls -ld ${join(path, '..')}` });
}

/** The problem of a file that exists but cannot be used, or undefined. */
function problemOf(path: string, fix: string): BrokenStoreFileError | undefined {
  try {
    readStoreFile(path, fix);
    return undefined;
  } catch (error) {
    if (error instanceof BrokenStoreFileError) return error;
    throw error;
  }
}

/**
 * The keys each file may hold. A store file that is a symbolic link is written through to its
 * target (dotfile managers link them), but only when that target already is such a file, or
 * empty: a link that points at anything else (a user's notes, another program's JSON) is never
 * written, so a planted or mistaken link cannot make svc overwrite a file that is not its own.
 */
const OWN_KEYS: Partial<Record<StoreName, readonly string[]>> = { credentials: ['apiKey'], mcp: ['mcpServers'] };

/** Refuse (exit 1) to write through a link to a file that is not one of svc's own. */
function refuseForeignLink(path: string, name: StoreName): void {
  let isLink: boolean;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    return; // nothing there yet
  }
  if (!isLink) return;
  let target = path;
  let text: string;
  try {
    target = realpathSync(path);
    text = readFileSync(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // a dangling link: conf makes its target
    throw writeFailure(path, error);
  }
  const own = OWN_KEYS[name];
  let ours = text.trim() === '';
  if (!ours) {
    try {
      const value: unknown = JSON.parse(text);
      ours = value !== null && typeof value === 'object' && !Array.isArray(value) && (own === undefined || Object.keys(value).every((key) => own.includes(key)));
    } catch {
      ours = false;
    }
  }
  if (!ours) {
    throw new SvcError(`${path} is a link to ${target}, which is not an svc ${name} file; svc did not change it`, {
      hint: `remove the link (rm ${path}) to let svc keep its own file there, or point it at an svc ${name} file`,
    });
  }
}

/**
 * Import a module without the signal handlers it installs as a side effect.
 *
 * conf writes through `atomically`, which loads `when-exit`; on the first SIGINT/SIGTERM/SIGHUP
 * that one runs its callbacks and then sends the same signal to the process again, whatever
 * other handlers exist. svc handles Ctrl-C itself (in a session it stops only the reply), so
 * that second signal would end the session or skip the clean-up. conf's writes are synchronous,
 * so there is never a temporary file for those handlers to remove.
 * test/settings/quiet-signal-hooks.test.ts shows the re-sent signal and that this removes it.
 */
export async function importWithoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const signals = (): string[] => process.eventNames().filter((name): name is string => typeof name === 'string' && name.startsWith('SIG'));
  const before = new Map(signals().map((name) => [name, new Set(process.listeners(name as NodeJS.Signals))]));
  const module = await load();
  for (const name of signals()) {
    const existing = before.get(name);
    for (const listener of process.listeners(name as NodeJS.Signals)) {
      if (!existing?.has(listener)) process.removeListener(name, listener);
    }
  }
  return module;
}

/** Open one of svc's JSON files: `<dir>/<name>.json` (the folder is made, owner-only, on the first write). */
export async function openStore(dir: string, name: StoreName): Promise<JsonStoreFile> {
  const path = join(dir, `${name}.json`);
  const fix = FIX_HINTS[name];
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
      // svc checks the file itself before every write (problemOf) and refuses a broken one, so
      // conf only meets an empty file here, or one that `replace` is about to overwrite.
      clearInvalidConfig: true,
    });
    return writer;
  };
  const write = async (change: (store: Conf<Record<string, unknown>>) => void): Promise<void> => {
    refuseForeignLink(path, name);
    try {
      change(await conf());
    } catch (error) {
      if (error instanceof SvcError) throw error;
      throw writeFailure(path, error);
    }
  };
  const refuseBroken = (): void => {
    const problem = problemOf(path, fix);
    if (problem) throw problem.refusingChange();
  };
  return {
    path,
    get: (key) => readStoreFile(path, fix)[key],
    all: () => readStoreFile(path, fix),
    async set(key, value) {
      refuseBroken();
      await write((store) => store.set(key, value));
    },
    async delete(key) {
      refuseBroken();
      await write((store) => store.delete(key));
    },
    problem: () => problemOf(path, fix),
    async replace(key, value) {
      const problem = problemOf(path, fix);
      if (problem && !problem.replaceable) throw problem.refusingChange();
      await write((store) => {
        store.store = { [key]: value };
      });
    },
    remove() {
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw writeFailure(path, error);
      }
    },
  };
}
