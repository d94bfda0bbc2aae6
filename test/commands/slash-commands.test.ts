import { describe, expect, it } from 'vitest';
import { helpText, parseInput, SLASH_COMMANDS, unknownCommandHint } from '../../src/commands/chat/interactive/slash-commands.js';

describe('parseInput', () => {
  it.each([
    ['hello', { kind: 'message', text: 'hello' }],
    ['/help', { kind: 'command', name: 'help', arg: '' }],
    ['/HELP', { kind: 'command', name: 'help', arg: '' }],
    ['/system You are terse.', { kind: 'command', name: 'system', arg: 'You are terse.' }],
    ['/model   svc-mini  ', { kind: 'command', name: 'model', arg: 'svc-mini' }],
    ['/save out.json', { kind: 'command', name: 'save', arg: 'out.json' }],
    ['/frobnicate now', { kind: 'unknown', name: 'frobnicate' }],
    ['/', { kind: 'unknown', name: '' }],
    ['//etc/hosts is a file', { kind: 'message', text: '/etc/hosts is a file' }],
    ['/help\nmore lines', { kind: 'message', text: '/help\nmore lines' }],
    ['a /help in the middle', { kind: 'message', text: 'a /help in the middle' }],
  ])('%j', (input, expected) => {
    expect(parseInput(input)).toEqual(expected);
  });
});

describe('help', () => {
  it('lists every command with one line each', () => {
    const text = helpText();
    for (const command of Object.values(SLASH_COMMANDS)) expect(text).toContain(`${command.usage} `);
    for (const name of ['help', 'exit', 'quit', 'clear', 'system', 'model', 'retry', 'undo', 'save', 'usage', 'edit']) {
      expect(Object.keys(SLASH_COMMANDS)).toContain(name);
    }
  });

  it('an unknown command gets a one-line hint, with a suggestion when one is close', () => {
    expect(unknownCommandHint('hepl')).toContain('did you mean /help?');
    expect(unknownCommandHint('zzz')).not.toContain('did you mean');
    expect(unknownCommandHint('zzz').includes('\n')).toBe(false);
  });
});
