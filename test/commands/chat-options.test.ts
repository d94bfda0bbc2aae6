/**
 * `svc chat` argv → ChatPlan, through the real flag declaration: every value checked and
 * converted once, the first problem named (exit 2, nothing sent); and the request body built
 * from a plan. The request fields' rules also serve JSON values, named where they came from.
 */
import { describe, expect, it } from 'vitest';
import { declareChatCommand, parseChatOptions } from '../../src/commands/chat/chat.js';
import { buildChatRequest, type ChatPlan } from '../../src/commands/chat/options.js';
import { parseRequestFields, type FieldNaming } from '../../src/chat/request-fields.js';
import { formatUsage } from '../../src/settings/prices.js';
import { UsageError } from '../../src/core/errors.js';

function planOf(argv: string[]): ChatPlan {
  const command = declareChatCommand().exitOverride();
  command.parse(argv, { from: 'user' });
  return parseChatOptions(command.processedArgs[0], command.opts());
}

describe('parseChatOptions', () => {
  it('gives the defaults when no flag is given', () => {
    expect(planOf(['hello', 'there'])).toEqual({
      words: ['hello', 'there'],
      fields: {},
      system: undefined,
      stream: true,
      json: false,
      usage: false,
      showReasoning: false,
      stdin: true,
      interactive: false,
      conversation: { continueLatest: false, sessionName: undefined, save: true },
      settings: { baseUrl: undefined, timeout: undefined, maxRetries: undefined, model: undefined },
      files: [],
      role: undefined,
      dryRun: false,
      params: {},
      tools: { names: undefined, allow: [], maxSteps: 10 },
    });
  });

  it('reads the tool flags: --tools (repeatable, a list in one too), --allow, --max-steps; --no-tools offers none', () => {
    expect(planOf(['--tools', 'calc', '--tools', 'text.echo, web', '--allow', 'calc.*', '--allow', 'text.echo', '--max-steps', '3', 'q']).tools).toEqual({
      names: [{ server: 'calc' }, { server: 'text', tool: 'echo' }, { server: 'web' }],
      allow: [{ server: 'calc' }, { server: 'text', tool: 'echo' }],
      maxSteps: 3,
    });
    expect(planOf(['--no-tools', 'q']).tools?.names).toBe('none');
    expect(() => planOf(['--tools', '.x', 'q'])).toThrow('--tools: ".x" is not a tool name');
    expect(() => planOf(['--max-steps', '101', 'q'])).toThrow('--max-steps');
  });

  it('converts the request fields once, with their JSON types', () => {
    const plan = planOf(['-t', '0.5', '--max-tokens', '64', '--top-p', '0.9', '--stop', 'a', '--stop', 'b', '--presence-penalty', '-1', '--frequency-penalty', '2', '--user', 'ann', 'q']);
    expect(plan.fields).toEqual({ temperature: 0.5, max_tokens: 64, top_p: 0.9, stop: ['a', 'b'], presence_penalty: -1, frequency_penalty: 2, user: 'ann' });
  });

  it('takes the switches, the conversation choice, the system message and the setting flags', () => {
    const plan = planOf(['--no-stream', '--json', '--usage', '--no-stdin', '--no-save', '--session', 'work', '-s', '', '-m', 'svc-mini', '--base-url', 'http://h:1', '--timeout', '5', '--max-retries', '0']);
    expect(plan).toMatchObject({ stream: false, json: true, usage: true, stdin: false, interactive: false, system: '' });
    expect(plan.conversation).toEqual({ continueLatest: false, sessionName: 'work', save: false });
    expect(plan.settings).toEqual({ baseUrl: 'http://h:1', timeout: '5', maxRetries: '0', model: 'svc-mini' });
    expect(planOf(['-c', '-i']).conversation.continueLatest).toBe(true);
    expect(planOf(['-c', '-i']).interactive).toBe(true);
  });

  it.each([
    [['-t', '9', '-c', '--session', 'x'], '--temperature must be a number from 0 to 2; got "9"'],
    [['-c', '--session', 'x'], '--continue and --session cannot be used together'],
    [['--session', '../x', '-i', '--json'], '"../x" is not a usable conversation name'],
    [['-i', '--json'], '--json is for one-shot answers, not the interactive session'],
    [['--stop', 'a', '--stop', 'b', '--stop', 'c', '--stop', 'd', '--stop', 'e'], '--stop was given 5 times; the service accepts at most 4 stop sequences'],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => planOf(argv)).toThrow(UsageError);
    expect(() => planOf(argv)).toThrow(message);
  });
});

describe('parseRequestFields on JSON values (a batch line)', () => {
  const body: FieldNaming = { name: (field) => `body.${field}`, listOf: (count) => `has ${count} entries` };

  it('takes JSON numbers and a single stop string', () => {
    expect(parseRequestFields({ max_tokens: 64, temperature: 0.7, top_p: 1, stop: 'END', presence_penalty: -2, frequency_penalty: 0 }, body)).toEqual({
      max_tokens: 64,
      temperature: 0.7,
      top_p: 1,
      stop: 'END',
      presence_penalty: -2,
      frequency_penalty: 0,
    });
  });

  it.each([
    [{ temperature: 3 }, 'body.temperature must be a number from 0 to 2; got "3"'],
    [{ max_tokens: 1.5 }, 'body.max_tokens must be a whole number 1 or more; got "1.5"'],
    [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'body.stop has 5 entries; the service accepts at most 4 stop sequences'],
    [{ stop: '' }, 'body.stop must not be empty'],
    [{ user: '' }, 'body.user must not be empty'],
  ])('%j: %s', (raw, message) => {
    expect(() => parseRequestFields(raw, body)).toThrow(message);
  });
});

describe('buildChatRequest', () => {
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('streams with usage asked for, and carries the fields', () => {
    expect(buildChatRequest('svc-pro', messages, { fields: { temperature: 0 }, stream: true })).toEqual({
      model: 'svc-pro',
      messages,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('leaves stream out for a whole answer', () => {
    expect(buildChatRequest('svc-pro', messages, { fields: {}, stream: false })).toEqual({ model: 'svc-pro', messages });
  });
});

describe('formatUsage', () => {
  it('says the counts, or that there were none', () => {
    expect(formatUsage({ prompt_tokens: 12, completion_tokens: 30, total_tokens: 42 })).toBe('tokens: 12 prompt + 30 completion = 42 total');
    expect(formatUsage(undefined)).toBe('tokens: the service did not report usage');
    // Totals with nothing counted (no reply had counts: a stream cut before its usage chunk).
    expect(formatUsage({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })).toBe('tokens: the service did not report usage');
  });
});
