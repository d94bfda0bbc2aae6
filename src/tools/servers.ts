/**
 * The MCP servers of a profile (docs/tools.md): what `svc mcp add|list|remove|import` keep, and
 * what a server is started with. They live in `mcp.json` beside the profile's config.json, in the
 * shape Claude Desktop and gemini-cli use, so a user recognises it and can copy entries across:
 *
 *   {"mcpServers": {"files": {"command": "mcp-server-filesystem", "args": ["/home/me/notes"], "env": {}},
 *                   "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer …"}}}}
 *
 * Owner-only (0600 in a 0700 folder, settings/store.ts): env values and headers are often tokens.
 * An entry svc cannot use (a hand edit) is reported and kept as it is when others are written.
 * Nothing here loads the MCP SDK: listing and editing servers starts none of them.
 */
import { BrokenStoreFileError, openStore } from '../settings/store.js';
import { tightenSecretFile } from '../storage/private-dir.js';
import { profileExists, unknownProfileError, type SelectedProfile } from '../settings/profiles.js';
import { UsageError } from '../core/errors.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { Reporter } from '../core/reporter.js';

/** A server svc starts itself, talking to it over its stdin and stdout. */
export interface CommandServer {
  kind: 'command';
  command: string;
  args: string[];
  /** Its environment, on top of PATH and HOME; `${NAME}` in a value is taken from svc's environment when it starts. */
  env: Record<string, string>;
  /** Its working folder; svc's current one when not set. */
  cwd?: string;
}

/** A server already running somewhere, reached over Streamable HTTP. */
export interface UrlServer {
  kind: 'url';
  url: string;
  /** Sent with every request (an Authorization header); `${NAME}` as in env. */
  headers: Record<string, string>;
}

export type ServerConfig = CommandServer | UrlServer;

/**
 * Letters, digits, "-" and "_", a letter or digit first, at most 32: no dot, since `NAME.TOOL`
 * names one tool of a server, and short enough that `NAME__TOOL` fits a function name.
 */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
export const SERVER_NAME_RULE = 'use letters, digits, "-" and "_" (at most 32, a letter or digit first; no dots)';

export function isServerName(text: string): boolean {
  return SERVER_NAME.test(text);
}

/** A server name as typed, checked (exit 2 when it cannot be one). */
export function parseServerName(text: string): string {
  if (isServerName(text)) return text;
  throw new UsageError(`"${text}" is not a usable MCP server name`, { hint: SERVER_NAME_RULE });
}

/** An environment variable's name, as a shell would take it. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `--env KEY=VALUE` values, in order (a later KEY wins). */
export function parseEnvAssignments(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    const name = equals === -1 ? value : value.slice(0, equals);
    if (equals === -1 || !ENV_NAME.test(name)) {
      throw new UsageError(`--env ${value}: expected KEY=VALUE (a variable name, "=", then its value)`, { hint: 'for example --env LOG_LEVEL=debug' });
    }
    env[name] = value.slice(equals + 1);
  }
  return env;
}

/** `--header "Name: value"` values, in order (a later Name wins). */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon === -1 ? '' : value.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^`|~\w-]+$/.test(name)) {
      throw new UsageError(`--header ${value}: expected "Name: value"`, { hint: 'for example --header "Authorization: Bearer ${MY_TOKEN}"' });
    }
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** An http(s) URL, checked; undefined when `text` is not one. */
export function httpUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The fields of an entry svc reads; the others (a client's own: "timeout", "trust", "alwaysAllow") it passes over. */
const KNOWN_FIELDS = new Set(['command', 'args', 'env', 'cwd', 'url', 'httpUrl', 'headers', 'type', 'disabled']);

/** What one entry of an `mcpServers` object is for svc: a server, or why it cannot be one. */
export type ParsedEntry = { config: ServerConfig; ignored: string[]; problem?: undefined } | { problem: string; config?: undefined };

function textRecord(value: unknown, field: string): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isObject(value)) return `its "${field}" is not an object`;
  const record: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') return `its "${field}" has ${key}, which is not text`;
    record[key] = item;
  }
  return record;
}

/** One entry of an `mcpServers` object (svc's own file, or another client's). */
export function parseEntry(value: unknown): ParsedEntry {
  if (!isObject(value)) return { problem: 'it is not a JSON object' };
  if (value.disabled === true) return { problem: 'it is marked "disabled"' };
  const type = value.type;
  if (type === 'sse') return { problem: 'it uses the older HTTP+SSE transport; svc speaks stdio and Streamable HTTP' };
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp'].includes(type as string)) return { problem: `its "type" is one svc does not know (${JSON.stringify(type)})` };
  const ignored = Object.keys(value).filter((key) => !KNOWN_FIELDS.has(key));
  const address = value.httpUrl ?? value.url;
  if (value.command !== undefined && address !== undefined) return { problem: 'it has both a "command" and a "url"' };
  if (value.command !== undefined) {
    if (typeof value.command !== 'string' || value.command.trim() === '') return { problem: 'its "command" is not a program to run' };
    const args = value.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return { problem: 'its "args" is not a list of texts' };
    const env = textRecord(value.env, 'env');
    if (typeof env === 'string') return { problem: env };
    if (value.cwd !== undefined && typeof value.cwd !== 'string') return { problem: 'its "cwd" is not a folder path' };
    const config: CommandServer = { kind: 'command', command: value.command, args: args as string[], env };
    if (typeof value.cwd === 'string' && value.cwd !== '') config.cwd = value.cwd;
    return { config, ignored };
  }
  if (address !== undefined) {
    const url = typeof address === 'string' ? httpUrl(address) : undefined;
    if (url === undefined) return { problem: `its ${value.httpUrl === undefined ? '"url"' : '"httpUrl"'} is not an http:// or https:// address` };
    const headers = textRecord(value.headers, 'headers');
    if (typeof headers === 'string') return { problem: headers };
    return { config: { kind: 'url', url, headers }, ignored };
  }
  return { problem: 'it has neither a "command" nor a "url"' };
}

