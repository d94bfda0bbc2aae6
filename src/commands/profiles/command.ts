/** `svc profiles list|use|delete`: the named sets of base URL, key and settings. */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { yesOption } from '../deletion.js';

export function profilesCommand(context: CommandContext) {
  const load = () => import('./run.js');
  const profiles = new Command('profiles')
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
    );
  profiles
    .command('list')
    .alias('ls')
    .description(
      'Each profile: name, stored base URL (- when none), the key masked (or "no key"), and which is the default. On a terminal ' +
        'a table with a header (DEFAULT: yes); in a pipe one tab-separated line each, no header, "default" ending the default one\'s.',
    )
    .option('--json', 'print a JSON array instead')
    .action(async (options) => (await load()).runList(context.factory, options.json === true));
  profiles
    .command('use')
    .description('Make a profile the default (what commands use without --profile or SVC_PROFILE).')
    .addArgument(completes(new Argument('<name>', 'profile name (see `svc profiles list`)'), { kind: 'profiles' }))
    .action(async (name) => (await load()).runUse(context.factory, name));
  profiles
    .command('delete')
    .alias('rm')
    .description(
      'Delete profiles: their folders, with the stored settings and key (a key kept elsewhere, by keyCommand, is not touched). ' +
        '"default" is the config folder itself and cannot be deleted. On a terminal it asks first; --yes does not ask, and a script is never asked.',
    )
    .addArgument(completes(new Argument('<name...>', 'profile name(s) (see `svc profiles list`)'), { kind: 'profiles' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc config set --profile scratch baseUrl http://127.0.0.1:8080\n  $ svc profiles delete scratch --yes')
    .action(async (names, options) => (await load()).runDelete(context.factory, names, options.yes));
  return profiles;
}
