/** `svc config get|set|unset|list|path`: the stored settings (not the key: see `svc auth`). */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import { settingNames } from '../../settings/definitions.js';
import type { CommandContext } from '../context.js';

const KEYS = `\nKeys: ${settingNames.join(', ')}, prices.MODEL (dollars per million prompt/completion tokens, "IN/OUT")`;

export function configCommand(context: CommandContext): Command {
  const load = () => import('./run.js');
  const config = new Command('config')
    .summary('read and change stored settings')
    .description('Read and change the settings stored in the config folder. Flags and environment variables override them.')
    .addHelpText(
      'after',
      `${KEYS}\n\nExamples:\n  $ svc config set baseUrl https://api.example.com\n  $ svc config set timeout 300\n` +
        '  $ svc config set streamUsage false\n  $ svc config set prices.svc-pro "0.50/1.50"\n  $ svc config get model\n  $ svc config list',
    );
  config
    .command('get')
    .description(
      'Print the value in effect, from wherever it comes: the environment, the stored settings of the profile in use, or the default ' +
        '(exit 1 when there is none). --stored: the stored value alone.',
    )
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'setting-names' }))
    .option('--stored', 'only the stored value (exit 1 when none is stored)')
    .addHelpText('after', '\nExamples:\n  $ svc config get model\n  $ SVC_TIMEOUT=30 svc config get timeout     # 30\n  $ svc config get --stored model')
    .action(async (key: string, options: { stored?: boolean }) => (await load()).runGet(context.factory, key, options.stored === true));
  config
    .command('set')
    .description('Check and store a value.')
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'settings' }))
    .argument('<value>', 'new value')
    .action(async (key: string, value: string) => (await load()).runSet(context.factory, key, value));
  config
    .command('unset')
    .description('Remove a stored value, so the default applies.')
    .addArgument(completes(new Argument('<key>', 'setting name'), { kind: 'setting-names' }))
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