/** The entry as svc writes it: the shape other clients read too. */
export function storedEntry(config: ServerConfig): JsonObject {
  if (config.kind === 'url') return Object.keys(config.headers).length > 0 ? { url: config.url, headers: config.headers } : { url: config.url };
  const entry: JsonObject = { command: config.command, args: config.args };
  if (Object.keys(config.env).length > 0) entry.env = config.env;
  if (config.cwd !== undefined) entry.cwd = config.cwd;
  return entry;
}

/** A word as a shell would need it to be typed: bare when it holds nothing the shell reads. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What the server is, in one line: its command line, or its address. */
export function describeTarget(config: ServerConfig): string {
  return config.kind === 'url' ? config.url : [config.command, ...config.args].map(shellWord).join(' ');
}

/** The names of the variables (or headers) an entry sets, never their values: those are often tokens. */
export function secretNames(config: ServerConfig): string[] {
  return Object.keys(config.kind === 'url' ? config.headers : config.env);
}

/** What `${NAME}` may not name: svc's own variables (its key among them) never reach a server. */
const SVC_PREFIX = 'SVC_';

/**
 * `value` with each `${NAME}` replaced by that variable of `env`: a token kept out of mcp.json
 * (Claude Code and gemini-cli read their files the same way). Throws a message for a variable
 * that is not set, or one of svc's own.
 */
export function expandVariables(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    if (name.startsWith(SVC_PREFIX)) throw new Error(`\${${name}} names one of svc's own variables, which are never passed to a server`);
    const found = env[name];
    if (found === undefined) throw new Error(`\${${name}} is not set in the environment`);
    return found;
  });
}

/** svc's own variables a server gets: where to find programs, and the user's home folder. Nothing else. */
const PASSED_ON = ['PATH', 'HOME'] as const;

/**
 * The whole environment a command server starts with: PATH and HOME from `env` (svc's), then the
 * entry's own variables, expanded. Never svc's key, never another SVC_ variable, nothing else.
 */
export function serverEnvironment(config: CommandServer, env: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = env[name];
    if (value !== undefined) result[name] = value;
  }
  for (const [name, value] of Object.entries(config.env)) result[name] = expandVariables(value, env);
  return result;
}

/** The headers a URL server is sent, expanded as {@link serverEnvironment} expands variables. */
export function serverHeaders(config: UrlServer, env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, expandVariables(value, env)]));
}

/** The servers of a profile, as read. */
export interface ServerList {
  /** The file they are kept in. */
  path: string;
  /** The usable ones, in the file's order. */
  servers: Map<string, ServerConfig>;
  /** Entries that cannot be used (a hand edit): named, with why; kept in the file as they are. */
  broken: Array<{ name: string; problem: string }>;
}

export interface ServerStore {
  readonly path: string;
  /**
   * Throws BrokenStoreFileError when the file cannot be used; with `forChange`, one that says the
   * file was left as it is (the command was about to write it).
   */
  read(forChange?: boolean): ServerList;
  /** Add or replace servers (the others, usable or not, are kept as they are). */
  put(entries: ReadonlyArray<readonly [string, ServerConfig]>): Promise<void>;
  /** Remove servers by name. */
  remove(names: readonly string[]): Promise<void>;
}

const KEY = 'mcpServers';

