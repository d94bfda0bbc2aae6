/**
 * The flags that override stored settings (--base-url, --timeout, --max-retries), declared the
 * same way on every command that talks to the service; and the parser of repeatable flags.
 */
import type { Command } from 'commander';
import type { SettingFlags } from '../factory.js';

export function addConnectionOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'service base URL; /v1/... is appended (env SVC_BASE_URL)')
    .option('--timeout <seconds>', 'longest silence allowed from the service (env SVC_TIMEOUT; default 120)')
    .option('--max-retries <n>', 'retries for connection failures, 408, 409, 429, 5xx (env SVC_MAX_RETRIES; default 2)');
}

/** Pick the setting flags out of commander's options object. */
export function settingFlagsFrom(options: Record<string, unknown>, modelSetting: 'model' | 'imageModel'): SettingFlags {
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return {
    baseUrl: text(options.baseUrl),
    timeout: text(options.timeout),
    maxRetries: text(options.maxRetries),
    [modelSetting]: text(options.model),
  };
}

/** Commander's parser for a repeatable option (`--stop a --stop b`): the values in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
