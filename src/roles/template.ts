/**
 * Blanks in a role's system message and prompt: `{{name}}`, `{{name:default}}`, filled by
 * `--var name=value`; `{{input}}` is the prompt itself (words, files, piped stdin). Only the
 * role's own text is a template: a value put in a blank, and the user's prompt, are never read
 * for blanks again, so a prompt holding `{{ handlebars }}` stays as it is. Text between `{{` and
 * `}}` that is not a name (an empty one, spaces inside a name) is left as written. Pure.
 */
import { UsageError } from '../core/errors.js';

export interface Blank {
  name: string;
  /** The text after `:`, when one is given. */
  defaultValue?: string | undefined;
}

/** The name of the blank the prompt fills. */
export const INPUT_BLANK = 'input';

const BLANK = /\{\{\s*([A-Za-z_][\w-]*)\s*(?::([^}]*))?\}\}/g;
const VAR_NAME = /^[A-Za-z_][\w-]*$/;

/** Every blank of `texts`, each name once, in order of first appearance (the first default wins). */
export function blanksOf(...texts: ReadonlyArray<string | undefined>): Blank[] {
  const found = new Map<string, Blank>();
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(BLANK)) {
      const name = match[1]!;
      if (!found.has(name)) found.set(name, match[2] === undefined ? { name } : { name, defaultValue: match[2] });
      else if (found.get(name)!.defaultValue === undefined && match[2] !== undefined) found.set(name, { name, defaultValue: match[2] });
    }
  }
  return [...found.values()];
}

/** `text` with every blank filled: its value, else its default; a blank with neither is refused. */
export function fillBlanks(text: string, values: Readonly<Record<string, string>>, missing: (name: string) => UsageError): string {
  return text.replace(BLANK, (_whole, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(values, name) ? values[name] : fallback;
    if (value === undefined) throw missing(name);
    return value;
  });
}

/** The `--var name=value` flags (the value taken as written, never as JSON); a name twice is refused. */
export function parseVars(flags: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of flags) {
    const equals = raw.indexOf('=');
    const name = equals === -1 ? raw : raw.slice(0, equals);
    if (equals === -1 || !VAR_NAME.test(name)) throw new UsageError(`--var "${raw}" is not NAME=VALUE`, { hint: 'e.g. --var lang=French --var "tone=very formal"' });
    if (name === INPUT_BLANK) throw new UsageError('--var input: {{input}} is the prompt itself (words, -f files, piped stdin), not a --var');
    if (Object.hasOwn(values, name)) throw new UsageError(`--var ${name} is given twice`);
    values[name] = raw.slice(equals + 1);
  }
  return values;
}

/** How a role's blanks read in a message: `lang (default "French")`, `input (the prompt)`. */
export function describeBlank(blank: Blank): string {
  if (blank.name === INPUT_BLANK) return blank.defaultValue === undefined ? 'input (the prompt)' : `input (the prompt; default ${JSON.stringify(blank.defaultValue)})`;
  return blank.defaultValue === undefined ? blank.name : `${blank.name} (default ${JSON.stringify(blank.defaultValue)})`;
}
