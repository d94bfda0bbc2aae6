import { existsSync, readFileSync, rmSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import type { IO } from '../../terminal/io.js';
import { parseModelId } from '../../core/parse-values.js';
import { builtInRole } from '../../roles/built-in.js';
import { formatRoleFile, parseRoleFile, RoleFileProblem, type Role } from '../../roles/role-file.js';
import { parseRoleName } from '../../core/names.js';
import { findRole, listRoles, removeRoleFile, roleFilePath, type RoleEntry, saveRole, saveRoleText, unknownRoleError, writeRolesFile } from '../../roles/store.js';
import { forOutput } from '../../core/terminal-text.js';
import { editInEditor } from '../../terminal/editor.js';
import { parseRequestFields, rawFieldsOfFlags } from '../../chat/request-fields.js';
import { CHAT_OWNED, mergeParams, parseParams } from '../../core/request-params.js';
import { blanksOf, describeBlank } from '../../roles/template.js';
import type { RoleSetFlags } from './flags.js';
import { jsonForOutput } from '../../core/json.js';
import { tableText, terminalWidth } from '../../terminal/table.js';
import { confirmDeletion, describeMany } from '../deletion.js';

type UsableRole = Exclude<RoleEntry, { problem: string }>;

/** The first line of a system message with text, its ends trimmed (a CRLF file's too). */
function leadingLine(text: string): string {
  return text.trim().split(/\r?\n/)[0] ?? '';
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

export function runShow(factory: Factory, text: string): void {
  const { io } = factory;
  const found = existing(io, text, 'svc roles show');
  const fileText = found.path === undefined ? formatRoleFile(found.role) : readFileSync(found.path, 'utf8');
  io.stdout.write(forOutput(fileText.endsWith('\n') ? fileText : `${fileText}\n`, io.stdoutIsTTY));
  const blanks = blanksOf(found.role.system, found.role.prompt);
  if (blanks.length > 0) io.note(`blanks to fill with --var: ${blanks.map(describeBlank).join(', ')}`);
  if (found.source === 'built-in') io.note(`${found.role.name} is built in; \`svc roles edit ${found.role.name}\` makes a copy of your own that replaces it`);
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
export function runEdit(factory: Factory, text: string): void {
  const { io } = factory;
  const name = parseRoleName(text, 'svc roles edit');
  if (io.stdinKind !== 'tty') {
    throw new UsageError('svc roles edit opens an editor and needs a terminal', { hint: `in a script, use \`svc roles set ${name} ...\` or write ${roleFilePath(io.env, name)}` });
  }
  const path = roleFilePath(io.env, name);
  const draftPath = `${path}.draft`;
  const draft = readIfThere(draftPath) ?? readIfThere(path) ?? startingText(name);
  if (existsSync(draftPath)) io.note(`starting from your last edit that could not be saved (${draftPath})`);
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
