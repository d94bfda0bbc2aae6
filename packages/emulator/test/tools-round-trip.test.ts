/**
 * The model's side of a tool round trip, for svc's tests and demos: a call of each tool the last
 * message names (two in one reply when it names two), its arguments from the message where it
 * gives them, streamed as OpenAI streams calls; after the results, an answer in words quoting
 * each result's first line; `tool_choice` as OpenAI honours it; a result for no call refused; the
 * calls and results counted in `usage`. Over HTTP, and through the official SDK.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/server.js';
import { countTokens } from '../src/core/tokenizer.js';
import { chat, errorShape, sseData } from './helpers/http.js';
import { useSdkEmulator } from './helpers/sdk-emulator.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

const fn = (name: string, properties: Record<string, unknown>, required?: string[]) => ({
  type: 'function',
  function: { name, description: `The ${name} tool`, parameters: { type: 'object', properties, ...(required ? { required } : {}) } },
});

/** The tools of an MCP filesystem server, as a client offers them: several share "file". */
const FILES = [
  fn('read_file', { path: { type: 'string' }, head: { type: 'number' } }, ['path']),
  fn('read_text_file', { path: { type: 'string' } }, ['path']),
  fn('read_multiple_files', { paths: { type: 'array', items: { type: 'string' } } }, ['paths']),
  fn('write_file', { path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
  fn('edit_file', { path: { type: 'string' }, dryRun: { type: 'boolean' } }, ['path']),
  fn('list_directory', { path: { type: 'string' } }, ['path']),
  fn('directory_tree', { path: { type: 'string' } }, ['path']),
  fn('move_file', { source: { type: 'string' }, destination: { type: 'string' } }, ['source', 'destination']),
  fn('get_file_info', { path: { type: 'string' } }, ['path']),
];

const OTHERS = [
  fn('echo', { message: { type: 'string' } }, ['message']),
  fn('add', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
  fn('get_weather', { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['city', 'unit']),
  fn('fetch_page', { url: { type: 'string' }, max_length: { type: 'integer', minimum: 100, maximum: 5000 }, raw: { type: 'boolean' } }),
];

const user = (content: string) => ({ role: 'user', content });

/** The calls of the reply to `content` with `tools`: each function's name and parsed arguments. */
async function callsFor(content: string, tools: object[] = FILES, extra: object = {}): Promise<Array<[string, unknown]>> {
  const answer = await chat(emu, { messages: [user(content)], tools, ...extra });
  expect(answer.status, answer.text).toBe(200);
  const calls = (answer.json.choices[0].message.tool_calls ?? []) as Array<{ function: { name: string; arguments: string } }>;
  return calls.map((call) => [call.function.name, JSON.parse(call.function.arguments)]);
}

describe('the last message names a tool: a tool_calls reply', () => {
  it('by its function name; naming two makes two calls in one reply, in the order named', async () => {
    expect(await callsFor('Please use list_directory on /tmp and then read_file ./README.md')).toEqual([
      ['list_directory', { path: '/tmp' }],
      ['read_file', { path: './README.md' }],
    ]);
  });

  it('by what it is about, or by its verb beside a path: the tool whose name fits best, not every one that shares a word', async () => {
    expect(await callsFor('Read the file /tmp/notes.txt')).toEqual([['read_file', { path: '/tmp/notes.txt' }]]);
    expect(await callsFor('read /tmp/notes.txt')).toEqual([['read_file', { path: '/tmp/notes.txt' }]]);
    expect(await callsFor('list /var/log')).toEqual([['list_directory', { path: '/var/log' }]]);
    expect(await callsFor('What is the weather in Paris?', OTHERS)).toEqual([['get_weather', { city: 'Paris', unit: 'celsius' }]]);
  });

  it("by the tool's own name when the client puts its server's name first (fs__read_text_file), as MCP clients do", async () => {
    const prefixed = FILES.map((tool) => ({ ...tool, function: { ...tool.function, name: `fs__${tool.function.name}` } }));
    expect(await callsFor('read_text_file /tmp/notes.txt', prefixed)).toEqual([['fs__read_text_file', { path: '/tmp/notes.txt' }]]);
    expect(await callsFor('use list directory on /var/log', prefixed)).toEqual([['fs__list_directory', { path: '/var/log' }]]);
  });

  it('a message that names none is answered in words', async () => {
    for (const content of ['Summarise notes.txt for me', 'What is my address?', 'Tell me a timeless story']) {
      const answer = await chat(emu, { messages: [user(content)], tools: [...FILES, ...OTHERS] });
      expect(answer.json.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: expect.any(String) } });
      expect(answer.json.choices[0].message).not.toHaveProperty('tool_calls');
    }
  });
});

describe("the call's arguments: the message's values where it gives them, plausible ones where not", () => {
  it('paths in order, quoted ones with their spaces', async () => {
    expect(await callsFor('move /tmp/a.txt to /tmp/b.txt')).toEqual([['move_file', { source: '/tmp/a.txt', destination: '/tmp/b.txt' }]]);
    expect(await callsFor('Read the file "/tmp/my notes.txt"')).toEqual([['read_file', { path: '/tmp/my notes.txt' }]]);
    expect(await callsFor('Use read_multiple_files for notes.txt and src/index.ts')).toEqual([['read_multiple_files', { paths: ['notes.txt', 'src/index.ts'] }]]);
  });

  it('quoted text, else the words after the tool; numbers in order; the enum value named', async () => {
    expect(await callsFor('write "hello there" to out.txt')).toEqual([['write_file', { path: 'out.txt', content: 'hello there' }]]);
    expect(await callsFor('Use the echo tool to say hi there', OTHERS)).toEqual([['echo', { message: 'hi there' }]]);
    expect(await callsFor('add 2 and 3.5', OTHERS)).toEqual([['add', { a: 2, b: 3.5 }]]);
    expect(await callsFor('The weather in Oslo, in fahrenheit please', OTHERS)).toEqual([['get_weather', { city: 'Oslo', unit: 'fahrenheit' }]]);
  });

  it('a URL, and a number within its bounds; without a required list every property, a flag left off', async () => {
    expect(await callsFor('fetch_page https://example.org/a?b=1 with 300 characters at most', OTHERS)).toEqual([['fetch_page', { url: 'https://example.org/a?b=1', max_length: 300, raw: false }]]);
    const [[, made]] = (await callsFor('fetch_page please', OTHERS)) as [[string, { url: string; max_length: number; raw: boolean }]];
    expect(made.url).toBe('https://example.com');
    expect(Number.isInteger(made.max_length) && made.max_length >= 100 && made.max_length <= 5000).toBe(true);
    expect(made.raw).toBe(false);
  });

  it('only the required properties when the schema lists them, and "." for a path the message does not give', async () => {
    expect(await callsFor('read_file please')).toEqual([['read_file', { path: '.' }]]);
  });
});

describe('streamed, as OpenAI streams tool calls', () => {
  it('each call: its index, id and name first, then its arguments in several pieces; finish_reason tool_calls', async () => {
    const body = { messages: [user('Use list_directory on /tmp and read_file /tmp/notes.txt')], tools: FILES, seed: 3 };
    const whole = (await chat(emu, body)).json;
    const streamed = await chat(emu, { ...body, stream: true });
    const events = sseData(streamed.text);
    expect(events.at(-1)).toBe('[DONE]');
    const deltas = (events.slice(0, -1) as Array<{ choices: Array<{ index: number; delta: Record<string, unknown>; finish_reason: string | null }> }>).map((chunk) => chunk.choices[0]!);
    const calls = whole.choices[0].message.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>;
    expect(deltas[0]).toEqual({
      index: 0,
      delta: { role: 'assistant', content: null, refusal: null, tool_calls: [{ index: 0, id: calls[0]!.id, type: 'function', function: { name: 'list_directory', arguments: '' } }] },
      logprobs: null,
      finish_reason: null,
    });
    const opener = deltas.findIndex((choice, at) => at > 0 && (choice.delta.tool_calls as Array<{ id?: string }> | undefined)?.[0]?.id !== undefined);
    expect(deltas[opener]!.delta).toEqual({ tool_calls: [{ index: 1, id: calls[1]!.id, type: 'function', function: { name: 'read_file', arguments: '' } }] });
    const pieces = (from: number, to: number, index: number) =>
      deltas.slice(from, to).map((choice) => {
        expect(choice.delta).toEqual({ tool_calls: [{ index, function: { arguments: expect.any(String) } }] });
        return (choice.delta.tool_calls as Array<{ function: { arguments: string } }>)[0]!.function.arguments;
      });
    const first = pieces(1, opener, 0);
    const second = pieces(opener + 1, deltas.length - 1, 1);
    expect(first.length).toBeGreaterThan(2);
    expect(second.length).toBeGreaterThan(2);
    expect([first.join(''), second.join('')]).toEqual([calls[0]!.function.arguments, calls[1]!.function.arguments]);
    expect(deltas.at(-1)).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' });
  });
});

describe('after the results: words that quote each result', () => {
  const calls = [
    { id: 'call_t', type: 'function', function: { name: 'list_directory', arguments: '{"path":"/tmp"}' } },
    { id: 'call_r', type: 'function', function: { name: 'read_file', arguments: '{"path":"/tmp/notes.txt"}' } },
  ];
  const loop = (results: Array<[string, unknown]>) => [
    user('Use list_directory on /tmp and read_file /tmp/notes.txt'),
    { role: 'assistant', content: null, tool_calls: calls },
    ...results.map(([id, content]) => ({ role: 'tool', tool_call_id: id, content })),
  ];

  it("each result's first line with text, under the tool's name; finish_reason stop", async () => {
    const answer = await chat(emu, { messages: loop([['call_t', '\n  [FILE] notes.txt\n[DIR] old'], ['call_r', [{ type: 'text', text: '# Shopping\n- milk' }]]]), tools: FILES });
    expect(answer.json.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: 'The list_directory tool returned: "[FILE] notes.txt". The read_file tool returned: "# Shopping". Those answer your question about tmp and notes.', refusal: null },
      logprobs: null,
      finish_reason: 'stop',
    });
  });

  it('an empty result is said to be empty; a long line is cut; streamed, the same words', async () => {
    const long = 'x'.repeat(400);
    const body = { messages: loop([['call_t', ''], ['call_r', long]]), tools: FILES };
    const content = (await chat(emu, body)).json.choices[0].message.content as string;
    expect(content).toBe(`The list_directory tool returned nothing. The read_file tool returned: "${'x'.repeat(159)}…". Those answer your question about tmp and notes.`);
    const streamed = sseData((await chat(emu, { ...body, stream: true })).text).slice(0, -1) as Array<{ choices: Array<{ delta: { content?: string }; finish_reason: string | null }> }>;
    expect(streamed.map((chunk) => chunk.choices[0]!.delta.content ?? '').join('')).toBe(content);
    expect(streamed.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it("a tool message whose tool_call_id matches no call is OpenAI's 400", async () => {
    const answer = await chat(emu, { messages: loop([['call_t', 'ok'], ['call_x', 'ok']]), tools: FILES });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(errorShape({ param: 'messages[3].tool_call_id', message: "Invalid parameter: 'tool_call_id' of 'call_x' not found in 'tool_calls' of previous message." }));
  });
});

describe('tool_choice, as OpenAI honours it', () => {
  it('none: words, even when the message names a tool', async () => {
    const answer = await chat(emu, { messages: [user('read_file /tmp/notes.txt')], tools: FILES, tool_choice: 'none' });
    expect(answer.json.choices[0].finish_reason).toBe('stop');
    expect(answer.json.choices[0].message.tool_calls).toBeUndefined();
  });

  it('required: a call even when none is named (the first tool), and again after results', async () => {
    expect(await callsFor('Hello there', OTHERS, { tool_choice: 'required' })).toEqual([['echo', { message: 'Hello there' }]]);
    const after = await chat(emu, {
      messages: [user('add 1 and 2'), { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '3' }],
      tools: OTHERS,
      tool_choice: 'required',
    });
    expect(after.json.choices[0].finish_reason).toBe('tool_calls');
  });

  it('a named function: that one, whatever the message names; parallel_tool_calls false: only the first named', async () => {
    expect(await callsFor('add 2 and 3', OTHERS, { tool_choice: { type: 'function', function: { name: 'echo' } } })).toEqual([['echo', { message: 'add 2 and 3' }]]);
    expect(await callsFor('add 2 and 3, then echo the sum', OTHERS)).toEqual([['add', { a: 2, b: 3 }], ['echo', { message: 'sum' }]]);
    expect(await callsFor('add 2 and 3, then echo the sum', OTHERS, { parallel_tool_calls: false })).toEqual([['add', { a: 2, b: 3 }]]);
  });
});

describe('usage counts the calls and what the tools cost, as for any reply', () => {
  it("completion tokens are the arguments' tokens; prompt tokens add the tools offered and the calls and results sent back", async () => {
    const tools = [FILES[0]!, FILES[5]!];
    const ask = user('Use list_directory on /tmp and read_file /tmp/notes.txt');
    const offered = tools.reduce((sum, tool) => sum + countTokens(JSON.stringify(tool.function)), 0);
    const answer = (await chat(emu, { messages: [ask], tools })).json;
    const calls = answer.choices[0].message.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>;
    expect(answer.usage.completion_tokens).toBe(calls.reduce((sum, call) => sum + countTokens(call.function.arguments), 0));
    expect(answer.usage.prompt_tokens).toBe(3 + 4 + countTokens(ask.content) + offered);
    const results = calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
    const after = (await chat(emu, { messages: [ask, answer.choices[0].message, ...results], tools })).json;
    const callTokens = calls.reduce((sum, call) => sum + countTokens(call.function.name) + countTokens(call.function.arguments), 0);
    expect(after.usage.prompt_tokens).toBe(3 + (4 + countTokens(ask.content)) + (4 + callTokens) + 2 * (4 + countTokens('ok')) + offered);
    expect(after.usage.completion_tokens).toBe(countTokens(after.choices[0].message.content as string));
  });
});

describe('the official SDK', () => {
  const sdk = useSdkEmulator();
  const tools = FILES as OpenAI.ChatCompletionFunctionTool[];

  it('parses the streamed calls: each call done with its arguments, and the final completion', async () => {
    const stream = sdk.client.chat.completions.stream({ model: 'svc-pro', messages: [{ role: 'user', content: 'Use list_directory on /tmp and read_file /tmp/notes.txt' }], tools });
    const done: Array<[string, unknown]> = [];
    stream.on('tool_calls.function.arguments.done', (event) => done.push([event.name, event.parsed_arguments ?? JSON.parse(event.arguments)]));
    const final = await stream.finalChatCompletion();
    expect(done).toEqual([['list_directory', { path: '/tmp' }], ['read_file', { path: '/tmp/notes.txt' }]]);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect((final.choices[0]!.message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[]).map((call) => call.function.name)).toEqual(['list_directory', 'read_file']);
  });

  it("runTools(): the calls run, their results go back, and the answer quotes them", async () => {
    const ran: string[] = [];
    const tool = (name: string, result: string) => ({
      type: 'function' as const,
      function: { name, description: name, parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, parse: JSON.parse, function: (args: { path: string }) => { ran.push(`${name} ${args.path}`); return result; } },
    });
    const runner = sdk.client.chat.completions.runTools({
      model: 'svc-pro',
      stream: true,
      messages: [{ role: 'user', content: 'Use list_directory on /srv and read_file /srv/todo.md' }],
      tools: [tool('list_directory', '[FILE] todo.md'), tool('read_file', '# To do\n- write tests')],
    });
    expect(await runner.finalContent()).toBe('The list_directory tool returned: "[FILE] todo.md". The read_file tool returned: "# To do". Those answer your question about srv and todo.');
    expect(ran).toEqual(['list_directory /srv', 'read_file /srv/todo.md']);
  });
});
