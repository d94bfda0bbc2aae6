/** `svc profiles list|use`: the named sets of base URL, key and settings. */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

export function profilesCommand(context: CommandContext) {
  const load = () => import('./run.js');
  const profiles = new Command('profiles')
    .summary('list profiles, or choose the default one')
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
    .description('One line each: name, stored base URL (- when none), the key masked (or "no key"), and "default" on the default one.')
    .option('--json', 'print a JSON array instead')
    .action(async (options) => (await load()).runList(context.factory, options.json === true));
  profiles
    .command('use')
    .description('Make a profile the default (what commands use without --profile or SVC_PROFILE).')
    .addArgument(completes(new Argument('<name>', 'profile name (see `svc profiles list`)'), { kind: 'profiles' }))
    .action(async (name) => (await load()).runUse(context.factory, name));
  return profiles;
}
