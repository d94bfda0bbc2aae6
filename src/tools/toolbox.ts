/**
 * The tools of MCP servers, offered to a chat model: the one API the chat loop and `svc mcp tools`
 * use. Loading this module loads the MCP SDK; nothing else of svc imports it statically
 * (test/architecture/mcp-sdk.test.ts), so a command without tools never pays for it.
 *
 * How to use it (the chat loop):
 *
 *   // profileServerStore from servers.ts (no SDK), openToolbox from this module (the SDK): both
 *   // through the command's one dynamic import, and only when tools are asked for.
 *   const servers = (await profileServerStore(await factory.profile(), io, 'read')).read();
 *   const toolbox = await openToolbox(['fs', 'web.fetch', 'everything.*'], {
 *     servers, env: io.env, cwd: io.cwd, signal,          // signal: the command's (Ctrl-C ends all)
 *     onServerFailure: (error) => io.warn(error.message, error.hint),
 *   });
 *   try {
 *     body.tools = toolbox.definitions;                    // the OpenAI `tools` array, each round
 *     for (const call of reply.tool_calls) {               // in order
 *       const offered = toolbox.describe(call.function.name); // {server, tool, readOnly} | undefined
 *       ... show the call, ask the user, or check --allow NAME.TOOL ...
 *       const result = await toolbox.call(call.function.name, call.function.arguments, replySignal);
 *       messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
 *       io.note(result.summary);                           // neutralised by io.note
 *     }
 *   } finally {
 *     await toolbox.close();
 *   }
 *
 * - openToolbox(selection, options): a selection entry is `NAME` (every tool of that server),
 *   `NAME.*` (the same), or `NAME.TOOL` (one tool). The servers named are started, in parallel.
 *   Throws UsageError (exit 2) for a name that is not a configured server or a tool the server does
 *   not have, listing what there is (every server is stopped first); InterruptedError when `signal`
 *   aborts. A server that cannot start is NOT thrown: it is in `failures`, `onServerFailure` hears
 *   of it, and the toolbox goes on without its tools (throw `failures[0]` to make it fatal, as
 *   `svc mcp tools` does).
 * - definitions: what to send as `tools` in a chat request, for the servers still running (ask
 *   again before each request: a server that stopped drops out): one
 *   function per tool, `{type: 'function', function: {name, description, parameters}}` with the
 *   tool's inputSchema as parameters. Function names are `SERVER__TOOL`, made to fit OpenAI's
 *   `^[a-zA-Z0-9_-]{1,64}$` (other characters become "_", a clash gets "_2"); the same servers and
 *   tools always give the same names, so a saved conversation's calls still match.
 * - describe(functionName): the server, the tool, whether the server marks it read-only (a hint
 *   only: it is not a reason to run it without asking), or undefined for a name not offered.
 * - call(functionName, argumentsText, signal): runs the tool. Never throws for what the model
 *   did wrong or what the server did: an unknown name, arguments that are not a JSON object, a
 *   refused or failed call, a server gone, all come back as a result with `isError` true and text
 *   the model can read. The only throw is InterruptedError when `signal` aborts: the server is
 *   told to cancel that call and keeps running (a session's Ctrl-C that stops one reply); the
 *   toolbox's own signal, aborted, stops every server. The result: `content` for the model (text parts joined, other parts
 *   in words, at most 64 KiB with a note when cut), `isError`, `summary` ("1.2 KiB, 3 lines:
 *   first line") and `truncated`. `content` and `summary` are the server's words: untrusted, to
 *   be neutralised (io.note does) before they reach a terminal. A call runs at most
 *   `callTimeoutMs` (default 2 minutes, longer while the server reports progress).
 * - select(selection): change what is offered (`/tools add|remove`): servers newly named are
 *   started, servers no longer named are stopped. Same errors as openToolbox; on a UsageError
 *   the offer is as it was.
 * - selection, tools, failures: what is offered, as entries, and as tools with their
 *   descriptions and schemas (for `/tools` and `svc mcp tools`); the servers that failed.
 * - close(): stops every server and what it started. Safe to call twice; aborting `signal` does
 *   it too, at once. No server outlives svc either way.
 */
import { InterruptedError, ToolServerError, UsageError } from '../core/errors.js';
import { isObject } from '../core/json.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { connectServer, type ServerConnection } from './connection.js';
import { errorResult, modelResult, type ToolCallResult } from './results.js';
import { SERVER_NAME_RULE, isServerName, type ServerList } from './servers.js';

export type { ToolCallResult } from './results.js';

/** One entry of the OpenAI `tools` array of a chat request. */
export interface FunctionDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ToolInfo {
  /** The name the model calls it by. */
  functionName: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  description: string;
  /** The server marks it read-only (annotations.readOnlyHint): a hint from the server, not a guarantee. */
  readOnly: boolean;
  /** Its arguments, as a JSON Schema (the function's `parameters`). */
  inputSchema: Record<string, unknown>;
}

