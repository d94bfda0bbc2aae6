/**
 * A role file: Markdown whose body is the system message, with the role's request defaults in a
 * front matter block, so a long prompt is written as prose and stays easy to edit by hand:
 *
 *     ---
 *     model: svc-pro
 *     temperature: 0
 *     stop: ["\n\n"]
 *     ---
 *     You are a careful reviewer. ...
 *
 * The front matter is a small subset of YAML, one `key: value` per line: a value is a JSON
 * value when it starts with `"`, `[` or `{` (a quoted string, an array of strings for `stop`, the
 * object of `params`), and plain text to the end of the line otherwise. `#` starts a comment line. Keys are the chat
 * request fields (as in a request body), `model`, `params` (fields sent as given, as with
 * `--param`), `prompt` (a message template with blanks, template.ts) and `tools` (the tools a chat
 * with the role offers, as `--tools` names them: `tools: fs, web.search`); an unknown key is refused, so a typo is
 * never a setting quietly ignored. Pure, so a table test covers it.
 */
import { parseModelId } from '../core/parse-values.js';
import { CHAT_OWNED, parseParamsObject, type RequestParams } from '../core/request-params.js';
import { parseToolNames, toolNameText, type ToolName } from '../core/names.js';
import { parseRequestFields, type FieldNaming, type RawRequestFields, type RequestFieldName, type RequestFields } from '../chat/request-fields.js';

/** A role: a system message and the defaults that go with it. */
export interface Role {
  name: string;
  /** The system message ('' for a role that only sets defaults). */
  system: string;
  model: string | undefined;
  fields: RequestFields;
  /**
   * The message template (`prompt:` in the file): each prompt goes into its `{{input}}` blank
   * (after it, in a template without one); other blanks are filled by --var (template.ts).
   */
  prompt?: string | undefined;
  /** Fields sent as given (`params:` in the file, `--param` on `svc roles set`); none when absent. */
  params?: RequestParams | undefined;
  /** The tools a chat with this role offers (`tools:` in the file), unless --tools says otherwise. */
  tools?: ToolName[] | undefined;
}

/** A role file that cannot be used, with what is wrong (the caller names the file). */
export class RoleFileProblem extends Error {}

const FIELD_KEYS: readonly RequestFieldName[] = ['max_tokens', 'temperature', 'top_p', 'stop', 'presence_penalty', 'frequency_penalty', 'user'];
const KEYS = ['model', ...FIELD_KEYS, 'params', 'prompt', 'tools'];

/** Messages about a role file's values name the key as written there. */
const FILE_NAMING: FieldNaming = {
  name: (field) => field,
  listOf: (count) => `has ${count} values`,
};

function valueOf(key: string, text: string, line: number): unknown {
  if (!/^["[{]/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new RoleFileProblem(`line ${line}: the value of ${key} starts like JSON but is not valid JSON`);
  }
}

/** The front matter's lines, and the body after it. A file without one is all body. */
function split(text: string): { header: string[]; body: string; bodyLine: number } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { header: [], body: text, bodyLine: 1 };
  const close = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (close === -1) throw new RoleFileProblem('the front matter opened by "---" on line 1 is never closed by another "---"');
  return { header: lines.slice(1, close), body: lines.slice(close + 1).join('\n'), bodyLine: close + 2 };
}

/** Read a role file's text. Throws RoleFileProblem saying what and where. */
export function parseRoleFile(name: string, text: string): Role {
  const { header, body } = split(text);
  const raw: Record<string, unknown> = {};
  header.forEach((line, index) => {
    const number = index + 2;
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const match = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$/.exec(line);
    if (!match) throw new RoleFileProblem(`line ${number} is not "key: value"`);
    const key = match[1]!;
    if (!KEYS.includes(key)) throw new RoleFileProblem(`line ${number}: "${key}" is not a role setting (${KEYS.join(', ')})`);
    if (Object.hasOwn(raw, key)) throw new RoleFileProblem(`line ${number}: ${key} is given twice`);
    raw[key] = valueOf(key, match[2]!, number);
  });
  return {
    name,
    system: body.trim(),
    model: raw.model === undefined ? undefined : modelOf(raw.model),
    fields: fieldsOf(raw),
    ...(raw.params === undefined ? {} : { params: paramsOf(raw.params) }),
    ...(raw.prompt === undefined ? {} : { prompt: textOf('prompt', raw.prompt) }),
    ...(raw.tools === undefined ? {} : { tools: toolsOf(raw.tools) }),
  };
}

/** `tools: fs, web.search` or `tools: ["fs", "web.search"]`. */
function toolsOf(value: unknown): ToolName[] {
  const values = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
  if (values === undefined) throw new RoleFileProblem('tools must be names of tools: tools: fs, web.search');
  try {
    return parseToolNames(values, 'tools');
  } catch (error) {
    throw new RoleFileProblem((error as Error).message);
  }
}

function textOf(key: string, value: unknown): string {
  if (typeof value !== 'string') throw new RoleFileProblem(`${key} must be text`);
  return value;
}

function modelOf(value: unknown): string {
  const text = textOf('model', value);
  try {
    return parseModelId(text, 'model');
  } catch (error) {
    throw new RoleFileProblem((error as Error).message);
  }
}

function paramsOf(value: unknown): RequestParams {
  try {
    return parseParamsObject(JSON.stringify(value), 'params', CHAT_OWNED);
  } catch (error) {
    throw new RoleFileProblem((error as Error).message);
  }
}

function fieldsOf(raw: Record<string, unknown>): RequestFields {
  const fields: RawRequestFields = {};
  for (const key of FIELD_KEYS) {
    const value = raw[key];
    if (value === undefined) continue;
    if (key === 'stop') {
      if (typeof value !== 'string' && !(Array.isArray(value) && value.every((item) => typeof item === 'string'))) {
        throw new RoleFileProblem('stop must be text, or an array of text: stop: ["###", "END"]');
      }
      fields.stop = value as string | string[];
    } else if (key === 'user') fields.user = textOf(key, value);
    else fields[key] = textOf(key, value);
  }
  try {
    return parseRequestFields(fields, FILE_NAMING);
  } catch (error) {
    throw new RoleFileProblem((error as Error).message);
  }
}

/** A front matter value: plain when it reads back the same, JSON otherwise. */
function formatValue(value: string | number | readonly string[] | RequestParams): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return JSON.stringify(value);
  const plain = value !== '' && value === value.trim() && !/^["[{#]/.test(value) && !/[\n\r]/.test(value);
  return plain ? value : JSON.stringify(value);
}

/** The file for `role`: front matter with what it sets (none when nothing), then the system message. */
export function formatRoleFile(role: Omit<Role, 'name'>): string {
  const entries: Array<[string, string | number | readonly string[] | RequestParams]> = [];
  if (role.model !== undefined) entries.push(['model', role.model]);
  for (const key of FIELD_KEYS) {
    const value = role.fields[key];
    if (value !== undefined) entries.push([key, value]);
  }
  if (role.params && Object.keys(role.params).length > 0) entries.push(['params', role.params]);
  if (role.prompt !== undefined && role.prompt !== '') entries.push(['prompt', role.prompt]);
  if (role.tools && role.tools.length > 0) entries.push(['tools', role.tools.map(toolNameText).join(', ')]);
  const header = entries.length > 0 ? `---\n${entries.map(([key, value]) => `${key}: ${formatValue(value)}`).join('\n')}\n---\n` : '';
  // A body that itself starts with "---" would be read as front matter: an empty one guards it.
  const guard = header === '' && role.system.startsWith('---') ? '---\n---\n' : '';
  return `${header}${guard}${role.system}\n`;
}
