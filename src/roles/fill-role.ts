/**
 * A role used with `--var`: its blanks checked before anything is read or sent, its system
 * message filled, and each prompt put into the role's `prompt` template (template.ts). Every
 * refusal is a UsageError (exit 2) naming the blank and how to fill it.
 */
import { UsageError } from '../core/errors.js';
import type { Role } from './role-file.js';
import { blanksOf, describeBlank, fillBlanks, INPUT_BLANK } from './template.js';

/** The blanks a person fills with --var: every one but {{input}}. */
function namedBlanks(role: Role) {
  return blanksOf(role.system, role.prompt).filter((blank) => blank.name !== INPUT_BLANK);
}

/**
 * Check `vars` against the role (each names a blank; each blank without a default is given) and
 * fill its system message. `/role` in a session ignores vars meant for another role.
 */
export function fillRole(role: Role | undefined, vars: Readonly<Record<string, string>>, unknownVars: 'refuse' | 'ignore' = 'refuse'): Role | undefined {
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
  return { ...role, system: fillBlanks(role.system, vars, (name) => missingVar(role, name)) };
}

function missingVar(role: Role, name: string): UsageError {
  return new UsageError(`the role "${role.name}" has a blank {{${name}}} with no default: give --var ${name}=…`, { hint: `svc roles show ${role.name} lists its blanks` });
}

/**
 * The message to send for `input` (the prompt as typed or piped) with the role's prompt
 * template: `{{input}}` replaced by it, or, in a template without one, the input after a blank
 * line. No template: the input as it is.
 */
export function promptWithRole(role: Role | undefined, vars: Readonly<Record<string, string>>, input: string): string {
  const template = role?.prompt;
  if (template === undefined || template === '') return input;
  const takesInput = blanksOf(template).some((blank) => blank.name === INPUT_BLANK);
  const values = input === '' ? vars : { ...vars, [INPUT_BLANK]: input };
  const filled = fillBlanks(template, values, (name) =>
    name === INPUT_BLANK
      ? new UsageError(`the role "${role!.name}" puts the prompt into its template ({{input}}): give it as words or pipe it in`)
      : missingVar(role!, name),
  );
  return takesInput || input === '' ? filled : `${filled}\n\n${input}`;
}
