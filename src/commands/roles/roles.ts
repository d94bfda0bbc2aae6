/**
 * `svc roles list|show|set|edit|delete`: saved system messages with their request defaults
 * (roles/store.ts keeps them; `svc chat --role` and /role use them).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { parseRequestFields, rawFieldsOfFlags } from '../../chat/request-fields.js';
import { CHAT_OWNED, mergeParams, parseParams } from '../../core/request-params.js';
import { UsageError } from '../../core/errors.js';
import { jsonForOutput } from '../../core/json.js';
import { parseModelId } from '../../core/parse-values.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import { builtInRole } from '../../roles/built-in.js';
import { formatRoleFile, parseRoleFile, RoleFileProblem, type Role } from '../../roles/role-file.js';
import { parseRoleName } from '../../core/names.js';
import { findRole, listRoles, removeRoleFile, roleFilePath, type RoleEntry, saveRole, saveRoleText, unknownRoleError, writeRolesFile } from '../../roles/store.js';
import { blanksOf, describeBlank } from '../../roles/template.js';
import type { IO } from '../../terminal/io.js';
import { tableText, terminalWidth } from '../../terminal/table.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';
import { ASKS_FIRST, confirmDeletion, describeMany, yesOption } from '../deletion.js';
import { addRequestFieldOptions, collect } from '../setting-flags.js';

export function rolesCommand(context: CommandContext): Command {
  return new Command('roles')
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
    )
    .addCommand(listCommand(context))
    .addCommand(showCommand(context))
    .addCommand(setCommand(context))
    .addCommand(editCommand(context))
    .addCommand(deleteCommand(context));
}

/** A role name argument, completing to the roles there are. */
const roleNameArgument = () => completes(new Argument('<name>', 'role name (see `svc roles list`)'), { kind: 'roles' });

type UsableRole = Exclude<RoleEntry, { problem: string }>;

/** The first line of a system message with text, its ends trimmed (a CRLF file's too). */
function leadingLine(text: string): string {
  return text.trim().split(/\r?\n/)[0] ?? '';
}

function listCommand(context: CommandContext) {
  return new Command('list')
    .alias('ls')
    .description(
      'Each role: its name, where it comes from (built-in, file) and the first line of its system message. On a terminal a table ' +
        'with a header, the first line cut to the width; in a pipe one tab-separated line each, no header, the first line whole.',
    )
    .option('--json', 'print a JSON array instead: [{name, source, path, system, model, fields}]')
    .action((options) => runList(context.factory, options.json === true));
}

export function runList(factory: Factory, json: boolean): void {
  const { io } = factory;
  const entries = listRoles(io.env);
  for (const entry of entries) {
    if ('problem' in entry) io.warn(`the role file ${entry.path} ${entry.problem}; fix it with \`svc roles edit ${entry.name}\``);
  }
  const usable = entries.filter((entry): entry is UsableRole => !('problem' in entry));
  if (json) {
    const rows = usable.map((entry) => ({ name: entry.name, source: entry.source, path: entry.path ?? null, system: entry.role.system, model: entry.role.model ?? null, fields: entry.role.fields, params: entry.role.params ?? {}, prompt: entry.role.prompt ?? null, blanks: blanksOf(entry.role.system, entry.role.prompt) }));
    io.stdout.write(jsonForOutput(rows, io.stdoutIsTTY));
    return;
  }
  const rows = usable.map((entry) => {
    const source = entry.source === 'built-in' ? 'built-in' : entry.overridesBuiltIn ? 'file (replaces the built-in)' : 'file';
    return [entry.name, source, leadingLine(entry.role.system)];
  });
  // A role file is the user's text, hand-edited perhaps: the table neutralises it on a terminal,
  // and cuts the first line to the terminal's width.
  if (io.stdoutIsTTY) io.stdout.write(tableText([{ title: 'NAME' }, { title: 'SOURCE' }, { title: 'SYSTEM MESSAGE' }], rows, { width: terminalWidth(io.stdout) }));
  else io.stdout.write(rows.map((row) => `${row.join('\t')}\n`).join(''));
}

/** The role `text` names, or exit 2 listing the roles there are. */
function existing(io: IO, text: string, source: string): { role: Role; source: 'user' | 'built-in'; path: string | undefined } {
  const name = parseRoleName(text, source);
  const found = findRole(io.env, name);
  if (!found) throw unknownRoleError(io.env, name);
  return found;
}

function showCommand(context: CommandContext) {
  return new Command('show')
    .description("Print a role as its file (front matter and system message); a built-in one as the file that would replace it.")
    .addArgument(roleNameArgument())
    .action((name) => runShow(context.factory, name));
}

export function runShow(factory: Factory, text: string): void {
  const { io } = factory;
  const found = existing(io, text, 'svc roles show');
  const fileText = found.path === undefined ? formatRoleFile(found.role) : readFileSync(found.path, 'utf8');
  io.stdout.write(forOutput(fileText.endsWith('\n') ? fileText : `${fileText}\n`, io.stdoutIsTTY));
  const blanks = blanksOf(found.role.system, found.role.prompt);
  if (blanks.length > 0) io.note(`blanks to fill with --var: ${blanks.map(describeBlank).join(', ')}`);
  if (found.source === 'built-in') io.note(`${found.role.name} is built in; \`svc roles edit ${found.role.name}\` makes a copy of your own that replaces it`);
}

