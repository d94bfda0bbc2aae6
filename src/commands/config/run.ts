import { SilentExit, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { reportError } from '../../terminal/report-error.js';
import { isSettingName, settingDefinitions, settingNames, type SettingName } from '../../settings/definitions.js';
import { parseStored } from '../../settings/resolve.js';
import { knownModels } from '../../settings/known-models.js';
import { SETTING_CHOICES } from '../../settings/definitions.js';
import { formatPrice, parsePrice, priceKeyModel, PRICES_KEY, readPrices } from '../../settings/prices.js';

function settingName(key: string): SettingName {
  if (isSettingName(key)) return key;
  throw new UsageError(`unknown setting "${key}"`, { hint: `settings: ${settingNames.join(', ')}, prices.MODEL (the key is managed by \`svc auth\`)` });
}

/** The stored `prices` object as it is (an object, or {} when there is none or it is damaged). */
function storedPrices(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
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

export async function runPath(factory: Factory): Promise<void> {
  factory.io.stdout.write(`${(await factory.configStore()).path}\n`);
}
