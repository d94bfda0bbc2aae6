/**
 * Tools in the interactive session, driven in-process: a scripted line reader (its lines answer
 * the questions about tool calls too: the line-based way plain mode asks), the real session loop
 * and slash commands, a scripted service, tools of the test's own. A call is asked about before
 * it runs: yes once, yes always (for the rest of the session), no (the model is told), Ctrl-C
 * (the reply stops, the session goes on). /tools lists and changes what is offered; a turn keeps
 * its calls and results together, through /rewind, /fork and --continue.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseToolFlags } from '../../src/commands/chat/tool-flags.js';
import type { Turn } from '../../src/conversations/model.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { CTRL_C } from '../helpers/scripted-reader.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { sessionPlan } from '../helpers/session-plan.js';
import { testTools, textStream, toolCallStream, type SentBody, offeredNames, type ToolLog } from '../helpers/test-tools.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
let tools: ReturnType<typeof testTools>;
let log: ToolLog;

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'tools-key-0123456789', SVC_MAX_RETRIES: '0' });
  tools = testTools();
  log = tools.log;
});
afterAll(() => sandbox?.cleanup());

const bodies = (): SentBody[] => scripted.server.requests.map((request) => JSON.parse(request.body) as SentBody);
const callReply = (id: string, name: string, args: string) => reply.sse(toolCallStream([{ id, name, arguments: args }]));
const textReply = (text: string) => reply.sse(textStream(text));

async function session(lines: string[], flags: { tools?: string[]; allow?: string[] } = {}, name = 'talk') {
  const plan = { ...sessionPlan({ continueLatest: false, sessionName: name, save: true }), tools: parseToolFlags({ tools: flags.tools ?? ['calc', 'text'], allow: flags.allow }) };
  return runScriptedSession(sandbox, lines, { plan, openTools: tools.open });
}

/** The turn records of a saved conversation, as written. */
function turns(name = 'talk'): Turn[] {
  return readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', `${name}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Turn & { type: string })
    .filter((record) => record.type === 'turn');
}

describe('asking before a call runs', () => {
  it('shows the tool and its arguments as indented JSON; "y" runs it this once, and the next call is asked about again', async () => {
    scripted.server.script(callReply('c1', 'add', '{"a":1,"b":2}'), textReply('3.'), callReply('c2', 'add', '{"a":2,"b":2}'), textReply('4.'));
    const { stdout, stderr } = await session(['add 1 and 2', 'y', 'add 2 and 2', 'y']);
    expect(stderr).toContain('tool call: calc.add\n    {\n      "a": 1,\n      "b": 2\n    }\n');
    expect(stderr.match(/tool call: calc\.add\n/g)).toHaveLength(2);
    expect(log.calls.map((call) => call.arguments)).toEqual(['{"a":1,"b":2}', '{"a":2,"b":2}']);
    expect(stdout).toBe('3.\n4.\n');
  });

  it('"a" runs it, and every later call of that tool in the session runs without asking (not the other tools)', async () => {
    scripted.server.script(callReply('c1', 'add', '{"a":1,"b":2}'), textReply('3.'), callReply('c2', 'add', '{"a":2,"b":2}'), textReply('4.'), callReply('c3', 'shout', '{"text":"hi"}'), textReply('HI'));
    const { stderr } = await session(['add 1 and 2', 'a', 'add 2 and 2', 'shout hi', 'y', '/tools']);
    expect(stderr.match(/tool call: /g)).toHaveLength(2);
    expect(stderr).toContain('tool call: text.shout\n');
    expect(log.calls.map((call) => call.name)).toEqual(['add', 'add', 'shout']);
    expect(stderr).toContain('run without asking: calc.add (answered "always")');
  });

  it('"n" declines: nothing runs, the model is told the user declined, and the reply goes on', async () => {
    scripted.server.script(callReply('c1', 'shout', '{"text":"hi"}'), textReply('All right, I will not.'));
    const { stdout } = await session(['shout hi', 'n']);
    expect(log.calls).toEqual([]);
    expect(bodies()[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'the user declined to run this tool' });
    expect(stdout).toBe('All right, I will not.\n');
    expect(turns().at(-1)!.steps![0]!.calls[0]).toMatchObject({ declined: true, tool: 'text.shout' });
  });

  it('an answer it does not know asks again', async () => {
    scripted.server.script(callReply('c1', 'echo', '{"text":"hi"}'), textReply('hi'));
    const { stderr } = await session(['echo hi', 'maybe', 'y']);
    expect(stderr).toContain('(answer y, a or n)');
    expect(log.calls).toHaveLength(1);
  });

  it('Ctrl-C while asking stops the reply: the call is not run, the turn is kept interrupted, the session goes on', async () => {
    scripted.server.script(callReply('c1', 'add', '{"a":1,"b":2}'), textReply('next answer'));
    const { stdout, stderr } = await session(['add 1 and 2', CTRL_C, 'something else']);
    expect(log.calls).toEqual([]);
    expect(stderr).toContain('(reply interrupted; kept as far as it came: /retry asks again)');
    expect(stdout).toBe('next answer\n');
    const turn = turns()[0];
    expect(turn).toMatchObject({ user: 'add 1 and 2', interrupted: true, steps: [{ calls: [{ id: 'c1', isError: true, result: 'svc did not run this call: the user interrupted the reply' }] }] });
    // The next message goes with the interrupted turn's call and its result: a history the service takes.
    expect(bodies()[1]!.messages.slice(-3)).toEqual([
      expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'c1' })] }),
      { role: 'tool', tool_call_id: 'c1', content: 'svc did not run this call: the user interrupted the reply' },
      { role: 'user', content: 'something else' },
    ]);
  });

  it('--allow runs a tool without asking in the session too', async () => {
    scripted.server.script(callReply('c1', 'add', '{"a":1,"b":2}'), textReply('3.'));
    const { stderr } = await session(['add'], { allow: ['calc.*'] });
    expect(stderr).not.toContain('tool call:');
    expect(log.calls).toHaveLength(1);
  });
});