/**
 * The servers of `profile`. `read`: the profile must exist (a typo in --profile is exit 2, never
 * another profile's servers); `create`: a write makes it, as `svc config set` does.
 */
export async function profileServerStore(profile: SelectedProfile, reporter: Reporter, use: 'read' | 'create'): Promise<ServerStore> {
  if (use === 'read' && !profileExists(reporter.env, profile.name)) throw unknownProfileError(reporter.env, profile.name, profile.source);
  return openServerStore(profile.dir, reporter);
}

/** The MCP servers kept in `dir` (a profile's folder). */
export async function openServerStore(dir: string, reporter: Reporter): Promise<ServerStore> {
  const store = await openStore(dir, 'mcp');
  const raw = (): JsonObject => {
    const value = store.get(KEY);
    if (value === undefined) return {};
    if (!isObject(value)) throw new BrokenStoreFileError(store.path, `holds "${KEY}" that is not a JSON object`, 'fix it by hand: svc keeps {"mcpServers": {NAME: {...}}} there', false);
    return value;
  };
  // A copy from another machine or a wide umask: the file may hold tokens.
  let tightened = false;
  const tighten = (): void => {
    if (tightened) return;
    tightened = true;
    const done = tightenSecretFile(store.path);
    if (done?.fixed) reporter.note(`note: ${done.message}`);
    else if (done) reporter.warn(done.message);
  };
  const writable = (): JsonObject => {
    try {
      return { ...raw() };
    } catch (error) {
      throw error instanceof BrokenStoreFileError ? error.refusingChange() : error;
    }
  };
  return {
    path: store.path,
    read(forChange = false) {
      tighten();
      const list: ServerList = { path: store.path, servers: new Map(), broken: [] };
      for (const [name, value] of Object.entries(forChange ? writable() : raw())) {
        const parsed = isServerName(name) ? parseEntry(value) : { problem: `its name is not a usable one (${SERVER_NAME_RULE})` };
        if (parsed.problem === undefined) list.servers.set(name, parsed.config);
        else list.broken.push({ name, problem: parsed.problem });
      }
      return list;
    },
    async put(entries) {
      const next = writable();
      for (const [name, config] of entries) next[name] = storedEntry(config);
      await store.set(KEY, next);
    },
    async remove(names) {
      const next = writable();
      for (const name of names) delete next[name];
      await store.set(KEY, next);
    },
  };
}

/** A server of an `mcpServers` file that `svc mcp import` adds, and the fields it passed over. */
export interface ImportedServer {
  name: string;
  config: ServerConfig;
  ignored: string[];
  /** It replaces a server of the same name (--force). */
  replaces: boolean;
  /** Values that look like another client's `$NAME` reference, which svc passes as written. */
  literalDollars: string[];
}

export interface ImportPlan {
  add: ImportedServer[];
  skip: Array<{ name: string; reason: string }>;
}

/**
 * What importing `text` (a Claude Desktop or gemini-cli settings file, named `source` in
 * messages) into `existing` would add and skip. A server of an existing name is skipped unless
 * `force`. Throws UsageError when the text is not such a file.
 */
export function planImport(text: string, source: string, existing: ServerList, force: boolean): ImportPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${source} is not valid JSON; nothing was imported`);
  }
  const servers = isObject(value) ? value[KEY] : undefined;
  if (!isObject(servers)) {
    throw new UsageError(`${source} has no "${KEY}" object; nothing was imported`, { hint: 'svc reads the shape of Claude Desktop and gemini-cli: {"mcpServers": {"NAME": {"command": …, "args": […]}}}' });
  }
  const plan: ImportPlan = { add: [], skip: [] };
  const taken = new Set([...existing.servers.keys(), ...existing.broken.map((entry) => entry.name)]);
  for (const [name, entry] of Object.entries(servers)) {
    if (!isServerName(name)) {
      plan.skip.push({ name, reason: `its name is not a usable one (${SERVER_NAME_RULE}); add it under another with svc mcp add` });
      continue;
    }
    const parsed = parseEntry(entry);
    if (parsed.problem !== undefined) {
      plan.skip.push({ name, reason: parsed.problem });
      continue;
    }
    const replaces = taken.has(name);
    if (replaces && !force) {
      plan.skip.push({ name, reason: 'a server of that name exists (--force replaces it)' });
      continue;
    }
    const values = Object.entries(parsed.config.kind === 'url' ? parsed.config.headers : parsed.config.env);
    const literalDollars = values.filter(([, item]) => /\$[A-Za-z_]/.test(item)).map(([key]) => key);
    plan.add.push({ name, config: parsed.config, ignored: parsed.ignored, replaces, literalDollars });
  }
  return plan;
}
