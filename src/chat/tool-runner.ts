/**
 * Tools offered to the model in a chat, and what the tool loop (tool-loop.ts) needs of whatever
 * provides them: a ToolRunner opened for some MCP servers, and the ToolSet that narrows it to the
 * tools the user chose (`--tools fs`, `--tools fs.read_file`, a role's or the profile's `tools`,
 * `/tools add|remove`) and remembers which may run without asking (`--allow`, "yes, always").
 *
 * Names: `SERVER` is every tool of a server, `SERVER.TOOL` one of them (a server's name holds no
 * dot; a tool's may). An allow rule names a tool, or `SERVER.*` for all of a server's.
 */
import { sameName, type ToolName } from '../core/names.js';
import { ApiError, RejectedError } from '../core/errors.js';
import type { ChatTool } from '../api/chat-types.js';

/** Which server's tool a function offered to the model is. */
export interface ToolIdentity {
  server: string;
  tool: string;
  /** The server marks it read-only (MCP's readOnlyHint). Shown to the person; never a reason to run it unasked. */
  readOnly: boolean;
}

/** A tool's result, as the runner hands it back. */
export interface ToolResult {
  /** The text for the model, already limited in size (with a note when it was cut). */
  content: string;
  /** The tool reported a failure (MCP's isError): the model is told it as an error. */
  isError: boolean;
  /** Its size and first line, for the one line shown on the terminal. */
  summary: string;
}

/**
 * The tools of some MCP servers, running. A function name it does not know, or arguments that
 * are not JSON, come back from call() as an error result the model can read, never a throw.
 */
export interface ToolRunner {
  /** Every tool of its servers, as OpenAI's `tools` array. */
  readonly definitions: readonly ChatTool[];
  /** Which server and tool a function name is; undefined for a name it does not have. */
  describe(functionName: string): ToolIdentity | undefined;
  call(functionName: string, argumentsText: string, signal: AbortSignal): Promise<ToolResult>;
  /** Stop its servers. */
  close(): Promise<void>;
}

/** Start the servers named and list their tools. */
export type OpenTools = (servers: readonly string[], signal: AbortSignal) => Promise<ToolRunner>;

/** Whether `names` take in `identity`: its server as a whole, or that very tool. */
export function namesTool(names: readonly ToolName[], identity: Pick<ToolIdentity, 'server' | 'tool'>): boolean {
  return names.some((name) => name.server === identity.server && (name.tool === undefined || name.tool === identity.tool));
}

/** The servers `names` need, in order, each once. */
function serversOf(names: readonly ToolName[]): string[] {
  return [...new Set(names.map((name) => name.server))];
}

/** `/tools add`: `names` with `more` added; a server named whole takes the place of its single tools. */
export function withNames(names: readonly ToolName[], more: readonly ToolName[]): ToolName[] {
  let result = [...names];
  for (const name of more) {
    if (name.tool === undefined) result = [...result.filter((known) => known.server !== name.server), name];
    else if (!namesTool(result, { server: name.server, tool: name.tool })) result.push(name);
  }
  return result;
}

/**
 * `/tools remove`: `names` without `less`. One tool taken from a server offered whole leaves the
 * server's other tools (`toolsOf` lists them) offered one by one.
 */
export function withoutNames(names: readonly ToolName[], less: readonly ToolName[], toolsOf: (server: string) => readonly string[]): ToolName[] {
  let result = [...names];
  for (const name of less) {
    if (name.tool === undefined) result = result.filter((known) => known.server !== name.server);
    else if (result.some((known) => known.server === name.server && known.tool === undefined)) {
      const others = toolsOf(name.server).filter((tool) => tool !== name.tool);
      result = [...result.filter((known) => known.server !== name.server), ...others.map((tool) => ({ server: name.server, tool }))];
    } else result = result.filter((known) => !sameName(known, name));
  }
  return result;
}

/**
 * The tools on offer, out of a runner's: the selection narrows it, allow rules and "always"
 * answers say which may run without asking. In the session the selection changes (/tools add,
 * /tools remove): the servers are opened again only when the set of servers changes.
 */
export class ToolSet {
  readonly #open: OpenTools;
  #selection: ToolName[];
  readonly #allow: ToolName[];
  /** Tools a person answered "yes, always" for, as `server.tool`. */
  readonly #granted = new Set<string>();
  #runner: ToolRunner | undefined;
  #servers: string[] = [];

  constructor(open: OpenTools, selection: readonly ToolName[], allow: readonly ToolName[] = []) {
    this.#open = open;
    this.#selection = [...selection];
    this.#allow = [...allow];
  }

