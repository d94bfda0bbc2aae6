/**
 * `svc auth login|logout|status`: the stored API key of the profile in use. Whether the service
 * accepts a key is asked with GET /v1/models (chat/model-choice.ts checkKey), loaded only when a
 * key is checked.
 */
import { Command } from '@commander-js/extra-typings';
import { AuthError, describeError, InterruptedError, NetworkError, SvcError, UnusableKeyError, UsageError } from '../../core/errors.js';
import { parseBaseUrl } from '../../core/parse-values.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import { API_KEY_ENV, checkKeyShape, envApiKey, maskKey, missingKeyError, removeApiKey, replaceApiKey, storeApiKey } from '../../settings/api-key.js';
import { cacheDir } from '../../storage/paths.js';
import { profileExists, profileOrigin } from '../../settings/profiles.js';
import { redact } from '../../terminal/report-error.js';
import { canPrompt, type IO } from '../../terminal/io.js';
import { readAllText } from '../../terminal/streams.js';
import type { CommandContext } from '../context.js';

export function authCommand(context: CommandContext): Command {
  return new Command('auth')
    .summary('store, remove or check the API key')
    .description('Manage the API key svc sends to the service. SVC_API_KEY, when set, is used instead of the stored key.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc auth login                                # asks for the base URL (when none is set) and the key, masked\n' +
        '  $ printf %s "$KEY" | svc auth login --with-key   # from stdin, for scripts\n  $ svc auth status',
    )
    .addCommand(loginCommand(context))
    .addCommand(logoutCommand(context))
    .addCommand(statusCommand(context));
}

/**
 * `svc auth login`: store the API key of the profile in use. On a terminal it asks for the base
 * URL first when none is set (and stores it with the key), then the key, masked. Before storing,
 * the key is tried on the service (GET /v1/models): a key the service refuses is kept only if the
 * person says so; in a script (--with-key) it is not kept (exit 3). A service that cannot be
 * reached, or has no model list, leaves the key stored unchecked, with a line saying so.
 * `--offline` asks the service nothing.
 */
function loginCommand(context: CommandContext) {
  return new Command('login')
    .description(
      'Store the API key (owner-only file in the config folder). On a terminal, asks for the base URL first when none is set ' +
        'and stores it too. The key is tried on the service first (GET /v1/models): one it refuses is stored only if you say so ' +
        '(with --with-key: not stored, exit 3). A service without that endpoint, or out of reach, leaves the key stored unchecked.',
    )
    .option('--with-key', 'read the key from stdin instead of prompting')
    .option('--offline', 'ask the service nothing: store the key unchecked')
    .addHelpText('after', '\nExamples:\n  $ svc auth login\n  $ printf %s "$KEY" | svc auth login --with-key')
    .action((options) => runLogin(context.factory, { withKey: options.withKey === true, offline: options.offline === true }, context.signal));
}

export interface LoginOptions {
  /** Read the key from stdin instead of asking for it. */
  withKey: boolean;
  /** Ask the service nothing: no check of the key. */
  offline: boolean;
}

/** A prompt of @inquirer/prompts, on stderr (stdout stays clean); Ctrl-C is an interruption. */
async function prompting<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new InterruptedError();
    throw error;
  }
}

/** Ask for the key with a masked prompt on the terminal. */
async function promptForKey(io: IO): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return prompting(() => password({ message: 'API key', mask: '*' }, { input: io.stdin, output: io.stderr }));
}

