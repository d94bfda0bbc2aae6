/** `svc config get|set|unset|list|path`: the stored settings (not the key: see `svc auth`). */
import { Argument, Command } from '@commander-js/extra-typings';
import { SilentExit, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { isSettingName, SETTING_CHOICES, settingDefinitions, settingNames, type SettingName } from '../../settings/definitions.js';
import { knownModels } from '../../settings/known-models.js';
import { formatPrice, parsePrice, priceKeyModel, PRICES_KEY, readPrices } from '../../settings/prices.js';
import { parseStored } from '../../settings/resolve.js';
import { reportError } from '../../terminal/report-error.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

const KEYS = `\nKeys: ${settingNames.join(', ')}, prices.MODEL (dollars per million prompt/completion tokens, "IN/OUT")`;

export function configCommand(context: CommandContext): Command {
  return new Command('config')
    .summary('read and change stored settings')
    .description('Read and change the settings stored in the config folder. Flags and environment variables override them.')
    .addHelpText(
      'after',
      `${KEYS}\n\nExamples:\n  $ svc config set baseUrl https://api.example.com\n  $ svc config set timeout 300\n` +
        '  $ svc config set streamUsage false\n  $ svc config set prices.svc-pro "0.50/1.50"\n  $ svc config get model\n  $ svc config list',
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
  throw new UsageError(`unknown setting "${key}"`, { hint: `settings: ${settingNames.join(', ')}, prices.MODEL (the key is managed by \`svc auth\`)` });
}

/** The stored `prices` object as it is (an object, or {} when there is none or it is damaged). */
function storedPrices(value: unknown): Record<string, unknown> {
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
  const model = priceKeyModel(key);
  if (model !== undefined) {
    // A price is only ever stored: there is no variable or default for one.
    const { prices } = readPrices((await factory.configStore()).get(PRICES_KEY));
    const price = prices.get(model);
    if (!price) throw new SilentExit(1);
    factory.io.stdout.write(`${formatPrice(price)}\n`);
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
  const model = priceKeyModel(key);
  if (model !== undefined) {
    const price = formatPrice(parsePrice(text, key));
    const store = await factory.configStore('create');
    // Written whole: a model id may hold dots (gpt-4.1), which a dotted key would split.
    await store.set(PRICES_KEY, { ...storedPrices(store.get(PRICES_KEY)), [model]: price });
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
  const model = priceKeyModel(key);
  if (model !== undefined) {
    const store = await factory.configStore();
    const prices = storedPrices(store.get(PRICES_KEY));
    delete prices[model];
    if (Object.keys(prices).length === 0) await store.delete(PRICES_KEY);
    else await store.set(PRICES_KEY, prices);
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
  if (key === undefined) values = [...settingNames, `${PRICES_KEY}.`, ...[...(await storedPriceModels(factory))].map((model) => `${PRICES_KEY}.${model}`)];
  else if (isSettingName(key)) {
    const known = SETTING_CHOICES[key];
    if (known) values = known;
    else if (key === 'model' || key === 'imageModel') values = knownModels(io.env, key === 'model' ? 'chat' : 'image', await baseUrlInEffect(factory));
  }
  if (values.length > 0) io.stdout.write(`${values.join('\n')}\n`);
}

/** The models with a stored price, for completion; none when the settings cannot be read. */
async function storedPriceModels(factory: Factory): Promise<Iterable<string>> {
  try {
    return readPrices((await factory.configStore()).get(PRICES_KEY)).prices.keys();
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
