/**
 * The flags that set a chat request's optional fields (chat/request-fields.ts), declared once for
 * every command that has them: `svc chat`, `svc batch` (defaults for every request) and `svc roles
 * set` (a role's defaults).
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { collect } from './setting-flags.js';

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