/** Ask for the base URL (checked as `svc config set baseUrl` checks it); empty: none, the key goes unchecked. */
async function promptForBaseUrl(io: IO): Promise<string | undefined> {
  const { input } = await import('@inquirer/prompts');
  const check = (text: string): true | string => {
    if (text.trim() === '') return true;
    try {
      parseBaseUrl(text, 'the base URL');
      return true;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const answer = await prompting(() => input({ message: 'Base URL of the service (/v1/... is appended; empty to set it later)', validate: check }, { input: io.stdin, output: io.stderr }));
  return answer.trim() === '' ? undefined : parseBaseUrl(answer, 'the base URL');
}

/** Whether to store a key the service refused, asked on the terminal (no, unless said). */
async function keepRefusedKey(io: IO): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return prompting(() => confirm({ message: 'Store it anyway?', default: false }, { input: io.stdin, output: io.stderr }));
}

/**
 * Try `key` on the service at `baseUrl` and say what it answered; throws (exit 3) when the
 * service refuses it and the person does not say to keep it.
 */
async function checkBeforeStoring(factory: Factory, baseUrl: string, key: string, ask: boolean, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const say = (text: string): void => io.note(redact(text, key));
  let check;
  try {
    const client = await factory.apiClient(await factory.settings({ baseUrl }, 'create'), { key });
    const { checkKey } = await import('../../chat/model-choice.js');
    check = await checkKey(client, cacheDir(io.env), signal);
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof SvcError)) throw error;
    say(`warning: the key could not be checked: ${describeError(error)[0]}; it is stored unchecked`);
    return;
  }
  if (check.kind === 'accepted') say(`${baseUrl} accepted the key`);
  else if (check.kind === 'not-checked') say(`note: the key was not checked: ${baseUrl} has no model list (GET /v1/models)`);
  else {
    const said = check.error.serviceMessage;
    if (!ask) {
      // Nobody to ask: the refusal is the error (exit 3), and nothing is stored.
      throw new AuthError(`${baseUrl} refused the key, so it was not stored${said ? `: ${said}` : ''}`, { status: check.error.status, serviceMessage: said, requestId: check.error.requestId }, {
        hint: 'check the key, or add --offline to store it without asking the service',
      });
    }
    say(`${baseUrl} refused this key (HTTP ${check.error.status}${said ? `: ${said}` : ''})`);
    if (!(await keepRefusedKey(io))) throw new UnusableKeyError('the key was not stored', { hint: 'run `svc auth login` again with the right key' });
  }
}

export async function runLogin(factory: Factory, options: LoginOptions, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  if (!options.withKey && !canPrompt(io)) {
    throw new UsageError('no terminal to ask for the key on', { hint: 'pipe it in: printf %s "$KEY" | svc auth login --with-key' });
  }
  const ask = !options.withKey;
  let baseUrl = (await factory.settings({}, 'create')).baseUrl.value;
  // Asked first, so the key can be tried on it; stored with the key.
  const newBaseUrl = baseUrl === undefined && ask && !options.offline ? await promptForBaseUrl(io) : undefined;
  baseUrl ??= newBaseUrl;
  let key = options.withKey ? await readAllText(io.stdin) : await promptForKey(io);
  key = key.trim();
  const problem = checkKeyShape(key);
  if (problem) throw new UsageError(`${problem}; nothing was stored`);
  if (baseUrl !== undefined && !options.offline) await checkBeforeStoring(factory, baseUrl, key, ask, signal);

  const profile = await factory.profile();
  const isNew = !profileExists(io.env, profile.name);
  const credentials = await factory.credentialsStore('create');
  // The key file holds nothing but the key being replaced: one that cannot be read is replaced,
  // and the user is told (a folder or an unreadable file is refused by replace()).
  const broken = credentials.problem();
  if (broken) {
    await replaceApiKey(credentials, key);
    io.note(`note: ${broken.message}; replaced it`);
  } else {
    await storeApiKey(credentials, key);
  }
  io.note(`stored the key ${maskKey(key)} in ${credentials.path}${isNew ? ` (a new profile, "${profile.name}")` : ''}`);
  if (newBaseUrl !== undefined) {
    const config = await factory.configStore('create');
    await config.set('baseUrl', newBaseUrl);
    io.note(`stored the base URL ${newBaseUrl} in ${config.path}`);
  } else if (baseUrl === undefined) {
    const flag = profile.name === 'default' ? '' : ` --profile ${profile.name}`;
    io.note(`note: no base URL is set${options.offline ? '' : ', so the key was not checked'}; set it with \`svc config set${flag} baseUrl https://…\``);
  }
  if (envApiKey(io.env)) {
    io.note(`note: ${API_KEY_ENV} is set and takes precedence over the stored key`);
  }
}

