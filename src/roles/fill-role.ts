/**
 * A role used with `--var`: its blanks checked before anything is read or sent, its system
 * message filled, and each prompt put into the role's `prompt` template (template.ts). Every
 * refusal is a UsageError (exit 2) naming the blank and how to fill it. `svc chat`, the session
 * (`--role` and `/role`) and `svc batch` get their role from {@link roleToUse} and wrap each
 * prompt with {@link promptWithRole}, so a role means the same message everywhere.
 */
import { UsageError } from '../core/errors.js';
import type { Role } from './role-file.js';
import { loadRole } from './store.js';
import { blanksOf, describeBlank, fillBlanks, INPUT_BLANK } from './template.js';

type Env = Record<string, string | undefined>;
type Vars = Readonly<Record<string, string>>;

/**
 * A role ready to use: its system message filled, and the `--var` values kept for its prompt
 * template, which is filled with each prompt (never before it: a value put in a blank is not
 * read for blanks again, and `{{input}}` is only known with the prompt).
 */
export interface RoleInUse extends Role {
  readonly vars: Vars;
}

/** The blanks a person fills with --var: every one but {{input}}. */
function namedBlanks(role: Role) {
  return blanksOf(role.system, role.prompt).filter((blank) => blank.name !== INPUT_BLANK);
}

/**
 * Check `vars` against the role (each names a blank; each blank without a default is given) and
 * fill its system message. `/role` in a session ignores vars meant for another role.
 */
export function fillRole(role: Role | undefined, vars: Vars, unknownVars: 'refuse' | 'ignore' = 'refuse'): RoleInUse | undefined {
  const given = Object.keys(vars);
  if (!role) {
    if (given.length > 0) throw new UsageError(`--var ${given[0]}: --var fills the blanks of a role's system message or prompt; give --role too`);
    return undefined;
  }
  const blanks = namedBlanks(role);
  const unknown = unknownVars === 'ignore' ? undefined : given.find((name) => !blanks.some((blank) => blank.name === name));
  if (unknown !== undefined) {
    const known = blanks.length > 0 ? `its blanks: ${blanks.map(describeBlank).join(', ')}` : 'it has none';
    throw new UsageError(`--var ${unknown}: the role "${role.name}" has no blank {{${unknown}}} (${known})`);
  }
  const unfilled = blanks.find((blank) => blank.defaultValue === undefined && !Object.hasOwn(vars, blank.name));
  if (unfilled) throw missingVar(role, unfilled.name);
  if (/\{\{\s*input\s*(:[^}]*)?\}\}/.test(role.system)) {
    throw new UsageError(`the role "${role.name}" has {{input}} in its system message: {{input}} can only be in its prompt`, { hint: `svc roles edit ${role.name}` });
  }
  return { ...role, system: fillBlanks(role.system, vars, (name) => missingVar(role, name)), vars };
}

/**
 * The role named by `--role` (or `/role`, with `source` and vars meant for another role
 * ignored), loaded and filled; undefined when none is named. An unknown role, a bad name and an
 * unfilled blank are exit 2, before stdin is read or anything sent.
 */
export function roleToUse(env: Env, name: string | undefined, vars: Vars | undefined, options: { source?: string; unknownVars?: 'refuse' | 'ignore' } = {}): RoleInUse | undefined {
  return fillRole(name === undefined ? undefined : loadRole(env, name, options.source), vars ?? {}, options.unknownVars);
}

function missingVar(role: Role, name: string): UsageError {
  return new UsageError(`the role "${role.name}" has a blank {{${name}}} with no default: give --var ${name}=…`, { hint: `svc roles show ${role.name} lists its blanks` });
}

/**
 * The message to send for `input` (the prompt as typed or piped) with the role's prompt
 * template: `{{input}}` replaced by it, or, in a template without one, the input after a blank
 * line. No role or no template: the input as it is.
 */
export function promptWithRole(role: RoleInUse | undefined, input: string): string {
  const template = role?.prompt;
  if (role === undefined || template === undefined || template === '') return input;
  const takesInput = blanksOf(template).some((blank) => blank.name === INPUT_BLANK);
  const values = input === '' ? role.vars : { ...role.vars, [INPUT_BLANK]: input };
  const filled = fillBlanks(template, values, (name) =>
    name === INPUT_BLANK ? new UsageError(`the role "${role.name}" puts the prompt into its template ({{input}}): give it as words or pipe it in`) : missingVar(role, name),
  );
  return takesInput || input === '' ? filled : `${filled}\n\n${input}`;
}