export interface OpenToolboxOptions {
  /** The profile's servers (servers.ts: openServerStore(...).read()). */
  servers: ServerList;
  /** svc's environment: a server gets PATH and HOME of it, and what its entry names with `${NAME}`. */
  env: Record<string, string | undefined>;
  /** The folder a command server runs in when its entry names none. */
  cwd: string;
  /** Aborting it stops every server at once. */
  signal?: AbortSignal | undefined;
  /** A server could not start, or stopped by itself: the rest goes on. */
  onServerFailure?: ((error: ToolServerError) => void) | undefined;
  /** The longest a tool call may take (default 2 minutes). */
  callTimeoutMs?: number | undefined;
}

export interface Toolbox {
  readonly definitions: FunctionDefinition[];
  readonly tools: ToolInfo[];
  readonly selection: readonly string[];
  readonly failures: readonly ToolServerError[];
  describe(functionName: string): { server: string; tool: string; readOnly: boolean } | undefined;
  call(functionName: string, argumentsText: string, signal?: AbortSignal): Promise<ToolCallResult>;
  select(selection: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_CALL_TIMEOUT_MS = 120_000;
const FUNCTION_NAME_LENGTH = 64;

/** One entry of a selection: a server, and one of its tools or all (undefined). */
interface Pick {
  entry: string;
  server: string;
  tool: string | undefined;
}

/** `NAME`, `NAME.*` or `NAME.TOOL` (a tool's name may hold dots: a server's may not). */
export function parseSelection(selection: readonly string[], servers: ServerList): Pick[] {
  const known = [...servers.servers.keys()];
  return selection.map((entry) => {
    const dot = entry.indexOf('.');
    const server = dot === -1 ? entry : entry.slice(0, dot);
    const tool = dot === -1 || entry.slice(dot + 1) === '*' ? undefined : entry.slice(dot + 1);
    if (!isServerName(server) || tool === '') throw new UsageError(`"${entry}" names no tool: write NAME, NAME.TOOL or NAME.*`, { hint: `a server's name: ${SERVER_NAME_RULE}` });
    const broken = servers.broken.find((item) => item.name === server);
    if (broken) throw new UsageError(`the MCP server "${server}" in ${servers.path} cannot be used: ${broken.problem}`, { hint: 'fix it by hand, or add it again: svc mcp add --force' });
    if (!servers.servers.has(server)) {
      throw new UsageError(`no MCP server named "${server}"; ${known.length === 0 ? 'none is configured' : `servers: ${known.join(', ')}`}`, { hint: 'add one with svc mcp add NAME -- COMMAND [ARGS...] (svc mcp --help)' });
    }
    return { entry, server, tool };
  });
}

/** A function name for `server` and `tool` that fits OpenAI's rule and is not in `taken`. */
export function functionNameFor(server: string, tool: string, taken: ReadonlySet<string>): string {
  const base = `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, FUNCTION_NAME_LENGTH);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const name = `${base.slice(0, FUNCTION_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/** The offered tools of `picks`, in the selection's order then each server's, each once. */
function offeredTools(picks: readonly Pick[], running: ReadonlyMap<string, ServerConnection>): ToolInfo[] {
  const infos: ToolInfo[] = [];
  const seen = new Set<string>();
  const taken = new Set<string>();
  for (const pick of picks) {
    const connection = running.get(pick.server);
    if (!connection) continue; // it failed to start
    for (const tool of connection.tools) {
      if (pick.tool !== undefined && tool.name !== pick.tool) continue;
      const key = `${pick.server}\0${tool.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const functionName = functionNameFor(pick.server, tool.name, taken);
      taken.add(functionName);
      infos.push({
        functionName,
        server: pick.server,
        tool: tool.name,
        description: tool.description ?? tool.title ?? tool.annotations?.title ?? `the tool ${tool.name} of the MCP server ${pick.server}`,
        readOnly: tool.annotations?.readOnlyHint === true,
        inputSchema: tool.inputSchema as Record<string, unknown>,
      });
    }
  }
  return infos;
}

/** Why a call failed, for the model: the server's message, without the SDK's "MCP error -32602:" prefix. */
function failureWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^MCP error -?\d+: /, '');
}

export async function openToolbox(selection: readonly string[], options: OpenToolboxOptions): Promise<Toolbox> {
  const running = new Map<string, ServerConnection>();
  const failures: ToolServerError[] = [];
  let picks: Pick[] = [];
  let offered: ToolInfo[] = [];
  let closed = false;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  const fail = (error: ToolServerError): void => {
    const index = failures.findIndex((known) => known.server === error.server);
    if (index === -1) failures.push(error);
    else failures[index] = error;
    options.onServerFailure?.(error);
  };

  async function start(names: readonly string[]): Promise<string[]> {
    const started: string[] = [];
    const results = await Promise.allSettled(
      names.map(async (name) => {
        await running.get(name)?.close(true); // one that stopped by itself: what is left of it
        running.delete(name);
        const connection = await connectServer(name, options.servers.servers.get(name)!, {
          env: options.env,
          cwd: options.cwd,
          signal: options.signal,
          onStopped: fail,
        });
        running.set(name, connection);
        started.push(name);
        const index = failures.findIndex((known) => known.server === name);
        if (index !== -1) failures.splice(index, 1);
      }),
    );
    const interrupted = results.some((result) => result.status === 'rejected' && result.reason instanceof InterruptedError);
    if (interrupted || options.signal?.aborted === true) {
      await stop(started, true);
      throw new InterruptedError();
    }
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      if (result.reason instanceof ToolServerError) fail(result.reason);
      else throw result.reason;
    }
    return started;
  }

  async function stop(names: readonly string[], now = false): Promise<void> {
    await Promise.all(
      names.map(async (name) => {
        const connection = running.get(name);
        running.delete(name);
        await connection?.close(now);
      }),
    );
  }

  async function select(next: readonly string[]): Promise<void> {
    if (closed) throw new Error('the toolbox is closed');
    const nextPicks = parseSelection(next, options.servers);
    const wanted = [...new Set(nextPicks.map((pick) => pick.server))];
    const started = await start(wanted.filter((name) => !running.has(name) || running.get(name)!.failure !== undefined));
    for (const pick of nextPicks) {
      const connection = running.get(pick.server);
      if (pick.tool === undefined || !connection || connection.tools.some((tool) => tool.name === pick.tool)) continue;
      await stop(started);
      const names = connection.tools.map((tool) => tool.name);
      throw new UsageError(`the MCP server "${pick.server}" has no tool "${pick.tool}"; ${names.length === 0 ? 'it offers none' : `its tools: ${names.join(', ')}`}`, {
        hint: `see them with: svc mcp tools ${pick.server}`,
      });
    }
    await stop([...running.keys()].filter((name) => !wanted.includes(name)));
    picks = nextPicks;
    offered = offeredTools(picks, running);
  }

  const alive = (): ToolInfo[] =>
    offered.filter((info) => {
      const connection = running.get(info.server);
      return connection !== undefined && connection.failure === undefined;
    });

  async function close(now = false): Promise<void> {
    closed = true;
    await stop([...running.keys()], now);
  }

  const onAbort = (): void => void close(true);
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    await select(selection);
  } catch (error) {
    await close(true);
    options.signal?.removeEventListener('abort', onAbort);
    throw error;
  }

  return {
    get definitions() {
      return alive().map((info) => ({ type: 'function' as const, function: { name: info.functionName, description: info.description, parameters: info.inputSchema } }));
    },
    get tools() {
      return alive();
    },
    get selection() {
      return picks.map((pick) => pick.entry);
    },
    get failures() {
      return [...failures];
    },
    describe(functionName) {
      const info = offered.find((candidate) => candidate.functionName === functionName);
      return info && { server: info.server, tool: info.tool, readOnly: info.readOnly };
    },
    async call(functionName, argumentsText, signal) {
      const info = offered.find((candidate) => candidate.functionName === functionName);
      if (!info) {
        const names = alive().map((candidate) => candidate.functionName);
        return errorResult(`there is no tool named "${functionName}"; ${names.length === 0 ? 'no tools are offered' : `the tools offered: ${names.join(', ')}`}`);
      }
      const connection = running.get(info.server);
      if (!connection || connection.failure) {
        return errorResult(`the tool ${functionName} cannot be used: ${connection?.failure?.message ?? `the MCP server "${info.server}" is not running`}`);
      }
      let args: unknown;
      try {
        args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
      } catch {
        return errorResult(`the arguments of ${functionName} are not valid JSON; call it again with a JSON object that fits its parameters`);
      }
      if (!isObject(args)) return errorResult(`the arguments of ${functionName} must be a JSON object, not ${Array.isArray(args) ? 'an array' : String(args === null ? 'null' : typeof args)}`);
      if (signal?.aborted === true) throw new InterruptedError();
      try {
        return modelResult(await connection.call(info.tool, args, signal, callTimeoutMs));
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        // The server may have gone during the call: its own failure says more (read afresh: it changed while awaiting).
        const gone = running.get(info.server)?.failure;
        if (gone) return errorResult(`the tool ${functionName} cannot be used: ${gone.message}`);
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return errorResult(`the tool ${functionName} did not answer within ${Math.round(callTimeoutMs / 1000)} s`);
        return errorResult(`the tool ${functionName} failed: ${failureWords(error)}`);
      }
    },
    select,
    async close() {
      options.signal?.removeEventListener('abort', onAbort);
      await close();
    },
  };
}
