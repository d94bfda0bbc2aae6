/**
 * What a flag's value or a command's argument completes to on Tab, attached where the flag is
 * declared, so the shell completions are generated from the one commander program.
 */
import type { Argument, Option } from '@commander-js/extra-typings';

export type ValueSource =
  | { kind: 'list'; values: readonly string[] }
  /** The saved conversations, each with its first line as the description where the shell shows one. */
  | { kind: 'sessions' }
  | { kind: 'profiles' }
  | { kind: 'roles' }
  /** The MCP servers of the profile (`svc mcp list`). */
  | { kind: 'mcp-servers' }
  /**
   * The models svc knows for `use` (chat unless said), without a request (settings/known-models.ts,
   * through `svc config choices model|imageModel`).
   */
  | { kind: 'models'; use?: 'chat' | 'image' }
  | { kind: 'files' }
  /** `svc config set KEY VALUE`: the setting names, then the values the KEY before takes (`svc config choices`). */
  | { kind: 'settings' }
  /** `svc config get|unset KEY`: the setting names and price keys (`svc config choices`). */
  | { kind: 'setting-names' };

/** The setting whose values are the models for `source` (`svc config choices` answers both). */
export function modelSetting(source: { use?: 'chat' | 'image' }): 'model' | 'imageModel' {
  return source.use === 'image' ? 'imageModel' : 'model';
}

const hints = new WeakMap<Option | Argument, ValueSource>();

/** Declare what `target` completes to; returns it, to chain inside a command declaration. */
export function completes<T extends Option | Argument>(target: T, source: ValueSource | readonly string[]): T {
  hints.set(target, Array.isArray(source) ? { kind: 'list', values: source as readonly string[] } : (source as ValueSource));
  return target;
}

export function completionOf(target: Option | Argument): ValueSource | undefined {
  return hints.get(target);
}

const globals = new WeakSet<Option>();

/**
 * Declare a root option as global: accepted after any command (commander reads root options
 * anywhere on the line), so every command's completions offer it too.
 */
export function global<T extends Option>(option: T): T {
  globals.add(option);
  return option;
}

export function isGlobal(option: Option): boolean {
  return globals.has(option);
}

/**
 * The commands a global option (--profile) does nothing for: they read no setting and no key.
 * Their help and completions leave it out, and giving it there is a usage error.
 */
export const WITHOUT_GLOBALS: ReadonlySet<string> = new Set(['render', 'emulator', 'completion', 'help']);
