/** `svc config get|set|unset|list|path`: the stored settings (not the key: see `svc auth`). */
import { Argument, Command } from '@commander-js/extra-typings';
import { SilentExit, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { isSettingName, parseWindowTokens, SETTING_CHOICES, settingDefinitions, settingNames, type SettingName } from '../../settings/definitions.js';
import { knownModels } from '../../settings/known-models.js';
import { formatPrice, parsePrice, priceKeyModel, PRICES_KEY, readPrices } from '../../settings/prices.js';
import { CONTEXT_WINDOW_PREFIX, CONTEXT_WINDOWS_KEY, contextWindowKeyModel, readContextWindows } from '../../settings/context-windows.js';
import { parseStored } from '../../settings/resolve.js';
import { reportError } from '../../terminal/report-error.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

const KEYS = `\nKeys: ${settingNames.join(', ')}, prices.MODEL (dollars per million prompt/completion tokens, "IN/OUT"), contextWindow.MODEL (tokens, for one model)`;

/**
 * A key with a model in it (`prices.MODEL`, `contextWindow.MODEL`): stored, for any model id, in
 * one object per kind (`prices`, `contextWindows`), written whole since a model id may hold dots.
 * There is no variable or default for one: only the stored value.
 */
interface PerModelKey {
  model: string;
  /** The key of the object in config.json. */
  storeKey: string;
  /** The value as stored, from what was typed. */
  parse(text: string): string | number;
  /** The stored values that can be read, as `svc config get` prints them. */
  read(stored: unknown): Map<string, string>;
}

function perModelKey(key: string): PerModelKey | undefined {
  const priced = priceKeyModel(key);
  if (priced !== undefined) {
    return { model: priced, storeKey: PRICES_KEY, parse: (text) => formatPrice(parsePrice(text, key)), read: (stored) => new Map([...readPrices(stored).prices].map(([model, price]) => [model, formatPrice(price)])) };
  }
  const windowed = contextWindowKeyModel(key);
  if (windowed !== undefined) {
    return { model: windowed, storeKey: CONTEXT_WINDOWS_KEY, parse: (text) => parseWindowTokens(text, key), read: (stored) => new Map([...readContextWindows(stored).windows].map(([model, tokens]) => [model, String(tokens)])) };
  }
  return undefined;
}

export function configCommand(context: CommandContext): Command {
  return new Command('config')
    .summary('read and change stored settings')
    .description('Read and change the settings stored in the config folder. Flags and environment variables override them.')
    .addHelpText(
      'after',
      `${KEYS}\n\nExamples:\n  $ svc config set baseUrl https://api.example.com\n  $ svc config set timeout 300\n` +
        '  $ svc config set streamUsage false\n  $ svc config set prices.svc-pro "0.50/1.50"\n' +
        '  $ svc config set contextWindow.svc-mini 32768   # one model\'s window, when the server does not say it\n  $ svc config get model\n  $ svc config list',
    )
    .addCommand(getCommand(context))
    .addCommand(setCommand(context))
    .addCommand(unsetCommand(context))
    .addCommand(listCommand(context))
    // What shell completion of `svc config set KEY <Tab>` asks (completion/*.ts); not for people.
    .addCommand(choicesCommand(context), { hidden: true })
    .addCommand(pathCommand(context));
}

function settingName(key: string): SettingName {
  if (isSettingName(key)) return key;
  throw new UsageError(`unknown setting "${key}"`, { hint: `settings: ${settingNames.join(', ')}, prices.MODEL, contextWindow.MODEL (the key is managed by \`svc auth\`)` });
}

/** A stored per-model object (`prices`, `contextWindows`) as it is (an object, or {} when there is none or it is damaged). */
function storedPerModel(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

function getCommand(context: CommandContext) {
  return new Command('get')
    .description(
      'Print the value in effect, from wherever it comes: the environment, the stored settings of the profile in use, or the default ' +
        '(exit 1 when there is none). --stored: the stored value alone.',
    )
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'setting-names' }))
    .option('--stored', 'only the stored value (exit 1 when none is stored)')
    .addHelpText('after', '\nExamples:\n  $ svc config get model\n  $ SVC_TIMEOUT=30 svc config get timeout     # 30\n  $ svc config get --stored model')
    .action((key, options) => runGet(context.factory, key, options.stored === true));
}

/**
 * The value in effect (the environment, the stored setting of the profile in use, the default),
 * as any command would use it; with `stored`, the stored value alone. Exit 1 when there is none.
 */
export async function runGet(factory: Factory, key: string, stored = false): Promise<void> {
  const perModel = perModelKey(key);
  if (perModel !== undefined) {
    // Only ever stored: there is no variable or default for one model's value.
    const value = perModel.read((await factory.configStore()).get(perModel.storeKey)).get(perModel.model);
    if (value === undefined) throw new SilentExit(1);
    factory.io.stdout.write(`${value}\n`);
    return;
  }
  const name = settingName(key);
  let value: unknown;
  if (stored) {
    const store = await factory.configStore();
    const text = store.get(name);
    // Checked as when it is used: a hand-edited ["a","b"] is refused, not printed as "a,b".
    value = text === undefined || text === null ? undefined : parseStored(name, text, store.path);
  } else {
    value = (await factory.settings({}))[name].value;
  }
  if (value === undefined) throw new SilentExit(1);
  factory.io.stdout.write(`${String(value)}\n`);
}

