/**
 * `svc chat --tools`: the tool loop against a scripted server, with tools of the test's own
 * (test/helpers/test-tools.ts) in place of MCP servers. The exact shapes servers send (a call's
 * arguments streamed in many pieces, two calls in one reply, a call to a tool not offered,
 * arguments that are not JSON) each end in a clear outcome the model is told, never a crash;
 * without a terminal nothing runs unless --allow lets it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { runSvc, testIO, type RunOptions } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testTools, textStream, toolCallStream, type SentBody, offeredNames, type ToolLog } from '../helpers/test-tools.js';

let server: ScriptedServer;
let sandbox: Sandbox;
let log: ToolLog;
let tools: ReturnType<typeof testTools>;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-tools', SVC_MAX_RETRIES: '0' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});
beforeEach(() => {
  server.assertAllUsed();
  server.reset();
  tools = testTools();
  log = tools.log;
});

async function chat(args: string[], options: RunOptions = {}) {
  return runSvc(['chat', ...args], sandbox, { openTools: tools.open, ...options });
}

/** The request bodies the server got, parsed. */
function bodies(): SentBody[] {
  return server.requests.map((request) => JSON.parse(request.body) as SentBody);
}

describe('a call streamed in many pieces (llama-server: the arguments a string in pieces)', () => {
  it('is run once, whole, and its result goes back as a tool message; the model then answers in words', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_1', name: 'add', arguments: '{"a": 2, "b": 40}' }], { pieces: 9 })), reply.sse(textStream('The sum is 42.')));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.add', 'add 2 and 40']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('The sum is 42.\n');
    expect(log.calls).toEqual([{ name: 'add', arguments: '{"a": 2, "b": 40}' }]);
    const [first, second] = bodies();
    expect(offeredNames(first!)).toEqual(['add', 'divide']);
    expect(second!.messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b": 40}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '42' },
    ]);
    expect(second!.tools).toEqual(first!.tools);
  });

  it('a server that sends the id and name again in every piece still calls the function once by its name', async () => {
    const piece = (args: string, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'add', arguments: args } }] }, finish_reason: finish }] })}\n\n`;
    server.script(reply.sse([piece('{"a":1,'), piece('"b":2}'), piece('', 'tool_calls'), 'data: [DONE]\n\n']), reply.sse(textStream('3.')));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.*', 'add 1 and 2']);
    expect(result.exitCode).toBe(0);
    expect(log.calls).toEqual([{ name: 'add', arguments: '{"a":1,"b":2}' }]);
    expect(bodies()[1]!.messages.at(-2)?.tool_calls?.[0]?.id).toBe('call_9');
  });
});

describe('two calls in one reply', () => {
  it('run in order, and their results go back in that order', async () => {
    server.script(
      reply.sse(toolCallStream([{ id: 'call_a', name: 'divide', arguments: '{"a":9,"b":3}' }, { id: 'call_b', name: 'add', arguments: '{"a":1,"b":1}' }], { text: 'Working on it.' })),
      reply.sse(textStream('3 and 2.')),
    );
    const result = await chat(['--tools', 'calc', '--allow', 'calc.*', 'divide 9 by 3 and add 1 and 1']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Working on it.\n3 and 2.\n');
    expect(log.calls.map((call) => call.name)).toEqual(['divide', 'add']);
    const messages = bodies()[1]!.messages;
    expect(messages.at(-3)).toMatchObject({ role: 'assistant', content: 'Working on it.', tool_calls: [{ id: 'call_a' }, { id: 'call_b' }] });
    expect(messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: '3' },
      { role: 'tool', tool_call_id: 'call_b', content: '2' },
    ]);
  });
});

describe('what the model gets wrong is sent back to it as an error, never a crash', () => {
  it('a call to a tool that was not offered: nothing runs, the model is told which tools there are', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_x', name: 'rm_rf', arguments: '{}' }])), reply.sse(textStream('Sorry.')));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.*', 'clean up']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Sorry.\n');
    expect(log.calls).toEqual([]);
    expect(bodies()[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_x', content: 'there is no tool named "rm_rf"; the tools offered are: add, divide' });
  });

  it('a tool of a server offered, but not the tool chosen (--tools calc.add), is not offered', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_d', name: 'divide', arguments: '{"a":1,"b":1}' }])), reply.sse(textStream('ok')));
    const result = await chat(['--tools', 'calc.add', '--allow', 'calc.*', 'divide']);
    expect(result.exitCode).toBe(0);
    expect(offeredNames(bodies()[0]!)).toEqual(['add']);
    expect(log.calls).toEqual([]);
    expect(bodies()[1]!.messages.at(-1)?.content).toBe('there is no tool named "divide"; the tools offered are: add');
  });

  it('arguments that are not JSON: nothing runs, the model is asked to call again with a JSON object', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_j', name: 'add', arguments: '{"a": 1, "b": ' }])), reply.sse(textStream('Let me retry.')));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.*', 'add']);
    expect(result.exitCode).toBe(0);
    expect(log.calls).toEqual([]);
    const answer = bodies()[1]!.messages.at(-1);
    expect(answer?.tool_call_id).toBe('call_j');
    expect(answer?.content).toMatch(/^the arguments are not valid JSON \(.+\); nothing was run: call add again with a JSON object of its parameters$/);
  });

  it("a tool's own error (isError) goes back as the result, and the reply goes on", async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_z', name: 'divide', arguments: '{"a":1,"b":0}' }])), reply.sse(textStream('Cannot divide by zero.')));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.divide', 'divide 1 by 0']);
    expect(result.exitCode).toBe(0);
    expect(bodies()[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_z', content: 'division by zero' });
  });
});

describe('a reader that leaves', () => {
  it('stops the loop: a reply that calls tools after stdout closed runs nothing more (a quiet exit 0)', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }], { text: 'Let me add that.' })));
    const { io, stdout } = testIO({ env: sandbox.env, cwd: sandbox.home });
    stdout.failWith = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
    const exitCode = await main(['chat', '--tools', 'calc', '--allow', 'calc.*', 'add'], io, { interrupts: new InterruptRouter(() => {}), openTools: tools.open });
    expect(exitCode).toBe(0);
    expect(log.calls).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('--max-steps', () => {
  it('stops a model that keeps calling tools: exit 1, saying so; the last calls are not run, and what was done is kept', async () => {
    const call = (id: string) => reply.sse(toolCallStream([{ id, name: 'add', arguments: '{"a":1,"b":1}' }]));
    server.script(call('call_1'), call('call_2'));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.*', '--max-steps', '2', '--session', 'loop', 'keep adding']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('svc: error: the model was still calling tools after 2 requests (--max-steps 2); svc stopped there, and its last calls were not run');
    expect(log.calls).toHaveLength(1);
    const record = JSON.parse(readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'loop.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    expect(record.steps).toHaveLength(2);
    expect(record.steps[0].calls[0]).toMatchObject({ id: 'call_1', result: '2', tool: 'calc.add' });
    expect(record.steps[1].calls[0]).toMatchObject({ id: 'call_2', isError: true, result: expect.stringContaining('--max-steps') });
    expect(record.interrupted).toBeUndefined();
  });

  it('is a number from 1 to 100 (exit 2, nothing sent)', async () => {
    const result = await chat(['--tools', 'calc', '--max-steps', '0', 'hi']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--max-steps');
    expect(server.requests).toHaveLength(0);
  });
});

describe('without a terminal, nothing runs unless allowed', () => {
  it('a call not allowed is declined: said on stderr, the model told, the reply goes on, exit 7', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_s', name: 'shout', arguments: '{"text":"hi"}' }])), reply.sse(textStream('I was not allowed to.')));
    const result = await chat(['--tools', 'text', 'shout hi']);
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe('I was not allowed to.\n');
    expect(log.calls).toEqual([]);
    expect(result.stderr).toContain('svc: declined text.shout: it is not allowed, and there is no terminal to ask on (the model was told); --allow text.shout lets it run');
    expect(result.stderr).toContain('svc: error: 1 tool call was declined: nobody was at a terminal to approve text.shout');
    expect(result.stderr).toContain('--allow text.shout');
    expect(bodies()[1]!.messages.at(-1)?.content).toMatch(/^svc declined to run this tool: it is not allowed/);
  });

  it('a tool its server marks read-only is not allowed for that', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_e', name: 'echo', arguments: '{"text":"hi"}' }])), reply.sse(textStream('no')));
    const result = await chat(['--tools', 'text', 'echo hi']);
    expect(result.exitCode).toBe(7);
    expect(log.calls).toEqual([]);
  });

  it('--allow NAME.* allows every tool of that server, and only of that server', async () => {
    server.script(
      reply.sse(toolCallStream([{ id: 'c1', name: 'echo', arguments: '{"text":"a"}' }, { id: 'c2', name: 'shout', arguments: '{"text":"b"}' }, { id: 'c3', name: 'add', arguments: '{"a":1,"b":2}' }])),
      reply.sse(textStream('done')),
    );
    const result = await chat(['--tools', 'text', '--tools', 'calc', '--allow', 'text.*', 'echo, shout and add']);
    expect(result.exitCode).toBe(7);
    expect(log.calls.map((call) => call.name)).toEqual(['echo', 'shout']);
    expect(bodies()[1]!.messages.slice(-3).map((message) => message.content)).toEqual(['a', 'B', expect.stringMatching(/^svc declined/)]);
  });

  it('--allow NAME alone is refused: a whole server is allowed only as NAME.* (exit 2, nothing sent)', async () => {
    const result = await chat(['--tools', 'text', '--allow', 'text', 'hi']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--allow text: name the tool (text.TOOL), or text.* for every tool of text');
    expect(server.requests).toHaveLength(0);
  });
});

describe('a server that refuses tools', () => {
  it('a 400 naming tools is a clear message that this server or model cannot use them: exit 4, asked once', async () => {
    server.script(reply.json(400, { error: { code: 400, message: 'tools param requires --jinja flag', type: 'invalid_request_error' } }));
    const result = await chat(['--tools', 'calc', 'add 1 and 2']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('svc: error: this server or model cannot use tools: it refused the request that offered them (tools param requires --jinja flag) (HTTP 400)');
    expect(result.stderr).toContain('leave out --tools');
    expect(server.requests).toHaveLength(1);
  });

  it('a 400 about something else is said as before', async () => {
    server.script(reply.json(400, { error: { message: 'temperature is too high', type: 'invalid_request_error' } }));
    const result = await chat(['--tools', 'calc', 'hi']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).not.toContain('cannot use tools');
  });
});

describe('what is offered', () => {
  it('--dry-run shows the request with its tools (nothing sent)', async () => {
    const result = await chat(['--tools', 'text.echo', '--dry-run', 'echo hi']);
    expect(result.exitCode).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(result.stdout).toContain('"tools"');
    expect(result.stdout).toContain('"name":"echo"');
    expect(result.stdout).not.toContain('"shout"');
    expect(log.closed).toBe(1);
  });

  it('a tool its server does not have is a usage error naming the tools it has (exit 2, nothing sent)', async () => {
    const result = await chat(['--tools', 'calc.mul', 'hi']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('svc: error: calc has no tool "mul" (its tools: add, divide)');
    expect(server.requests).toHaveLength(0);
  });

  it('no tools, no `tools` field: the request is as it always was', async () => {
    server.script(reply.sse(textStream('hi')));
    const result = await chat(['hi']);
    expect(result.exitCode).toBe(0);
    expect(bodies()[0]).not.toHaveProperty('tools');
    expect(log.opened).toEqual([]);
  });

  it("a role's tools line offers them; --tools beats it", async () => {
    const roles = join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles');
    mkdirSync(roles, { recursive: true });
    writeFileSync(join(roles, 'counter.md'), '---\ntools: calc.add, text.echo\n---\nYou count.\n');
    server.script(reply.sse(textStream('a')), reply.sse(textStream('b')));
    expect((await chat(['--role', 'counter', 'hi'])).exitCode).toBe(0);
    expect((await chat(['--role', 'counter', '--tools', 'calc', 'hi'])).exitCode).toBe(0);
    expect(bodies().map((body) => offeredNames(body))).toEqual([['add', 'echo'], ['add', 'divide']]);
    expect(bodies()[0]!.messages[0]).toEqual({ role: 'system', content: 'You count.' });
  });

  it('the profile setting names tools; --tools beats it, --no-tools offers none', async () => {
    server.script(reply.sse(textStream('a')), reply.sse(textStream('b')), reply.sse(textStream('c')));
    await chat(['hi'], { env: { SVC_TOOLS: 'text.echo' } });
    await chat(['--tools', 'calc.add', 'hi'], { env: { SVC_TOOLS: 'text.echo' } });
    await chat(['--no-tools', 'hi'], { env: { SVC_TOOLS: 'text.echo' } });
    expect(bodies().map((body) => offeredNames(body))).toEqual([['echo'], ['add'], undefined]);
  });
});

describe('--json', () => {
  it('prints the last completion with the tool steps before it as tool_steps', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }])), reply.sse(textStream('3')));
    const result = await chat(['--tools', 'calc', '--allow', 'calc.*', '--json', 'add']);
    expect(result.exitCode).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.choices[0].message.content).toBe('3');
    expect(printed.tool_steps).toEqual([{ text: '', calls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}', tool: 'calc.add', result: '3' }] }]);
  });
});

describe('saved, shown, exported', () => {
  /** A conversation NAME: add 2 and 40 (run), shout (declined), then the answer. */
  async function savedWithTools(name: string): Promise<void> {
    server.script(
      reply.sse(toolCallStream([{ id: 'call_1', name: 'add', arguments: '{"a":2,"b":40}' }, { id: 'call_2', name: 'shout', arguments: '{"text":"<b>hi</b>"}' }], { text: 'Let me see.' })),
      reply.sse(textStream('The sum is 42.')),
    );
    const result = await chat(['--tools', 'calc', '--tools', 'text', '--allow', 'calc.*', '--session', name, 'add 2 and 40, then shout']);
    expect(result.exitCode).toBe(7);
    server.assertAllUsed();
    server.reset();
  }

  it('--continue sends the calls and their results again, in order, with the reply after them', async () => {
    await savedWithTools('calls-continued');
    server.script(reply.sse(textStream('Yes.')));
    const result = await chat(['--session', 'calls-continued', 'sure?']);
    expect(result.exitCode).toBe(0);
    const messages = bodies()[0]!.messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: 'Let me see.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":40}' } },
        { id: 'call_2', type: 'function', function: { name: 'shout', arguments: '{"text":"<b>hi</b>"}' } },
      ],
    });
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '42' });
    expect(messages[3]?.tool_call_id).toBe('call_2');
    expect(messages[4]).toEqual({ role: 'assistant', content: 'The sum is 42.' });
  });

  it('sessions show has each call with its arguments and its result, and --json the messages with them', async () => {
    await savedWithTools('calls-shown');
    const shown = await runSvc(['sessions', 'show', 'calls-shown'], sandbox);
    expect(shown.stdout).toBe(
      [
        '[user]\nadd 2 and 40, then shout',
        '[assistant]\nLet me see.',
        '[tool call calc.add]\n{\n  "a": 2,\n  "b": 40\n}',
        '[tool result]\n42',
        '[tool call text.shout]\n{\n  "text": "<b>hi</b>"\n}',
        '[tool result, declined]\nsvc declined to run this tool: it is not allowed to run without a person approving it, and no one was at a terminal to ask',
        '[assistant]\nThe sum is 42.',
      ].join('\n\n') + '\n',
    );
    const json = JSON.parse((await runSvc(['sessions', 'show', 'calls-shown', '--json'], sandbox)).stdout) as SentBody['messages'];
    expect(json.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
  });

  it('the Markdown export has each call and result in a fenced block; the HTML export as escaped text', async () => {
    await savedWithTools('calls-exported');
    const markdown = (await runSvc(['sessions', 'export', 'calls-exported', '--format', 'md'], sandbox)).stdout;
    expect(markdown).toContain('## Assistant (calling tools)\n\nLet me see.\n\n### Tool call: calc.add\n\n```json\n{\n  "a": 2,\n  "b": 40\n}\n```\n\n### Result\n\n```text\n42\n```\n');
    expect(markdown).toContain('### Result (declined)\n');
    expect(markdown.indexOf('### Tool call: calc.add')).toBeLessThan(markdown.indexOf('## Assistant (svc-pro'));
    const html = (await runSvc(['sessions', 'export', 'calls-exported', '--format', 'html'], sandbox)).stdout;
    expect(html).toContain('<h2 class="who">Tool call <span class="meta">(text.shout)</span></h2><div class="body"><pre><code>{\n  &quot;text&quot;: &quot;&lt;b&gt;hi&lt;/b&gt;&quot;\n}</code></pre>');
    expect(html).toContain('<h2 class="who">Result <span class="meta">(declined)</span></h2>');
    expect(html).not.toContain('<b>hi</b>');
  });
});

describe('asked on the terminal (one-shot)', () => {
  /** A keyboard that hands over one key (or one paste) each time it is read. */
  function keyboard(presses: string[]): Readable {
    const queue = [...presses];
    return new Readable({
      read() {
        const press = queue.shift();
        if (press !== undefined) this.push(press);
      },
    });
  }

  const onTerminal = (presses: string[]): RunOptions => ({ stdin: keyboard(presses), stdinKind: 'tty', stderrIsTTY: true, env: { CI: 'true', NO_COLOR: '1' } });

  it('each call is shown, then asked about: y runs it, n declines it (the model told); a person deciding is exit 0', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }, { id: 'c2', name: 'shout', arguments: '{"text":"x"}' }])), reply.sse(textStream('ok')));
    const result = await chat(['--tools', 'calc', '--tools', 'text', 'go'], onTerminal(['y', 'n']));
    expect(result.exitCode).toBe(0);
    expect(log.calls.map((call) => call.name)).toEqual(['add']);
    expect(result.stderr).toContain('tool call: calc.add\n    {\n      "a": 1,\n      "b": 2\n    }\nrun it? y yes · a yes, and always for calc.add in this command · n no › yes\n');
    expect(result.stderr).toContain('tool call: text.shout\n    {\n      "text": "x"\n    }\nrun it? y yes · a yes, and always for text.shout in this command · n no › no\n');
    expect(bodies()[1]!.messages.slice(-2).map((message) => message.content)).toEqual(['3', 'the user declined to run this tool']);
  });

  it('a runs the call and every later call of that tool without asking; a paste answers nothing', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }, { id: 'c2', name: 'add', arguments: '{"a":3,"b":4}' }])), reply.sse(textStream('3 and 7')));
    const result = await chat(['--tools', 'calc', 'go'], onTerminal(['yes', 'a']));
    expect(result.exitCode).toBe(0);
    expect(log.calls.map((call) => call.arguments)).toEqual(['{"a":1,"b":2}', '{"a":3,"b":4}']);
    expect(result.stderr.match(/run it\?/g)).toHaveLength(1);
    expect(result.stderr).toContain('› yes, always for calc.add\n');
    expect(result.stderr).toContain('tool: calc.add { "a": 3, "b": 4 }\n');
  });

  it('Ctrl-C while asking runs nothing: exit 130, the turn kept, marked interrupted, with the call not run', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }])));
    const result = await chat(['--tools', 'calc', '--session', 'stopped', 'go'], onTerminal(['\u0003']));
    expect(result.exitCode).toBe(130);
    expect(log.calls).toEqual([]);
    expect(result.stderr).toContain('› ^C\n');
    const saved = readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'stopped.jsonl'), 'utf8').trim().split('\n').at(-1)!;
    expect(JSON.parse(saved)).toMatchObject({ user: 'go', interrupted: true, steps: [{ calls: [{ id: 'c1', result: 'svc did not run this call: the user interrupted the reply' }] }] });
  });

  it('a call let run by --allow gets one dim line, its result another; a tool\'s text reaches the terminal neutralised', async () => {
    server.script(reply.sse(toolCallStream([{ id: 'c1', name: 'echo', arguments: '{"text":"\\u001b]0;pwned\\u0007 hi"}' }])), reply.sse(textStream('ok')));
    const result = await chat(['--tools', 'text', '--allow', 'text.echo', 'go'], onTerminal([]));
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toContain('run it?');
    expect(result.stderr).toContain('tool: text.echo { "text": "\\u001b]0;pwned\\u0007 hi" }\n');
    expect(result.stderr).toContain('  ↳ text.echo: 13 B · ␛]0;pwned␇ hi\n');
    expect(result.stderr).not.toContain('\u001b]0;');
  });
});
