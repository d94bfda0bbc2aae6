/** `svc config get|set|unset|list|path`: the stored settings (not the key: see `svc auth`). */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import { settingNames } from '../../settings/definitions.js';
import type { CommandContext } from '../context.js';

const KEYS = `\nKeys: ${settingNames.join(', ')}`;

export function configCommand(context: CommandContext): Command {
  const load = () => import('./run.js');
  const config = new Command('config')
    .summary('read and change stored settings')
    .description('Read and change the settings stored in the config folder. Flags and environment variables override them.')
    .addHelpText(
      'after',
      `${KEYS}\n\nExamples:\n  $ svc config set baseUrl https://api.example.com\n  $ svc config set timeout 300\n  $ svc config list`,
    );
  config
    .command('get')
    .description('Print a stored value (exit 1 when it is not set).')
    .addArgument(completes(new Argument('<key>', 'setting name'), settingNames))
    .action(async (key: string) => (await load()).runGet(context.factory, key));
  config
    .command('set')
    .description('Check and store a value.')
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'settings' }))
    .argument('<value>', 'new value')
    .action(async (key: string, value: string) => (await load()).runSet(context.factory, key, value));
  config
    .command('unset')
    .description('Remove a stored value, so the default applies.')
    .addArgument(completes(new Argument('<key>', 'setting name'), settingNames))
    .action(async (key: string) => (await load()).runUnset(context.factory, key));
  config
    .command('list')
    .description('Print every setting as key<TAB>value<TAB>source, where source is flag, env, stored or default.')
    .action(async () => (await load()).runList(context.factory));
  // What shell completion of `svc config set KEY <Tab>` asks (completion/*.ts); not for people.
  config
    .command('choices', { hidden: true })
    .argument('[key]')
    .action(async (key: string | undefined) => (await load()).runChoices(context.factory, key));
  config
    .command('path')
    .description('Print the path of the settings file.')
    .action(async () => (await load()).runPath(context.factory));
  return config;
}
