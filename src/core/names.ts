/**
 * Every name a person gives svc, checked in one place, each with the message that refuses it.
 * A name becomes a file or folder of svc's own, so every rule keeps it one folder entry on every
 * file system: no separator, no "." or "..", nothing hidden.
 *
 * - Profiles and roles (a folder, a `<name>.md`): lowercase letters, digits, "-" and "_", a
 *   letter or digit first, at most 32; lowercase, so that no two names are one file on a
 *   case-insensitive disk (macOS, Windows). A new kind of named thing of svc's own takes this
 *   rule too, through {@link parseSimpleName}.
 * - Conversations (`<name>.jsonl`): letters of either case, digits, ".", "-" and "_", at most 64,
 *   and not ending in `.jsonl` (which would read as a file name typed whole).
 */
import { UsageError } from './errors.js';

const SIMPLE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const SIMPLE_NAME_RULE = 'use lowercase letters, digits, "-" and "_" (at most 32, a letter or digit first)';

/** Whether `text` may name a profile, a role, or another thing of svc's own stored under its name. */
export function isSimpleName(text: string): boolean {
  return SIMPLE_NAME.test(text);
}

/** A name of `kind` as typed, checked; `source` names where it came from (--role, svc profiles use). */
export function parseSimpleName(kind: string, text: string, source: string): string {
  if (isSimpleName(text)) return text;
  throw new UsageError(`${source}: "${text}" is not a usable ${kind} name`, { hint: SIMPLE_NAME_RULE });
}

/** A profile's name is a folder's name. */
export const isProfileName = isSimpleName;

/** A profile name as typed, checked; `source` names where it came from (--profile, SVC_PROFILE). */
export function parseProfileName(text: string, source: string): string {
  return parseSimpleName('profile', text, source);
}

/** A role's name is its file's name, without `.md`. */
export const isRoleName = isSimpleName;

/** A role name as typed, checked; `source` names where it came from (--role, /role). */
export function parseRoleName(text: string, source: string): string {
  return parseSimpleName('role', text, source);
}

/** A conversation is the file `<name>.jsonl` in the conversations folder. */
export const CONVERSATION_EXTENSION = '.jsonl';
const CONVERSATION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isConversationName(name: string): boolean {
  return CONVERSATION_NAME.test(name) && !name.endsWith(CONVERSATION_EXTENSION);
}

/** `name` when it can name a conversation (--session, /fork, svc sessions rename…); else exit 2. */
export function checkConversationName(name: string): string {
  if (!isConversationName(name)) {
    throw new UsageError(`"${name}" is not a usable conversation name`, { hint: 'use letters, digits, ".", "-" and "_" (at most 64)' });
  }
  return name;
}

/** A fresh name for an unnamed conversation: sortable by time, unique enough to never collide. */
export function newConversationName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

// Tools: `SERVER` is every tool of an MCP server, `SERVER.TOOL` one of them (a server's name
// holds no dot; a tool's may).

/** A tool, or every tool of a server (`tool` undefined). */
export interface ToolName {
  server: string;
  tool?: string | undefined;
}

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const TOOL_NAME = /^[^\s\u0000-\u001f\u007f]+$/u;

/** `fs` or `fs.read_file`, as the user writes it. */
export function toolNameText(name: ToolName): string {
  return name.tool === undefined ? name.server : `${name.server}.${name.tool}`;
}

/** An allow rule as the user writes it: `fs.*` or `fs.read_file`. */
export function allowRuleText(rule: ToolName): string {
  return `${rule.server}.${rule.tool ?? '*'}`;
}

/** `fs`, `fs.read_file` or `fs.*` (the same as `fs`); `where` names the flag or file for the message. */
export function parseToolName(text: string, where: string): ToolName {
  const trimmed = text.trim();
  const dot = trimmed.indexOf('.');
  const server = dot === -1 ? trimmed : trimmed.slice(0, dot);
  const tool = dot === -1 ? undefined : trimmed.slice(dot + 1);
  if (!SERVER_NAME.test(server) || (tool !== undefined && !TOOL_NAME.test(tool))) {
    throw new UsageError(`${where}: "${trimmed}" is not a tool name: give a server's name (fs) or one of its tools (fs.read_file)`);
  }
  return tool === undefined || tool === '*' ? { server } : { server, tool };
}

/** Names given as separate values, each of which may list several (`fs, web.search`). */
export function parseToolNames(values: readonly string[], where: string): ToolName[] {
  const names: ToolName[] = [];
  for (const value of values) {
    for (const part of value.split(/[\s,]+/)) {
      if (part === '') continue;
      const name = parseToolName(part, where);
      if (!names.some((known) => sameName(known, name))) names.push(name);
    }
  }
  return names;
}

/** `--allow fs.read_file` or `--allow fs.*`: a bare server name is refused, so a whole server is allowed only when said so. */
export function parseAllowRules(values: readonly string[], where: string): ToolName[] {
  return values.map((value) => {
    const text = value.trim();
    if (!text.includes('.')) {
      throw new UsageError(`${where} ${text}: name the tool (${text}.TOOL), or ${text}.* for every tool of ${text}`, { hint: `svc chat --tools ${text} --allow '${text}.*' ...   (quoted: the shell could read the *)` });
    }
    return parseToolName(text, where);
  });
}

export function sameName(a: ToolName, b: ToolName): boolean {
  return a.server === b.server && a.tool === b.tool;
}
