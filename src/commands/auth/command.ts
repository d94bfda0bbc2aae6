/** `svc auth login|logout|status`: the stored API key. */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';

export function authCommand(context: CommandContext): Command {
  const auth = new Command('auth')
    .summary('store, remove or check the API key')
    .description('Manage the API key svc sends to the service. SVC_API_KEY, when set, is used instead of the stored key.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc auth login                                # asks for the key, masked\n' +
        '  $ printf %s "$KEY" | svc auth login --with-key   # from stdin, for scripts\n  $ svc auth status',
    );
  auth
    .command('login')
    .description('Store the API key (owner-only file in the config folder).')
    .option('--with-key', 'read the key from stdin instead of prompting')
    .addHelpText('after', '\nExamples:\n  $ svc auth login\n  $ printf %s "$KEY" | svc auth login --with-key')
    .action(async (options: { withKey?: boolean }) => (await import('./login.js')).runLogin(context.factory, options.withKey === true));
  auth
    .command('logout')
    .description('Remove the stored API key.')
    .action(async () => (await import('./logout-status.js')).runLogout(context.factory));
  auth
    .command('status')
    .description('Show whether a key is set, where it comes from (masked), and the base URL in use. Exit 3 when no key is set.')
    .action(async () => (await import('./logout-status.js')).runStatus(context.factory));
  return auth;
}
