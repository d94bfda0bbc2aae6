/**
 * The arguments and flags of `svc roles`, declared here so their types are inferred
 * (@commander-js/extra-typings) and the run module can use them without importing the command.
 */
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import { addRequestFieldOptions, collect } from '../setting-flags.js';

/** A role name argument, completing to the roles there are. */
export const roleNameArgument = () => completes(new Argument('<name>', 'role name (see `svc roles list`)'), { kind: 'roles' });

/** The flags of `svc roles set`, declared here so commander types them (RoleSetFlags). */
export function declareRolesSet() {
  const command = new Command('set')
    .summary('create a role, or change what it sets')
    .description(
      'Save a role: a system message and defaults for chat requests (model, temperature, ...). For an existing role (yours or a ' +
        'built-in one) only what is given changes; a new one needs --system. Fields are removed with `svc roles edit`.',
    )
    .addArgument(roleNameArgument())
    .option('-s, --system <text>', 'the system message (required for a new role)')
    .addOption(completes(new Option('-m, --model <id>', 'chat model used with this role (-m on `svc chat` beats it)'), { kind: 'models' }))
    .option('--prompt <template>', 'a template for each message: {{input}} is the prompt, {{name}} / {{name:default}} are filled by --var')
    .option('--param <key=value>', 'a field sent as given with this role: VALUE as JSON, else a string (repeatable)', collect);
  return addRequestFieldOptions(command, 'replies with this role');
}

export type RoleSetFlags = ReturnType<ReturnType<typeof declareRolesSet>['opts']>;

