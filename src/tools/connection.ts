/**
 * One running MCP server: started (a command of its own, or an address over Streamable HTTP),
 * asked for its tools, called, and stopped. Loaded only when tools are used (toolbox.ts): this is
 * where svc takes in the MCP SDK. A server that cannot start, or stops, becomes a
 * ToolServerError naming it and quoting the last line of its stderr.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { InterruptedError, ToolServerError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { version } from '../core/version.js';
import { describeTarget, serverEnvironment, serverHeaders, type CommandServer, type ServerConfig } from './servers.js';
import { ChildProcessTransport } from './stdio-transport.js';

export interface ConnectOptions {
  /** svc's environment: PATH and HOME, and what `${NAME}` in the entry refers to. */
  env: Record<string, string | undefined>;
  /** The folder a command server runs in when its entry names none. */
  cwd: string;
  /** Aborting it stops the server at once (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Called once if the server stops by itself after it started. */
  onStopped?: ((error: ToolServerError) => void) | undefined;
}

export interface ServerConnection {
  readonly name: string;
  /** Its tools, as it listed them when it started. */
  readonly tools: readonly Tool[];
  /** Why it is not usable any more (it stopped by itself); undefined while it runs. */
  readonly failure: ToolServerError | undefined;
  /** The process id of a command server (tests check it is gone after close). */
  readonly pid: number | undefined;
  /** Call a tool. Rejects with the SDK's error (McpError) for a call the server refused, InterruptedError when `signal` aborts. */
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal, timeoutMs?: number): Promise<CallToolResult>;
  /** Stop it (and what it started); `now` skips the polite wait for it to leave. Safe to call twice. */
  close(now?: boolean): Promise<void>;
}

/** How long a server may take to answer `initialize` and list its tools. `npx -y` may download it first. */
const START_TIMEOUT_MS = 60_000;

const aborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** The words for why `error` stopped a start (a spawn error, an HTTP status, a protocol error). */
function reason(error: unknown, config: ServerConfig): string {
  const code = errnoCode(error);
  if (config.kind === 'command' && (code === 'ENOENT' || code === 'EACCES')) {
    const onPath = !config.command.includes('/');
    if (code === 'EACCES') return `cannot run "${config.command}": permission denied`;
    return onPath ? `cannot run "${config.command}": no such program on PATH` : `cannot run "${config.command}": no such file`;
  }
  if (error instanceof StreamableHTTPError) {
    const status = error.code !== undefined && error.code > 0 ? `HTTP ${error.code}` : undefined;
    return `${config.kind === 'url' ? config.url : 'the server'} answered ${status ?? 'something svc cannot use'}`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return `it did not answer within ${START_TIMEOUT_MS / 1000} s`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return 'it stopped before it was ready';
  if (error instanceof TypeError && /fetch failed/.test(error.message)) {
    return `cannot connect to ${config.kind === 'url' ? config.url : 'it'}: ${describeSystemError(error.cause ?? error)}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A hint that lets the user see what the server says: run it by hand. */
function hintFor(config: ServerConfig): string {
  return config.kind === 'command' ? `run it by hand to see what it says: ${describeTarget(config)}` : `check the address: ${config.url}`;
}

/** The folder a command server starts in; a missing one is said as such (spawn would call it a missing program). */
function workingFolder(name: string, config: CommandServer, cwd: string): string {
  const folder = config.cwd === undefined ? cwd : resolve(cwd, config.cwd);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // Said below.
  }
  if (!isFolder) throw new ToolServerError(name, `the MCP server "${name}" could not start: its folder ${folder} does not exist`, { hint: `fix "cwd" in its entry (svc mcp list --json shows it)` });
  return folder;
}

/** Start the server `name` and list its tools. Throws ToolServerError, or InterruptedError when `signal` aborts. */
export async function connectServer(name: string, config: ServerConfig, options: ConnectOptions): Promise<ServerConnection> {
  let transport: ChildProcessTransport | StreamableHTTPClientTransport;
  try {
    if (config.kind === 'command') {
      const cwd = workingFolder(name, config, options.cwd);
      transport = new ChildProcessTransport({ command: config.command, args: config.args, env: serverEnvironment(config, options.env), cwd });
    } else {
      transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: serverHeaders(config, options.env) } });
    }
  } catch (error) {
    if (error instanceof ToolServerError) throw error;
    // A `${NAME}` that cannot be expanded.
    throw new ToolServerError(name, `the MCP server "${name}" could not start: ${(error as Error).message}`, { hint: 'set the variable, or change the entry: svc mcp add --force' });
  }
  const child = transport instanceof ChildProcessTransport ? transport : undefined;
  const stderrLine = (): string | undefined => child?.lastStderrLine();
  const failure = (what: string): ToolServerError => {
    const line = stderrLine();
    return new ToolServerError(name, `the MCP server "${name}" ${what}${line ? `; it said: "${line}"` : ''}`, { stderrLine: line, hint: hintFor(config) });
  };

  const client = new Client({ name: 'svc', version }, { capabilities: {} });
  let closing = false;
  let stopped: ToolServerError | undefined;
  const close = async (now = false): Promise<void> => {
    if (closing) return child ? child.close(now) : undefined;
    closing = true;
    if (child) await child.close(now);
    await client.close().catch(() => {});
  };
  const onAbort = (): void => void close(true);
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let tools: Tool[] = [];
  try {
    if (aborted(options.signal)) throw new InterruptedError();
    await client.connect(transport, { signal: options.signal, timeout: START_TIMEOUT_MS });
    if (client.getServerCapabilities()?.tools) {
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { signal: options.signal, timeout: START_TIMEOUT_MS });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    }
  } catch (error) {
    await close(true);
    options.signal?.removeEventListener('abort', onAbort);
    if (aborted(options.signal) || error instanceof InterruptedError) throw new InterruptedError();
    // Exited before it was ready: how it ended says more than "connection closed".
    const ended = child?.exitDescription;
    if (ended && !(errnoCode(error) === 'ENOENT' || errnoCode(error) === 'EACCES')) throw failure(`could not start: it exited (${ended}) before it was ready`);
    throw failure(`could not start: ${reason(error, config)}`);
  }
  tools = [...tools];

  client.onclose = () => {
    if (closing) return;
    stopped = failure(`stopped${child?.exitDescription ? ` (${child.exitDescription})` : ''}`);
    options.onStopped?.(stopped);
  };

  return {
    name,
    tools,
    get failure() {
      return stopped;
    },
    get pid() {
      return child?.pid;
    },
    async call(tool, args, signal, timeoutMs) {
      // The SDK adds an abort listener to the signal of each request and never removes it: given
      // the caller's signal (one per reply, however many calls it makes), the listeners would pile
      // up on it. Each call gets a signal of its own that the caller's aborts, unhooked after.
      const thisCall = new AbortController();
      const forward = (): void => thisCall.abort();
      if (aborted(signal)) thisCall.abort();
      else signal?.addEventListener('abort', forward, { once: true });
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, {
          signal: thisCall.signal,
          ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
          resetTimeoutOnProgress: true,
        })) as CallToolResult;
      } catch (error) {
        if (aborted(signal)) throw new InterruptedError();
        throw error;
      } finally {
        signal?.removeEventListener('abort', forward);
      }
    },
    async close(now = false) {
      options.signal?.removeEventListener('abort', onAbort);
      await close(now);
    },
  };
}
