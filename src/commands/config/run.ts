import { SilentExit, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { isSettingName, settingDefinitions, settingNames, type SettingName } from '../../settings/definitions.js';
import { parseStored } from '../../settings/resolve.js';

function settingName(key: string): SettingName {
  if (isSettingName(key)) return key;
  throw new UsageError(`unknown setting "${key}"`, { hint: `settings: ${settingNames.join(', ')} (the key is managed by \`svc auth\`)` });
}

export async function runGet(factory: Factory, key: string): Promise<void> {
  const name = settingName(key);
  const store = await factory.configStore();
  const value = store.get(name);
  if (value === undefined || value === null) throw new SilentExit(1);
  // Checked as when it is used: a hand-edited ["a","b"] is refused, not printed as "a,b".
  factory.io.stdout.write(`${String(parseStored(name, value, store.path))}\n`);
}

export async function runSet(factory: Factory, key: string, text: string): Promise<void> {
  const name = settingName(key);
  const value = settingDefinitions[name].parse(text, name);
  await (await factory.configStore('create')).set(name, value);
}

export async function runUnset(factory: Factory, key: string): Promise<void> {
  const name = settingName(key);
  await (await factory.configStore()).delete(name);
}

export async function runList(factory: Factory): Promise<void> {
  const settings = await factory.settings({});
  const lines = settingNames.map((name) => `${name}\t${settings[name].value ?? ''}\t${settings[name].source}`);
  factory.io.stdout.write(`${lines.join('\n')}\n`);
}

export async function runPath(factory: Factory): Promise<void> {
  factory.io.stdout.write(`${(await factory.configStore()).path}\n`);
}