function logoutCommand(context: CommandContext) {
  return new Command('logout')
    .description('Remove the stored API key.')
    .action(() => runLogout(context.factory));
}

export async function runLogout(factory: Factory): Promise<void> {
  const { io } = factory;
  const credentials = await factory.credentialsStore();
  const broken = credentials.problem();
  if (broken?.replaceable) {
    // Whatever key the unreadable file holds is what logout is asked to remove.
    credentials.remove();
    io.note(`${broken.message}; removed it, and with it any key it held`);
  } else if (broken) {
    throw broken.refusingChange();
  } else {
    const removed = await removeApiKey(credentials);
    io.note(removed ? `removed the stored key from ${credentials.path}` : 'no key was stored');
  }
  if (envApiKey(io.env)) io.note(`note: ${API_KEY_ENV} is still set in this environment`);
}

function statusCommand(context: CommandContext) {
  return new Command('status')
    .description(
      'Show whether a key is set, where it comes from (masked), and the base URL in use, and check the key with the service ' +
        '(GET /v1/models). Exit 3 when no key is set or the service refuses it, 6 when the service cannot be reached; ' +
        'a service without that endpoint: "not checked", exit 0.',
    )
    .option('--offline', 'ask the service nothing: only what is set here')
    .addHelpText('after', '\nExamples:\n  $ svc auth status\n  $ svc auth status --offline')
    .action((options) => runStatus(context.factory, { offline: options.offline === true }, context.signal));
}

const SOURCE_NAMES = { env: `environment (${API_KEY_ENV})`, command: 'command (keyCommand)', stored: 'stored (svc auth login)' } as const;
const SETTING_SOURCES = { flag: 'flag', env: 'environment (SVC_BASE_URL)', stored: 'stored setting', default: 'default' } as const;

/**
 * What is set (profile, key masked, base URL) and, unless --offline, what the service says of the
 * key: `check:` on stdout, and a refusal (exit 3) or a service out of reach (exit 6) as an error.
 */
export async function runStatus(factory: Factory, options: { offline: boolean }, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const profile = await factory.profile();
  const key = await factory.apiKey();
  const settings = await factory.settings({});
  const base = settings.baseUrl;
  io.stdout.write(`profile: ${profile.name}${profile.source === 'default' ? '' : ` from ${profileOrigin(profile.source)}`}\n`);
  const command = key?.command === undefined ? '' : `: ${forOutput(key.command, io.stdoutIsTTY)}`;
  io.stdout.write(`key: ${key ? `${maskKey(key.key)} from ${SOURCE_NAMES[key.source]}${command}` : 'none'}\n`);
  io.stdout.write(`base URL: ${base.value ? `${base.value} from ${SETTING_SOURCES[base.source]}` : 'none'}\n`);
  if (!key) throw missingKeyError(profile.name);
  const checked = (text: string): void => void io.stdout.write(`check: ${text}\n`);
  if (options.offline) return checked('skipped (--offline)');
  if (!base.value) return checked('not checked (no base URL)');
  let check;
  try {
    const { checkKey } = await import('../../chat/model-choice.js');
    check = await checkKey(await factory.apiClient(settings), cacheDir(io.env), signal);
  } catch (error) {
    if (error instanceof NetworkError) checked('the service cannot be reached');
    throw error;
  }
  if (check.kind === 'accepted') checked('the service accepts the key');
  else if (check.kind === 'not-checked') checked(`not checked (the service has no model list: GET /v1/models answered ${check.status})`);
  else {
    checked(`the service refuses the key (HTTP ${check.error.status})`);
    throw check.error;
  }
}
