/**
 * Settings precedence, as a pure function: flag > environment variable > stored > default.
 */
import { UsageError } from '../core/errors.js';
import { InvalidValueError } from '../core/parse-values.js';
import { settingDefinitions, settingNames, type ResolvedValue, type SettingName, type SettingValue } from './definitions.js';

export type SettingSource = 'flag' | 'env' | 'stored' | 'default';

export interface Resolved<T> {
  value: T;
  source: SettingSource;
}

export interface ResolveInputs {
  /** Raw flag values as commander gave them (strings), keyed by setting name. */
  flags: Partial<Record<SettingName, string | undefined>>;
  env: Record<string, string | undefined>;
  /** Values from the store; they were checked when stored, but are checked again (hand edits). */
  stored: Partial<Record<SettingName, unknown>>;
  /** The settings file, named when a stored value is refused. */
  storedPath?: string | undefined;
}

/** Resolve one setting. An empty environment variable counts as unset, as most tools treat it. */
export function resolveSetting<N extends SettingName>(name: N, inputs: ResolveInputs): Resolved<ResolvedValue<N>> {
  const definition = settingDefinitions[name];
  const parse = definition.parse as (text: string, source: string) => SettingValue<N>;
  const flag = inputs.flags[name];
  if (flag !== undefined) return { value: parse(flag, `--${kebab(name)}`), source: 'flag' };
  const envValue = inputs.env[definition.env];
  if (envValue !== undefined && envValue !== '') return { value: parse(envValue, definition.env), source: 'env' };
  const stored = inputs.stored[name];
  if (stored !== undefined && stored !== null) return { value: parseStored(name, stored, inputs.storedPath), source: 'stored' };
  return { value: definition.defaultValue as ResolvedValue<N>, source: 'default' };
}

/** The JSON type of a value, in words, for a message that must not quote the value itself. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return `${value}`;
  return `a ${typeof value}`;
}

/**
 * Check a value read from the settings file as strictly as a flag: an array is refused, never sent
 * as "a,b". The message names the setting and the file but never quotes the value (a hand-edited
 * file may hold anything, the key included).
 */
export function parseStored<N extends SettingName>(name: N, value: unknown, path: string | undefined): SettingValue<N> {
  const definition = settingDefinitions[name];
  const where = `the stored setting ${name}${path ? ` (in ${path})` : ''}`;
  const hint = `fix it with \`svc config set ${name} <value>\`, or remove it with \`svc config unset ${name}\``;
  // A switch is stored as "on" or "off"; true and false, as a hand edit would write, read the same.
  const typeFits = typeof value === 'string' || (definition.stores === 'number' && typeof value === 'number') || (definition.stores === 'switch' && typeof value === 'boolean');
  if (!typeFits) {
    const wanted = definition.stores === 'switch' ? 'string ("on" or "off")' : definition.stores;
    throw new UsageError(`${where} must be a JSON ${wanted}; it is ${jsonKind(value)}`, { hint });
  }
  try {
    return (definition.parse as (text: string, source: string) => SettingValue<N>)(String(value), where);
  } catch (error) {
    if (error instanceof InvalidValueError) throw new UsageError(`${where} ${error.requirement}`, { hint });
    throw error;
  }
}

/**
 * Where a resolved setting came from, as a user would look it up: a failure that hints at the
 * base URL must point at the flag the user typed, not at a stored setting that was overridden.
 */
export function settingOrigin(name: SettingName, source: SettingSource): string {
  switch (source) {
    case 'flag':
      return `--${kebab(name)}`;
    case 'env':
      return settingDefinitions[name].env;
    case 'stored':
      return `the stored setting (svc config get ${name})`;
    default:
      return 'the default';
  }
}

/** maxRetries → max-retries: the flag spelling of a setting name. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The environment variables that override a value the stored settings hold (SVC_BASE_URL over a
 * stored baseUrl): with `--profile NAME` typed, the user expects that profile's values, and the
 * environment still wins (flag > environment > stored), so the caller says which ones do.
 */
export function envOverridesOfStored(env: Record<string, string | undefined>, stored: Partial<Record<SettingName, unknown>>): string[] {
  return settingNames.filter((name) => {
    const fromEnv = env[settingDefinitions[name].env];
    return fromEnv !== undefined && fromEnv !== '' && stored[name] !== undefined && stored[name] !== null;
  }).map((name) => settingDefinitions[name].env);
}
