/**
 * The flags several commands declare alike: those that override stored settings (--base-url,
 * --timeout, --max-retries) on every command that talks to the service, those that set a chat
 * request's optional fields (chat/request-fields.ts) on `svc chat`, `svc batch` (defaults for
 * every request) and `svc roles set` (a role's defaults); and the parser of repeatable flags.
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { SettingFlags } from '../factory.js';

/** Adds the connection flags; the returned command's option types include them. */
export function addConnectionOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>) {
  return command
    .option('--base-url <url>', 'service base URL; /v1/... is appended (env SVC_BASE_URL)')
    .option('--timeout <seconds>', 'longest silence allowed from the service (env SVC_TIMEOUT; default 120)')
    .option('--max-retries <n>', 'retries for connection failures, 408, 409, 429, 5xx (env SVC_MAX_RETRIES; default 2)');
}

/** The setting flags a command took, with its -m, as commander parsed them. */
export interface SettingFlagValues {
  baseUrl?: string | undefined;
  timeout?: string | undefined;
  maxRetries?: string | undefined;
  model?: string | undefined;
}

/** The setting flags, -m naming the setting this command's model is (chat's or image's). */
export function settingFlagsFrom(flags: SettingFlagValues, modelSetting: 'model' | 'imageModel'): SettingFlags {
  return { baseUrl: flags.baseUrl, timeout: flags.timeout, maxRetries: flags.maxRetries, [modelSetting]: flags.model };
}

/** Commander's parser for a repeatable option (`--stop a --stop b`): the values in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The chat request field flags (--max-tokens, -t, --top-p, --stop, ...); `what` is what they bound. */
export function addRequestFieldOptions<Args extends unknown[], Opts extends OptionValues, GlobalOpts extends OptionValues>(command: Command<Args, Opts, GlobalOpts>, what = 'the reply') {
  return command
    .option('--max-tokens <n>', `most tokens in ${what} (whole number, 1 or more)`)
    .option('-t, --temperature <0..2>', 'randomness from 0 to 2 (service default 1)')
    .option('--top-p <0..1>', 'nucleus sampling from 0 to 1 (service default 1)')
    .option('--stop <text>', `stop ${what} at this text (repeatable, up to 4 times)`, collect)
    .option('--presence-penalty <-2..2>', 'penalise tokens already present, -2 to 2')
    .option('--frequency-penalty <-2..2>', 'penalise frequent tokens, -2 to 2')
    .option('--user <id>', 'end-user id passed to the service for tracking');
}