function setCommand(context: CommandContext) {
  return new Command('set')
    .description('Check and store a value.')
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'settings' }))
    .argument('<value>', 'new value')
    .action((key, value) => runSet(context.factory, key, value));
}

export async function runSet(factory: Factory, key: string, text: string): Promise<void> {
  const perModel = perModelKey(key);
  if (perModel !== undefined) {
    const value = perModel.parse(text);
    const store = await factory.configStore('create');
    // Written whole: a model id may hold dots (gpt-4.1), which a dotted key would split.
    await store.set(perModel.storeKey, { ...storedPerModel(store.get(perModel.storeKey)), [perModel.model]: value });
    return;
  }
  const name = settingName(key);
  const value = settingDefinitions[name].parse(text, name);
  await (await factory.configStore('create')).set(name, value);
}

function unsetCommand(context: CommandContext) {
  return new Command('unset')
    .description('Remove a stored value, so the default applies.')
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'setting-names' }))
    .action((key) => runUnset(context.factory, key));
}

export async function runUnset(factory: Factory, key: string): Promise<void> {
  const perModel = perModelKey(key);
  if (perModel !== undefined) {
    const store = await factory.configStore();
    const values = storedPerModel(store.get(perModel.storeKey));
    delete values[perModel.model];
    if (Object.keys(values).length === 0) await store.delete(perModel.storeKey);
    else await store.set(perModel.storeKey, values);
    return;
  }
  const name = settingName(key);
  await (await factory.configStore()).delete(name);
}

function listCommand(context: CommandContext) {
  return new Command('list')
    .description('Print every setting as key<TAB>value<TAB>source, where source is flag, env, stored or default.')
    .action(() => runList(context.factory));
}

/**
 * Every setting. One that is not valid (a stored `"timeout": -1`, `SVC_TIMEOUT=abc`) does not hide
 * the others: the listing is where one goes to find it. It is listed with the source `invalid`,
 * its problem and fix said on stderr, and the exit is still 2, as for any command that reads it.
 */
export async function runList(factory: Factory): Promise<void> {
  const { io } = factory;
  const settings = await factory.settings({});
  const lines: string[] = [];
  const problems: UsageError[] = [];
  for (const name of settingNames) {
    try {
      lines.push(`${name}\t${settings[name].value ?? ''}\t${settings[name].source}`);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      lines.push(`${name}\t\tinvalid`);
      problems.push(error);
    }
  }
  for (const [model, price] of await factory.prices()) lines.push(`${PRICES_KEY}.${model}\t${formatPrice(price)}\tstored`);
  for (const [model, tokens] of await factory.contextWindows()) lines.push(`${CONTEXT_WINDOW_PREFIX}${model}\t${tokens}\tstored`);
  io.stdout.write(`${lines.join('\n')}\n`);
  if (problems.length === 0) return;
  // The last is reported by main, as every error is; the others the same way, before it.
  for (const problem of problems.slice(0, -1)) await reportError(io, problem, undefined);
  throw problems.at(-1)!;
}

function choicesCommand(context: CommandContext) {
  return new Command('choices').argument('[key]').action((key) => runChoices(context.factory, key));
}

/**
 * `svc config choices [KEY]` (hidden; what shell completion calls): the keys (setting names,
 * `prices.` and the prices stored), or the values KEY takes: its choices, the models svc knows
 * for model keys, nothing for free text. One a line; never an error, so a Tab never prints one,
 * and never a request: only files are read.
 */
export async function runChoices(factory: Factory, key: string | undefined): Promise<void> {
  const { io } = factory;
  let values: readonly string[] = [];
  if (key === undefined) {
    values = [
      ...settingNames,
      `${PRICES_KEY}.`,
      ...(await storedModels(factory, PRICES_KEY)).map((model) => `${PRICES_KEY}.${model}`),
      CONTEXT_WINDOW_PREFIX,
      ...(await storedModels(factory, CONTEXT_WINDOWS_KEY)).map((model) => `${CONTEXT_WINDOW_PREFIX}${model}`),
    ];
  }
  else if (isSettingName(key)) {
    const known = SETTING_CHOICES[key];
    if (known) values = known;
    else if (key === 'model' || key === 'imageModel') values = knownModels(io.env, key === 'model' ? 'chat' : 'image', await baseUrlInEffect(factory));
  }
  if (values.length > 0) io.stdout.write(`${values.join('\n')}\n`);
}

/** The models with a value stored under `storeKey` (a price, a window), for completion; none when the settings cannot be read. */
async function storedModels(factory: Factory, storeKey: string): Promise<string[]> {
  try {
    return Object.keys(storedPerModel((await factory.configStore()).get(storeKey)));
  } catch {
    return [];
  }
}

/** The base URL in effect, for completion; undefined when none is set or it cannot be read. */
async function baseUrlInEffect(factory: Factory): Promise<string | undefined> {
  try {
    return (await factory.settings({})).baseUrl.value;
  } catch {
    return undefined;
  }
}

function pathCommand(context: CommandContext) {
  return new Command('path')
    .description('Print the path of the settings file.')
    .action(() => runPath(context.factory));
}

export async function runPath(factory: Factory): Promise<void> {
  factory.io.stdout.write(`${(await factory.configStore()).path}\n`);
}