describe('/tools', () => {
  it('lists what is offered, each tool with its description, and says each call is asked about', async () => {
    const { stderr } = await session(['/tools'], { tools: ['calc.add', 'text'] });
    expect(stderr).toContain('tools offered (3):\n  calc.add    Add two numbers\n  text.echo   Say the text back (read-only)\n  text.shout  Say the text back in capitals\neach call is asked about before it runs\n');
  });

  it('add and remove change what the next message offers; a server no longer needed is stopped', async () => {
    scripted.server.script(textReply('a'), textReply('b'), textReply('c'));
    const { stderr } = await session(['one', '/tools add calc', 'two', '/tools remove text.echo', '/tools remove calc', 'three'], { tools: ['text'] });
    const offered = bodies().map((body) => offeredNames(body));
    // In the order the tools' runner lists them.
    expect(offered).toEqual([['echo', 'shout'], ['add', 'divide', 'echo', 'shout'], ['shout']]);
    expect(log.opened).toEqual([['text'], ['text', 'calc'], ['text']]);
    expect(stderr).toContain('(4 tools offered from the next message: /tools lists them)');
  });

  it('a tool its server does not have, or a server that will not start, changes nothing and says why', async () => {
    const { stderr } = await session(['/tools add calc.mul', '/tools add nosuch', '/tools add calc', '/tools add calc.add', '/tools'], { tools: ['calc.add'] });
    expect(stderr).toContain('calc has no tool "mul" (its tools: add, divide); nothing changed');
    expect(stderr).toContain('no MCP server named nosuch; nothing changed');
    expect(stderr).toContain('tools offered (2):');
    expect(stderr).toContain('(calc.add: offered already)');
  });

  it('with no tools offered, says how to offer some', async () => {
    const { stderr } = await session(['/tools'], { tools: [] });
    expect(stderr).toContain('(no tools offered; /tools add NAME offers the tools of an MCP server, NAME.TOOL one of them)');
  });
});

describe('/history', () => {
  it('shows each call of a turn with its arguments, and its result (declined, an error) on one line each', async () => {
    scripted.server.script(reply.sse(toolCallStream([{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }, { id: 'c2', name: 'shout', arguments: '{"text":"x"}' }])), textReply('3, and no shouting.'));
    const { stderr } = await session(['go', 'y', 'n', '/history']);
    expect(stderr).toContain('[you] go\n[tool] calc.add {"a":1,"b":2}\n[result] 3\n[tool] text.shout {"text":"x"}\n[result, declined] the user declined to run this tool\n[svc-pro] 3, and no shouting.\n');
  });
});

describe('a turn keeps its calls and results together', () => {
  async function twoTurnsWithTools(): Promise<void> {
    scripted.server.script(callReply('c1', 'add', '{"a":1,"b":2}'), textReply('3.'), callReply('c2', 'echo', '{"text":"x"}'), textReply('x.'));
    await session(['add 1 and 2', 'y', 'echo x', 'y']);
    scripted.server.assertAllUsed();
    scripted.server.reset();
  }

  it('/rewind drops a turn with its calls: the next message is sent without them', async () => {
    await twoTurnsWithTools();
    scripted.server.script(textReply('ok'));
    await session(['/rewind 1', 'next']);
    const messages = bodies()[0]!.messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(messages[1]?.tool_calls?.[0]?.id).toBe('c1');
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '3' });
  });

  it('/fork copies the calls and results, and the fork goes on with them', async () => {
    await twoTurnsWithTools();
    scripted.server.script(textReply('forked'));
    await session(['/fork copy', 'go on']);
    const forked = turns('copy').slice(0, 2);
    expect(forked.map((turn) => turn.steps![0]!.calls[0]!.id)).toEqual(['c1', 'c2']);
    expect(bodies()[0]!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('--continue sends the saved calls and results again, in order', async () => {
    await twoTurnsWithTools();
    scripted.server.script(textReply('continued'));
    const result = await runSvc(['chat', '--session', 'talk', 'and then?'], sandbox);
    expect(result.exitCode).toBe(0);
    const messages = bodies()[0]!.messages;
    expect(messages.slice(0, 4)).toEqual([
      { role: 'user', content: 'add 1 and 2' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '3' },
      { role: 'assistant', content: '3.' },
    ]);
    // No tools offered this time: the history is still sent whole, and no `tools` field.
    expect(bodies()[0]).not.toHaveProperty('tools');
  });
});
