/** `svc auth login|logout|status`: the stored API key. */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';

export function authCommand(context: CommandContext): Command {
  const auth = new Command('auth')
    .summary('store, remove or check the API key')
    .description('Manage the API key svc sends to the service. SVC_API_KEY, when set, is used instead of the stored key.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc auth login                                # asks for the base URL (when none is set) and the key, masked\n' +
        '  $ printf %s "$KEY" | svc auth login --with-key   # from stdin, for scripts\n  $ svc auth status',
    );
  auth
    .command('login')
    .description(
      'Store the API key (owner-only file in the config folder). On a terminal, asks for the base URL first when none is set ' +
        'and stores it too. The key is tried on the service first (GET /v1/models): one it refuses is stored only if you say so ' +
        '(with --with-key: not stored, exit 3). A service without that endpoint, or out of reach, leaves the key stored unchecked.',
    )
    .option('--with-key', 'read the key from stdin instead of prompting')
    .option('--offline', 'ask the service nothing: store the key unchecked')
    .addHelpText('after', '\nExamples:\n  $ svc auth login\n  $ printf %s "$KEY" | svc auth login --with-key')
    .action(async (options) => (await import('./login.js')).runLogin(context.factory, { withKey: options.withKey === true, offline: options.offline === true }, context.signal));
  auth
    .command('logout')
    .description('Remove the stored API key.')
    .action(async () => (await import('./logout-status.js')).runLogout(context.factory));
  auth
    .command('status')
    .description(
      'Show whether a key is set, where it comes from (masked), and the base URL in use, and check the key with the service ' +
        '(GET /v1/models). Exit 3 when no key is set or the service refuses it, 6 when the service cannot be reached; ' +
        'a service without that endpoint: "not checked", exit 0.',
    )
    .option('--offline', 'ask the service nothing: only what is set here')
    .addHelpText('after', '\nExamples:\n  $ svc auth status\n  $ svc auth status --offline')
    .action(async (options) => (await import('./logout-status.js')).runStatus(context.factory, { offline: options.offline === true }, context.signal));
  return auth;
}
