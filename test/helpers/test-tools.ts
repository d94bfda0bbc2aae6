/**
 * Tools of the tests' own, in place of MCP servers: real functions behind the ToolRunner
 * interface svc's tool loop uses (src/chat/tool-runner.ts), recording every call, every server
 * opened and every close. Each tool's function name is its own name unless given.
 */
import type { ChatTool } from '../../src/api/chat-types.js';
import type { OpenTools, ToolResult, ToolRunner } from '../../src/chat/tool-runner.js';

export interface TestTool {
  server: string;
  tool: string;
  /** The name the model calls it by (default: `tool`). */
  functionName?: string;
  readOnly?: boolean;
  description?: string;
  parameters?: Record<string, unknown>;
  run(args: Record<string, unknown>, signal: AbortSignal): string | { content: string; isError: boolean } | Promise<string | { content: string; isError: boolean }>;
}

/** Every call a runner made, in order: function name and arguments as given. */
export interface ToolLog {
  calls: Array<{ name: string; arguments: string }>;
  /** The servers of each open, in order. */
  opened: string[][];
  closed: number;
}

/** The tools tests use: calc.add, calc.divide (an error result for 0), text.echo (read-only), text.shout. */
export const TEST_TOOLS: TestTool[] = [
  {
    server: 'calc',
    tool: 'add',
    description: 'Add two numbers',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    run: (args) => String(Number(args.a) + Number(args.b)),
  },
  {
    server: 'calc',
    tool: 'divide',
    description: 'Divide a by b',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    run: (args) => (Number(args.b) === 0 ? { content: 'division by zero', isError: true } : String(Number(args.a) / Number(args.b))),
  },
  {
    server: 'text',
    tool: 'echo',
    readOnly: true,
    description: 'Say the text back',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    run: (args) => String(args.text),
  },
  {
    server: 'text',
    tool: 'shout',
    description: 'Say the text back in capitals',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    run: (args) => String(args.text).toUpperCase(),
  },
];

function summaryOf(content: string): string {
  return `${Buffer.byteLength(content)} B · ${content.trim().split('\n')[0] ?? ''}`;
}

/** A runner over `tools` (only those of `servers`), logging into `log`. */
export function testToolRunner(tools: readonly TestTool[], servers: readonly string[], log: ToolLog): ToolRunner {
  const mine = tools.filter((tool) => servers.includes(tool.server));
  const byName = new Map(mine.map((tool) => [tool.functionName ?? tool.tool, tool]));
  const definitions: ChatTool[] = mine.map((tool) => ({
    type: 'function',
    function: { name: tool.functionName ?? tool.tool, description: tool.description ?? tool.tool, parameters: tool.parameters ?? { type: 'object', properties: {} } },
  }));
  return {
    definitions,
    describe(name) {
      const tool = byName.get(name);
      return tool && { server: tool.server, tool: tool.tool, readOnly: tool.readOnly === true };
    },
    async call(name, argumentsText, signal): Promise<ToolResult> {
      log.calls.push({ name, arguments: argumentsText });
      const tool = byName.get(name);
      if (!tool) return { content: `unknown tool ${name}`, isError: true, summary: `unknown tool ${name}` };
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(argumentsText) as Record<string, unknown>;
      } catch {
        return { content: 'invalid JSON', isError: true, summary: 'invalid JSON' };
      }
      const outcome = await tool.run(args, signal);
      const { content, isError } = typeof outcome === 'string' ? { content: outcome, isError: false } : outcome;
      return { content, isError, summary: summaryOf(content) };
    },
    async close() {
      log.closed += 1;
    },
  };
}

/** An OpenTools over `tools` and its log; a server none of the tools has is refused, as an unknown MCP server would be. */
export function testTools(tools: readonly TestTool[] = TEST_TOOLS): { open: OpenTools; log: ToolLog } {
  const log: ToolLog = { calls: [], opened: [], closed: 0 };
  const open: OpenTools = async (servers) => {
    const unknown = servers.filter((server) => !tools.some((tool) => tool.server === server));
    if (unknown.length > 0) throw new Error(`no MCP server named ${unknown.join(', ')}`);
    log.opened.push([...servers]);
    return testToolRunner(tools, servers, log);
  };
  return { open, log };
}

/** The chunks of a streamed reply that calls `calls`, each call's arguments in `pieces` pieces (llama-server's shape), ended with finish_reason tool_calls and [DONE]. */
export function toolCallStream(calls: Array<{ id?: string; name: string; arguments: string }>, options: { pieces?: number; text?: string } = {}): string[] {
  const event = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-tools', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const chunks = [event({ role: 'assistant', content: options.text ?? null })];
  calls.forEach((call, index) => {
    chunks.push(event({ tool_calls: [{ index, ...(call.id === undefined ? {} : { id: call.id }), type: 'function', function: { name: call.name, arguments: '' } }] }));
    const pieces = options.pieces ?? 4;
    const size = Math.max(1, Math.ceil(call.arguments.length / pieces));
    for (let at = 0; at < call.arguments.length; at += size) chunks.push(event({ tool_calls: [{ index, function: { arguments: call.arguments.slice(at, at + size) } }] }));
  });
  chunks.push(event({}, 'tool_calls'), 'data: [DONE]\n\n');
  return chunks;
}

/** The chunks of a streamed text reply. */
export function textStream(text: string): string[] {
  return [`data: ${JSON.stringify({ id: 'chatcmpl-text', object: 'chat.completion.chunk', created: 2, model: 'svc-pro', choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 } })}\n\n`, 'data: [DONE]\n\n'];
}

/** A chat request body as a scripted server got it, with the fields tool tests look at. */
export interface SentBody {
  messages: Array<{ role: string; content: string | null; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
  tools?: Array<{ type: string; function: { name: string; description?: string } }>;
  [field: string]: unknown;
}

/** The names of the tools a request offered (undefined: no `tools` field). */
export function offeredNames(body: SentBody): string[] | undefined {
  return body.tools?.map((tool) => tool.function.name);
}
