/** `svc roles list|show|set|edit|delete`: saved system messages with their request defaults. */
import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { declareRolesSet, roleNameArgument } from './flags.js';
import { yesOption } from '../deletion.js';

export function rolesCommand(context: CommandContext): Command {
  const load = () => import('./run.js');
  const roles = new Command('roles')
    .summary('saved roles: a system message and defaults for chat')
    .description(
      'A role is a system message with defaults for chat requests, used with `svc chat --role <name>` or /role in a session. ' +
        'Flags given to svc chat beat the role; the role beats the environment and stored settings. Each role is a Markdown file ' +
        'in $XDG_CONFIG_HOME/svc/roles (default ~/.config/svc/roles), shared by every profile: front matter with the defaults, ' +
        'then the system message. Built in: shell, commit, explain; a role of yours with the same name takes the place of one.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc chat --role shell "find files over 1 GB"\n  $ git diff --staged | svc chat --role commit\n' +
        '  $ svc roles set reviewer --system "You review code for bugs; be brief." -t 0.2 -m svc-pro\n' +
        '  $ svc roles edit reviewer\n  $ svc roles list\n  $ svc roles delete reviewer\n\nA role file:\n  ---\n  model: svc-pro\n  temperature: 0.2\n  stop: ["END"]\n  ---\n  You review code for bugs; be brief.',
    );
  roles
    .command('list')
    .alias('ls')
    .description(
      'Each role: its name, where it comes from (built-in, file) and the first line of its system message. On a terminal a table ' +
        'with a header, the first line cut to the width; in a pipe one tab-separated line each, no header, the first line whole.',
    )
    .option('--json', 'print a JSON array instead: [{name, source, path, system, model, fields}]')
    .action(async (options) => (await load()).runList(context.factory, options.json === true));
  roles
    .command('show')
    .description("Print a role as its file (front matter and system message); a built-in one as the file that would replace it.")
    .addArgument(roleNameArgument())
    .action(async (name) => (await load()).runShow(context.factory, name));
  const set = declareRolesSet().addHelpText(
    'after',
    '\nExamples:\n  $ svc roles set pirate --system "Answer as a pirate would."\n  $ svc roles set shell -m svc-mini      # the built-in shell role, with another model',
  );
  set.action(async (name, flags) => (await load()).runSet(context.factory, name, flags));
  roles.addCommand(set);
  roles
    .command('edit')
    .description('Edit a role file in $VISUAL or $EDITOR (a new role, or a built-in one, starts from a draft). It is checked before it is saved.')
    .addArgument(roleNameArgument())
    .addHelpText('after', '\nExamples:\n  $ svc roles edit commit            # your own commit role, from the built-in one\n  $ EDITOR=nano svc roles edit notes')
    .action(async (name) => (await load()).runEdit(context.factory, name));
  roles
    .command('delete')
    .alias('rm')
    .description(
      'Delete role files (a built-in role cannot be deleted; deleting your file of the same name brings it back). ' +
        'On a terminal it asks first; --yes does not ask, and a script is never asked.',
    )
    .addArgument(completes(new Argument('<name...>', 'role name(s)'), { kind: 'roles' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc roles set pirate --system "Answer as a pirate would."\n  $ svc roles delete pirate --yes')
    .action(async (names, options) => (await load()).runRemove(context.factory, names, options.yes));
  return roles;
}
