/**
 * Where roles live: one Markdown file per role, `<config folder>/roles/<name>.md`
 * ($XDG_CONFIG_HOME/svc/roles), shared by every profile: a role is a way of asking, not a
 * service (a role's model is only a default, which -m beats). A file there takes the place of
 * the built-in role of the same name.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError, UsageError } from '../core/errors.js';
import { isRoleName, parseRoleName } from '../core/names.js';
import { configDir } from '../storage/paths.js';
import { ensurePrivateDir } from '../storage/private-dir.js';
import { replaceFile } from '../storage/replace-file.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { BUILT_IN_ROLES, builtInRole } from './built-in.js';
import { formatRoleFile, parseRoleFile, RoleFileProblem, type Role } from './role-file.js';

type Env = Record<string, string | undefined>;

export type RoleSource = 'user' | 'built-in';

/** A role found, or a file of one that cannot be read (listed with what is wrong). */
export type RoleEntry =
  | { name: string; source: RoleSource; role: Role; path: string | undefined; overridesBuiltIn: boolean }
  | { name: string; source: 'user'; problem: string; path: string };

export function rolesDir(env: Env): string {
  return join(configDir(env), 'roles');
}

export function roleFilePath(env: Env, name: string): string {
  return join(rolesDir(env), `${name}.md`);
}

/** The names of the role files there are (a missing folder has none). */
function userRoleNames(env: Env): string[] {
  let names: string[];
  try {
    names = readdirSync(rolesDir(env));
  } catch {
    return [];
  }
  return names.filter((file) => file.endsWith('.md') && isRoleName(file.slice(0, -3))).map((file) => file.slice(0, -3));
}

/** Decodes only valid UTF-8: a role file is text svc may write back, so bytes it cannot read are no role. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a user role file, undefined when there is none. */
function readRoleText(env: Env, name: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(roleFilePath(env, name));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new RoleFileProblem(`cannot be read: ${describeSystemError(error)}`);
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // Read leniently, its bytes would be sent as U+FFFD and, after `roles set`, written back so.
    throw new RoleFileProblem('is not UTF-8 text');
  }
}

/** Every role, user ones and built-in ones, by name; a user file that cannot be read is listed with its problem. */
export function listRoles(env: Env): RoleEntry[] {
  const entries = new Map<string, RoleEntry>();
  for (const role of BUILT_IN_ROLES) entries.set(role.name, { name: role.name, source: 'built-in', role, path: undefined, overridesBuiltIn: false });
  for (const name of userRoleNames(env)) {
    const path = roleFilePath(env, name);
    const user = readUserRole(env, name);
    if (user === undefined) continue;
    if ('problem' in user) entries.set(name, { name, source: 'user', problem: user.problem, path });
    else entries.set(name, { name, source: 'user', role: user.role, path, overridesBuiltIn: builtInRole(name) !== undefined });
  }
  return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A user role file as a role; what is wrong with it, in words that follow its path, otherwise. */
function readUserRole(env: Env, name: string): { role: Role } | { problem: string } | undefined {
  let text: string | undefined;
  try {
    text = readRoleText(env, name);
  } catch (error) {
    if (error instanceof RoleFileProblem) return { problem: error.message };
    throw error;
  }
  if (text === undefined) return undefined;
  try {
    return { role: parseRoleFile(name, text) };
  } catch (error) {
    if (error instanceof RoleFileProblem) return { problem: `is not usable: ${error.message}` };
    throw error;
  }
}

/** The user's file for `name`, else the built-in; undefined when neither. A broken file is exit 2, naming it. */
export function findRole(env: Env, name: string): { role: Role; source: RoleSource; path: string | undefined } | undefined {
  const path = roleFilePath(env, name);
  const user = readUserRole(env, name);
  if (user && 'problem' in user) {
    throw new UsageError(`the role file ${path} ${user.problem}; nothing was sent`, {
      hint: `fix it with \`svc roles edit ${name}\` (or by hand), or delete it with \`svc roles delete ${name}\``,
    });
  }
  if (user) return { role: user.role, source: 'user', path };
  const builtIn = builtInRole(name);
  return builtIn ? { role: builtIn, source: 'built-in', path: undefined } : undefined;
}

/** The role `name`, for --role and /role: an unknown one is exit 2 with the roles there are. */
export function loadRole(env: Env, name: string, source = '--role'): Role {
  const found = findRole(env, parseRoleName(name, source));
  if (found) return found.role;
  throw unknownRoleError(env, name);
}

export function unknownRoleError(env: Env, name: string): UsageError {
  const known = listRoles(env).map((entry) => entry.name);
  return new UsageError(`no role named "${name}"; roles: ${known.join(', ')}`, { hint: `create it with \`svc roles set ${name} --system "..."\`` });
}

/** The roles folder, made if missing, in the private config folder. */
export function ensureRolesDir(env: Env): void {
  ensurePrivateDir(configDir(env));
  ensurePrivateDir(rolesDir(env));
}

/**
 * Write `path` in the roles folder whole (a temporary file, then renamed over), owner-only: a
 * crash leaves the old file or the new one, never half of either.
 */
export function writeRolesFile(env: Env, path: string, text: string): void {
  try {
    ensureRolesDir(env);
    replaceFile(path, text, 0o600);
  } catch (error) {
    throw new SvcError(`cannot write ${path}: ${describeSystemError(error)}; the role was not changed`);
  }
}

/** Write a role's file whole, in a private config folder. */
export function saveRoleText(env: Env, name: string, text: string): string {
  const path = roleFilePath(env, name);
  writeRolesFile(env, path, text);
  return path;
}

export function saveRole(env: Env, role: Role): string {
  return saveRoleText(env, role.name, formatRoleFile(role));
}

/** Remove a role file; false when there was none. */
export function removeRoleFile(env: Env, name: string): boolean {
  const path = roleFilePath(env, name);
  try {
    rmSync(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw new SvcError(`cannot remove ${path}: ${describeSystemError(error)}`);
  }
}
