import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { composePrompt, stdinHasInput } from '../../src/commands/chat/prompt-input.js';
import type { IO, StdinKind } from '../../src/io.js';

describe('composePrompt', () => {
  it.each([
    [['write', 'a', 'haiku'], undefined, 'write a haiku'],
    [['summarise'], 'line one\nline two\n', 'summarise\n\nline one\nline two'],
    [[], 'only stdin\n\n', 'only stdin'],
    [['words'], '   \n', 'words'],
    [[], '', ''],
    [[' '], '\n', ''],
    [[], '\uFEFFwith bom', 'with bom'],
    [['keep'], '  indented\n', 'keep\n\n  indented'],
  ])('%j + %j → %j', (words, stdin, expected) => {
    expect(composePrompt(words, stdin)).toBe(expected);
  });
});

describe('stdinHasInput', () => {
  const io = (stdinKind: StdinKind) => ({ stdinKind, stdin: new PassThrough() }) as unknown as IO;
  it.each([
    ['pipe', true, true],
    ['file', true, true],
    ['tty', true, false],
    ['other', true, false],
    ['pipe', false, false],
  ] as const)('%s with reading %s → %s', (kind, read, expected) => {
    expect(stdinHasInput(io(kind), read)).toBe(expected);
  });
});
