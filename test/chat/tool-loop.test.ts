/**
 * The pieces of the tool loop that take what a server or a file sends: calls made whole (ids,
 * arguments in any shape), streamed pieces merged, a saved turn's steps read back (a damaged one
 * costs the steps, not the turn), tool names and the /tools changes, a refusal of `tools` told
 * apart, and the keys that answer a question.
 */
import { describe, expect, it } from 'vitest';
import { CompletionAssembler } from '../../src/api/chat-assembler.js';
import type { ChatCompletion } from '../../src/api/chat-types.js';
import { argumentsProblem, toolCallsOf } from '../../src/chat/tool-loop.js';
import { toolsRefusal, withNames, withoutNames } from '../../src/chat/tool-runner.js';
import { parseAllowRules, parseToolNames } from '../../src/core/names.js';
import { toMessages } from '../../src/conversations/model.js';
import { recordOf } from '../../src/conversations/records.js';
import { RejectedError } from '../../src/core/errors.js';
import { answerOfKey, answerOfLine, argumentLines } from '../../src/terminal/tool-approval.js';

const completionWith = (toolCalls: unknown): ChatCompletion => ({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: '', tool_calls: toolCalls }, finish_reason: 'tool_calls' }],
});

describe('toolCallsOf', () => {
  it('gives each call an id unique in the reply, its arguments as text ({} for none)', () => {
    expect(
      toolCallsOf(
        completionWith([
          { function: { name: 'a', arguments: '' } },
          { id: 'x', function: { name: 'b', arguments: { k: 1 } } },
          { id: 'x', function: { name: 'c' } },
          { id: '', function: {} },
        ]),
      ),
    ).toEqual([
      { id: 'call_svc_1', name: 'a', arguments: '{}' },
      { id: 'x', name: 'b', arguments: '{"k":1}' },
      { id: 'x_3', name: 'c', arguments: '{}' },
      { id: 'call_svc_4', name: '', arguments: '{}' },
    ]);
    expect(toolCallsOf(completionWith(undefined))).toEqual([]);
  });

  it('argumentsProblem accepts a JSON object only', () => {
    expect(argumentsProblem('{"a":1}')).toBeUndefined();
    expect(argumentsProblem('[1]')).toBe('the arguments must be a JSON object');
    expect(argumentsProblem('{"a":')).toMatch(/^the arguments are not valid JSON \(/);
  });
});

describe('streamed tool calls', () => {
  const piece = (call: Record<string, unknown>) => ({ choices: [{ index: 0, delta: { tool_calls: [call] } }] });

  it('join the arguments of each call by index, and set (not join) an id or name sent again', () => {
    const assembler = new CompletionAssembler('m');
    assembler.add(piece({ index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '' } }));
    assembler.add(piece({ index: 1, id: 'call_2', type: 'function', function: { name: 'echo', arguments: '{"t":' } }));
    assembler.add(piece({ index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":' } }));
    assembler.add(piece({ index: 0, function: { arguments: '1}' } }));
    assembler.add(piece({ index: 1, function: { arguments: '"x"}' } }));
    expect(assembler.messageExtra.tool_calls).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } },
      { index: 1, id: 'call_2', type: 'function', function: { name: 'echo', arguments: '{"t":"x"}' } },
    ]);
  });
});