  get selection(): readonly ToolName[] {
    return this.#selection;
  }

  get allowRules(): readonly ToolName[] {
    return this.#allow;
  }

  /** The tools granted for the rest of the session ("yes, always"), as `server.tool`. */
  get granted(): readonly string[] {
    return [...this.#granted];
  }

  /**
   * Open the servers the selection needs (none: nothing is started). Returns what does not fit:
   * a tool named that its server does not have, said with the tools it does have.
   */
  async open(signal: AbortSignal): Promise<string[]> {
    const servers = serversOf(this.#selection);
    const same = servers.length === this.#servers.length && servers.every((server) => this.#servers.includes(server));
    if (!same) {
      const runner = servers.length === 0 ? undefined : await this.#open(servers, signal);
      await this.#runner?.close();
      this.#runner = runner;
      this.#servers = servers;
    }
    return this.#missing();
  }

  /** Change the selection (the session's /tools add and remove), opening what it needs; on failure nothing changes. */
  async select(selection: readonly ToolName[], signal: AbortSignal): Promise<string[]> {
    const before = this.#selection;
    this.#selection = [...selection];
    try {
      return await this.open(signal);
    } catch (error) {
      this.#selection = before;
      throw error;
    }
  }

  #missing(): string[] {
    const known = this.#all();
    return this.#selection.flatMap((name) => {
      if (name.tool === undefined || known.some((tool) => tool.server === name.server && tool.tool === name.tool)) return [];
      const own = known.filter((tool) => tool.server === name.server).map((tool) => tool.tool);
      return [`${name.server} has no tool "${name.tool}"${own.length > 0 ? ` (its tools: ${own.join(', ')})` : ''}`];
    });
  }

  /** Every tool of the open servers, with its function name and definition. */
  #all(): Array<ToolIdentity & { definition: ChatTool }> {
    const runner = this.#runner;
    if (!runner) return [];
    return runner.definitions.flatMap((definition) => {
      const identity = runner.describe(definition.function.name);
      return identity ? [{ ...identity, definition }] : [];
    });
  }

  /** The tools of an open server, offered or not (for /tools remove of one tool of a server offered whole). */
  toolsOf(server: string): string[] {
    return this.#all()
      .filter((tool) => tool.server === server)
      .map((tool) => tool.tool);
  }

  /** What the model is offered: OpenAI's `tools` array (empty when none). */
  get definitions(): ChatTool[] {
    return this.#all()
      .filter((tool) => namesTool(this.#selection, tool))
      .map((tool) => tool.definition);
  }

  /** The tool a function name offered is; undefined for one not on offer. */
  describe(functionName: string): ToolIdentity | undefined {
    const identity = this.#runner?.describe(functionName);
    return identity && namesTool(this.#selection, identity) ? identity : undefined;
  }

  call(functionName: string, argumentsText: string, signal: AbortSignal): Promise<ToolResult> {
    if (!this.#runner) return Promise.reject(new Error('no tools are open'));
    return this.#runner.call(functionName, argumentsText, signal);
  }

  /** May it run without asking: an allow rule names it, or a person said "yes, always". */
  allowed(identity: ToolIdentity): boolean {
    return namesTool(this.#allow, identity) || this.#granted.has(`${identity.server}.${identity.tool}`);
  }

  /** "Yes, always": the tool runs without asking for the rest of the session (or the command). */
  grant(identity: ToolIdentity): void {
    this.#granted.add(`${identity.server}.${identity.tool}`);
  }

  async close(): Promise<void> {
    const runner = this.#runner;
    this.#runner = undefined;
    this.#servers = [];
    await runner?.close();
  }
}

/**
 * A service's 400 that names the tools (`tools`, `tool_choice`, a function): this server or model
 * cannot use them. Said as that, with the service's words; nothing is sent again without them.
 */
export function toolsRefusal(error: unknown): RejectedError | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const said = `${error.serviceMessage ?? ''} ${error.body ?? ''}`;
  if (!/\btools?\b|tool_choice|\bfunctions?\b/i.test(said)) return undefined;
  const details = { status: error.status, serviceMessage: error.serviceMessage, requestId: error.requestId, code: error.code, body: error.body };
  return new RejectedError(`this server or model cannot use tools: it refused the request that offered them${error.serviceMessage ? ` (${error.serviceMessage})` : ''}`, details, {
    hint: 'leave out --tools (in the session: /tools remove NAME), or use a model trained for tool calls; llama-server needs --jinja (docs/real-servers.md)',
  });
}