/** The flags of `svc roles set`, declared here so commander types them (RoleSetFlags). */
function declareSetCommand() {
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

export type RoleSetFlags = ReturnType<ReturnType<typeof declareSetCommand>['opts']>;

function setCommand(context: CommandContext) {
  return declareSetCommand()
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc roles set pirate --system "Answer as a pirate would."\n  $ svc roles set shell -m svc-mini      # the built-in shell role, with another model',
    )
    .action((name, flags) => runSet(context.factory, name, flags));
}

export function runSet(factory: Factory, text: string, flags: RoleSetFlags): void {
  const { io } = factory;
  const name = parseRoleName(text, 'svc roles set');
  const fields = parseRequestFields(rawFieldsOfFlags(flags));
  const model = flags.model === undefined ? undefined : parseModelId(flags.model, '--model');
  if (flags.system !== undefined && flags.system.trim() === '') throw new UsageError('--system must not be empty');
  const before = findRole(io.env, name)?.role;
  if (!before && flags.system === undefined) {
    throw new UsageError(`there is no role named "${name}" yet: a new role needs --system`, { hint: `svc roles set ${name} --system "You are ..."` });
  }
  const role: Role = {
    name,
    system: flags.system?.trim() ?? before!.system,
    model: model ?? before?.model,
    fields: { ...before?.fields, ...fields },
    params: mergeParams(before?.params, parseParams(flags.param ?? [], CHAT_OWNED)),
    prompt: flags.prompt ?? before?.prompt,
  };
  const path = saveRole(io.env, role);
  io.note(`saved role "${name}" in ${path}`);
}

function editCommand(context: CommandContext) {
  return new Command('edit')
    .description('Edit a role file in $VISUAL or $EDITOR (a new role, or a built-in one, starts from a draft). It is checked before it is saved.')
    .addArgument(roleNameArgument())
    .addHelpText('after', '\nExamples:\n  $ svc roles edit commit            # your own commit role, from the built-in one\n  $ EDITOR=nano svc roles edit notes')
    .action((name) => runEdit(context.factory, name));
}

/** A new role's first draft: the keys there are, commented out, and room for the message. */
const NEW_ROLE = `---
# Defaults for chat requests with this role (remove the "# " to use one):
# model: svc-pro
# temperature: 0.7
# max_tokens: 500
# stop: ["END"]
---
`;

/**
 * Edit a role file in the user's editor. What comes back is checked before it replaces the
 * file; text that cannot be used is kept beside it (<name>.md.draft), never lost, and the next
 * edit starts from it.
 */
export async function runEdit(factory: Factory, text: string): Promise<void> {
  const { io } = factory;
  const name = parseRoleName(text, 'svc roles edit');
  if (io.stdinKind !== 'tty') {
    throw new UsageError('svc roles edit opens an editor and needs a terminal', { hint: `in a script, use \`svc roles set ${name} ...\` or write ${roleFilePath(io.env, name)}` });
  }
  const path = roleFilePath(io.env, name);
  const draftPath = `${path}.draft`;
  const draft = readIfThere(draftPath) ?? readIfThere(path) ?? startingText(name);
  if (existsSync(draftPath)) io.note(`starting from your last edit that could not be saved (${draftPath})`);
  const { editInEditor } = await import('../../terminal/editor.js');
  const result = editInEditor(io.env, draft, 0);
  if (result.text === undefined) throw new UsageError(`${result.problem ?? 'the editor failed'}; the role was not changed`);
  const edited = `${result.text}\n`;
  if (result.text.trim() === '') throw new UsageError('the role is empty; nothing was saved');
  try {
    parseRoleFile(name, edited);
  } catch (error) {
    if (!(error instanceof RoleFileProblem)) throw error;
    writeRolesFile(io.env, draftPath, edited);
    throw new UsageError(`the role was not saved: ${error.message}`, { hint: `your text is kept in ${draftPath}; run \`svc roles edit ${name}\` again to fix it` });
  }
  saveRoleText(io.env, name, edited);
  rmSync(draftPath, { force: true });
  io.note(`saved role "${name}" in ${path}`);
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function startingText(name: string): string {
  const builtIn = builtInRole(name);
  return builtIn ? formatRoleFile(builtIn) : NEW_ROLE;
}

function deleteCommand(context: CommandContext) {
  return new Command('delete')
    .alias('rm')
    .description(
      'Delete role files (a built-in role cannot be deleted; deleting your file of the same name brings it back). ' +
        ASKS_FIRST,
    )
    .addArgument(completes(new Argument('<name...>', 'role name(s)'), { kind: 'roles' }))
    .addOption(yesOption())
    .addHelpText('after', '\nExamples:\n  $ svc roles set pirate --system "Answer as a pirate would."\n  $ svc roles delete pirate --yes')
    .action((names, options) => runRemove(context.factory, names, options.yes));
}

export async function runRemove(factory: Factory, names: string[], yes?: boolean): Promise<void> {
  const { io } = factory;
  const checked = [...new Set(names.map((text) => parseRoleName(text, 'svc roles delete')))];
  for (const name of checked) {
    const builtIn = builtInRole(name) !== undefined;
    if (!existsSync(roleFilePath(io.env, name))) {
      if (builtIn) throw new UsageError(`${name} is a built-in role and cannot be deleted`, { hint: `a role of yours named ${name} replaces it: svc roles edit ${name}` });
      throw unknownRoleError(io.env, name);
    }
  }
  await confirmDeletion(io, describeMany(checked, 'the role', 'roles'), yes);
  for (const name of checked) {
    removeRoleFile(io.env, name);
    io.note(`deleted role "${name}"${builtInRole(name) ? ' (the built-in one applies again)' : ''}`);
  }
}