describe('a saved turn with tool steps', () => {
  const turn = {
    type: 'turn',
    user: 'u',
    assistant: 'done',
    at: '2026-01-01T00:00:00.000Z',
    steps: [{ text: '', calls: [{ id: 'c1', name: 'add', arguments: '{}', tool: 'calc.add', result: '3', isError: false }] }],
  };

  it('is read back with its steps, and its messages are the calls then the results', () => {
    const record = recordOf(turn);
    expect(record).toMatchObject({ type: 'turn', steps: [{ text: '', calls: [{ id: 'c1', result: '3', tool: 'calc.add' }] }] });
    expect(toMessages({ system: undefined, turns: [record as never] })).toEqual([
      { role: 'user', content: 'u' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '3' },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it.each([
    ['a call without its result', { ...turn, steps: [{ text: '', calls: [{ id: 'c1', name: 'add', arguments: '{}' }] }] }],
    ['steps that are not a list', { ...turn, steps: 'x' }],
    ['a step with no calls', { ...turn, steps: [{ text: 'hm', calls: [] }] }],
    ['a result that is not text', { ...turn, steps: [{ text: '', calls: [{ id: 'c1', name: 'add', arguments: '{}', result: 3 }] }] }],
  ])('%s (a hand edit) costs the steps, not the turn', (_name, value) => {
    const record = recordOf(value);
    expect(record).toMatchObject({ type: 'turn', user: 'u', assistant: 'done' });
    expect(record).not.toHaveProperty('steps');
  });
});

describe('tool names', () => {
  it('are a server, a server.tool, or server.* (a whole server); lists in one value are split', () => {
    expect(parseToolNames(['fs, web.search', 'fs', 'db.*'], '--tools')).toEqual([{ server: 'fs' }, { server: 'web', tool: 'search' }, { server: 'db' }]);
    expect(() => parseToolNames(['-x'], '--tools')).toThrow('--tools: "-x" is not a tool name');
    expect(parseAllowRules(['fs.*', 'web.search'], '--allow')).toEqual([{ server: 'fs' }, { server: 'web', tool: 'search' }]);
  });

  it('/tools add takes a whole server in place of its single tools; remove of one tool of a whole server keeps the others', () => {
    expect(withNames([{ server: 'fs', tool: 'read' }, { server: 'db' }], [{ server: 'fs' }])).toEqual([{ server: 'db' }, { server: 'fs' }]);
    expect(withNames([{ server: 'fs' }], [{ server: 'fs', tool: 'read' }])).toEqual([{ server: 'fs' }]);
    const toolsOf = () => ['read', 'write', 'list'];
    expect(withoutNames([{ server: 'fs' }], [{ server: 'fs', tool: 'write' }], toolsOf)).toEqual([
      { server: 'fs', tool: 'read' },
      { server: 'fs', tool: 'list' },
    ]);
    expect(withoutNames([{ server: 'fs', tool: 'read' }, { server: 'db' }], [{ server: 'fs' }], toolsOf)).toEqual([{ server: 'db' }]);
  });
});

describe('toolsRefusal', () => {
  const refused = (message: string, status = 400) => new RejectedError(message, { status, serviceMessage: message, requestId: undefined });

  it.each(['tools param requires --jinja flag', 'registry.ollama.ai/library/gemma:2b does not support tools', '"auto" tool choice requires --enable-auto-tool-choice', 'Unknown parameter: tool_choice', 'this model does not support function calling'])(
    'tells "%s" apart as this server or model not taking tools (exit 4)',
    (message) => {
      const error = toolsRefusal(refused(message));
      expect(error?.message).toBe(`this server or model cannot use tools: it refused the request that offered them (${message})`);
      expect(error?.exitCode).toBe(4);
    },
  );

  it('leaves other refusals, and other statuses, as they are', () => {
    expect(toolsRefusal(refused('temperature must be at most 2'))).toBeUndefined();
    expect(toolsRefusal(refused('tools are broken', 500))).toBeUndefined();
    expect(toolsRefusal(new Error('tools'))).toBeUndefined();
  });
});

describe('the question about a call', () => {
  it('is answered by one key on its own: y, a, n (Enter, Esc, Ctrl-D: no); Ctrl-C interrupts; anything else, or a paste, answers nothing', () => {
    expect(['y', 'Y', 'a', 'A', 'n', 'N', '\r', '\u001b', '\u0004', '\u0003'].map(answerOfKey)).toEqual(['once', 'once', 'always', 'always', 'no', 'no', 'no', 'no', 'no', 'interrupt']);
    expect(['x', 'yes', '\u001b[A', '\u001b[200~y\u001b[201~', ' '].map(answerOfKey)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(['y', ' YES ', 'always', '', 'no', 'maybe'].map(answerOfLine)).toEqual(['once', 'once', 'always', 'no', 'no', undefined]);
  });

  it('shows the arguments as indented JSON, neutralised, cut to a screenful', () => {
    // JSON.stringify writes C0 controls as \u escapes itself; C1 controls and bidi overrides it leaves.
    expect(argumentLines('{"path":"a\\u001b]0;x\\u0007b\\u202e\\u009b"}')).toEqual(['{', '  "path": "a\\u001b]0;x\\u0007b<U+202E><U+009B>"', '}']);
    expect(argumentLines('not json \u001b[2J')).toEqual(['not json ␛[2J']);
    const long = JSON.stringify(Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, index])));
    const lines = argumentLines(long, 10);
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe(`… (92 more lines, ${long.length} characters in all)`);
  });
});
