/** `svc profiles list|use|delete`: the named sets of base URL, key and settings. */
import { rmSync } from 'node:fs';
import { Argument, Command } from '@commander-js/extra-typings';
import { SvcError, UnusableKeyError, UsageError } from '../../core/errors.js';
import { describeSystemError } from '../../core/system-errors.js';
import type { Factory } from '../../factory.js';
import type { IO } from '../../terminal/io.js';
import { API_KEY_ENV, maskKey } from '../../settings/api-key.js';
import { settingDefinitions } from '../../settings/definitions.js';
import { chooseDefault, chosenDefault } from '../../settings/profile-choice.js';
import { parseProfileName } from '../../core/names.js';
import { DEFAULT_PROFILE, PROFILE_ENV, profileDir, profileExists, profileNames, unknownProfileError } from '../../settings/profiles.js';
import { BrokenStoreFileError, openStore } from '../../settings/store.js';
import { readStoredKey, warnSkipped } from '../../settings/stored-key.js';
import { jsonForOutput } from '../../core/json.js';
import { tableText, terminalWidth } from '../../terminal/table.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { ASKS_FIRST, confirmDeletion, describeMany, yesOption } from '../deletion.js';

export function profilesCommand(context: CommandContext) {
  return new Command('profiles')
    .summary('list profiles, choose the default one, or delete one')
    .description(
      'A profile is a service: its own base URL, key and stored settings. "default" is the config folder itself;\n' +
        'a profile is created by storing something in it (svc auth login --profile <name>, svc config set --profile <name> ...).\n' +
        'The profile in use: --profile, else SVC_PROFILE, else the one chosen with `svc profiles use`, else "default".\n' +
        'SVC_BASE_URL, SVC_API_KEY and the other SVC_* variables override the stored settings of every profile.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc config set --profile work baseUrl https://ai.example.com\n  $ printf %s "$WORK_KEY" | svc auth login --profile work --with-key\n' +
        '  $ svc chat --profile work "hello"\n  $ svc profiles use work          # from now on, without --profile\n  $ svc profiles list',
    )
    .addCommand(listCommand(context))
    .addCommand(useCommand(context))
    .addCommand(deleteCommand(context));
}

function listCommand(context: CommandContext) {
  return new Command('list')
    .alias('ls')
    .description(
      'Each profile: name, stored base URL (- when none), the key masked (or "no key"), and which is the default. On a terminal ' +
        'a table with a header (DEFAULT: yes); in a pipe one tab-separated line each, no header, "default" ending the default one\'s.',
    )
    .option('--json', 'print a JSON array instead')
    .action((options) => runList(context.factory, options.json === true));
}

interface ProfileRow {
  name: string;
  /** The stored base URL, as stored; null when none (or its file cannot be read: reported). */
  baseUrl: string | null;
  /** The stored key, masked; null when none. */
  key: string | null;
  default: boolean;
}

/** A profile's stored base URL, for a listing: what the file holds, if it is text. */
async function storedBaseUrl(io: IO, dir: string): Promise<string | null> {
  const store = await openStore(dir, 'config');
  try {
    const value = store.get('baseUrl');
    return typeof value === 'string' && value !== '' ? value : null;
  } catch (error) {
    if (!(error instanceof BrokenStoreFileError)) throw error;
    warnSkipped(io, error, 'its settings are not shown');
    return null;
  }
}

/** A profile's stored key, masked, for a listing; a key that cannot be used is said, not shown. */
async function storedKey(io: IO, dir: string): Promise<string | null> {
  try {
    const key = readStoredKey(io, await openStore(dir, 'credentials'));
    return key ? maskKey(key.key) : null;
  } catch (error) {
    if (!(error instanceof UnusableKeyError)) throw error;
    io.warn(error.message);
    return null;
  }
}

/** Tell the user when the environment overrides what the profiles store. */
function noteOverrides(io: IO): void {
  const overriding = [settingDefinitions.baseUrl.env, API_KEY_ENV].filter((name) => io.env[name]);
  if (overriding.length > 0) io.note(`note: ${overriding.join(' and ')} ${overriding.length > 1 ? 'are' : 'is'} set and override${overriding.length > 1 ? '' : 's'} every profile`);
}

