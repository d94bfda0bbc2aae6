/**
 * Settings precedence, as a pure function: flag > environment variable > stored > default.
 */
import { settingDefinitions, type ResolvedValue, type SettingName, type SettingValue } from './definitions.js';

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
  if (stored !== undefined && stored !== null) {
    return { value: parse(String(stored), `stored setting ${name} (fix it with \`svc config set ${name}\`)`), source: 'stored' };
  }
  return { value: definition.defaultValue as ResolvedValue<N>, source: 'default' };
}

/** maxRetries → max-retries: the flag spelling of a setting name. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