export async function runList(factory: Factory, json: boolean): Promise<void> {
  const { io } = factory;
  const chosen = (await chosenDefault(io)) ?? DEFAULT_PROFILE;
  const names = profileNames(io.env);
  if (!names.includes(chosen)) io.warn(`the default profile "${chosen}" (svc profiles use) does not exist any more; choose another with \`svc profiles use <name>\``);
  const rows: ProfileRow[] = [];
  for (const name of names) {
    const dir = profileDir(io.env, name);
    rows.push({ name, baseUrl: await storedBaseUrl(io, dir), key: await storedKey(io, dir), default: name === chosen });
  }
  noteOverrides(io);
  if (json) {
    io.stdout.write(jsonForOutput(rows, io.stdoutIsTTY));
    return;
  }
  // A hand-edited base URL could hold anything: the table neutralises it on a terminal, like all stored text.
  if (io.stdoutIsTTY) {
    const columns = [{ title: 'NAME' }, { title: 'BASE URL' }, { title: 'KEY' }, { title: 'DEFAULT' }];
    io.stdout.write(tableText(columns, rows.map((row) => [row.name, row.baseUrl ?? '-', row.key ?? 'no key', row.default ? 'yes' : '']), { width: terminalWidth(io.stdout) }));
    return;
  }
  const lines = rows.map((row) => [row.name, row.baseUrl ?? '-', row.key ?? 'no key', ...(row.default ? ['default'] : [])].join('\t'));
  io.stdout.write(`${lines.join('\n')}\n`);
}

function useCommand(context: CommandContext) {
  return new Command('use')
    .description('Make a profile the default (what commands use without --profile or SVC_PROFILE).')
    .addArgument(completes(new Argument('<name>', 'profile name (see `svc profiles list`)'), { kind: 'profiles' }))
    .action((name) => runUse(context.factory, name));
}

export async function runUse(factory: Factory, text: string): Promise<void> {
  const { io } = factory;
  const name = parseProfileName(text, 'svc profiles use');
  if (!profileExists(io.env, name)) throw unknownProfileError(io.env, name);
  await chooseDefault(io, name);
  io.note(`"${name}" is now the default profile`);
  const fromEnv = io.env[PROFILE_ENV];
  if (fromEnv && fromEnv !== name) io.note(`note: ${PROFILE_ENV} is set (to "${fromEnv}") and takes precedence in this environment`);
}

function deleteCommand(context: CommandContext) {
  return new Command('delete')
    .alias('rm')
    .description(
      'Delete profiles: their folders, with the stored settings and key (a key kept elsewhere, by keyCommand, is not touched). ' +
        `"default" is the config folder itself and cannot be deleted. ${ASKS_FIRST}`,
    )
    .addArgument(completes(new Argument('<name...>', 'profile name(s) (see `svc profiles list`)'), { kind: 'profiles' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc config set --profile scratch baseUrl http://127.0.0.1:8080\n  $ svc profiles delete scratch --yes')
    .action((names, options) => runDelete(context.factory, names, options.yes));
}

/**
 * `svc profiles delete NAME...`: each profile's folder goes, settings and key with it. Every name
 * is checked before anything is asked or deleted. A profile chosen as the default with `svc
 * profiles use` stops being it (the choice goes back to "default"), and the user is told.
 */
export async function runDelete(factory: Factory, texts: string[], yes?: boolean): Promise<void> {
  const { io } = factory;
  const names = [...new Set(texts.map((text) => parseProfileName(text, 'svc profiles delete')))];
  for (const name of names) {
    if (name === DEFAULT_PROFILE) {
      throw new UsageError('the default profile is the config folder itself and cannot be deleted; nothing was deleted', {
        hint: 'empty it instead: svc auth logout, svc config unset <key>',
      });
    }
    if (!profileExists(io.env, name)) throw unknownProfileError(io.env, name);
  }
  await confirmDeletion(io, describeMany(names, 'the profile', 'profiles'), yes);
  const chosen = await chosenDefault(io);
  for (const name of names) {
    const dir = profileDir(io.env, name);
    try {
      rmSync(dir, { recursive: true });
    } catch (error) {
      throw new SvcError(`cannot delete ${dir}: ${describeSystemError(error)}`, { cause: error });
    }
    io.note(`deleted profile "${name}"`);
    if (chosen === name) {
      await chooseDefault(io, DEFAULT_PROFILE);
      io.note(`it was the default profile; "${DEFAULT_PROFILE}" is the default again`);
    }
    if (io.env[PROFILE_ENV] === name) io.note(`note: ${PROFILE_ENV} names it still; unset it, or commands here will fail`);
  }
}
