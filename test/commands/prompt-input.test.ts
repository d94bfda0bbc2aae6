import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { composeUserMessage, readPipedPrompt, stdinHasInput } from '../../src/commands/chat/prompt-input.js';
import { InterruptedError } from '../../src/core/errors.js';
import { createIO, type IO, type IOStreams, type StdinKind } from '../../src/terminal/io.js';

describe('composeUserMessage (words and stdin)', () => {
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
    expect(composeUserMessage(words, [], stdin).text).toBe(expected);
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

describe('readPipedPrompt', () => {
  const NOTICE_MS = 30;
  // The notice is a timer: fake time makes "the pipe stayed silent that long" exact, with no
  // sleeping (stream events are not timers, so the pipe itself still works).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  /** Let the pipe's events through, then move the clock on by `ms`. */
  const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);
  function pipeIO() {
    const stdin = new PassThrough();
    let stderr = '';
    const io = createIO({ stdinKind: 'pipe', stdin, env: {}, stderr: { write: (text: string) => (stderr += text) } } as unknown as IOStreams);
    return { io, stdin, stderr: () => stderr };
  }

  it('reads the pipe to its end', async () => {
    const { io, stdin } = pipeIO();
    const reading = readPipedPrompt(io, [], new AbortController().signal, NOTICE_MS);
    stdin.write('one ');
    stdin.end('two');
    expect(await reading).toBe('one two');
  });

  it('says once what it waits for when words were given and the pipe stays silent', async () => {
    const { io, stdin, stderr } = pipeIO();
    const reading = readPipedPrompt(io, ['words'], new AbortController().signal, NOTICE_MS);
    await wait(NOTICE_MS - 1);
    expect(stderr()).toBe('');
    await wait(1);
    expect(stderr().match(/still waiting for stdin/g)).toHaveLength(1);
    await wait(NOTICE_MS * 4);
    stdin.end('late');
    expect(await reading).toBe('late');
    expect(stderr().match(/still waiting for stdin/g)).toHaveLength(1);
    expect(stderr()).toContain('--no-stdin');
  });

  it('says nothing when the pipe sent something, or when no words were given', async () => {
    const sent = pipeIO();
    const reading = readPipedPrompt(sent.io, ['words'], new AbortController().signal, NOTICE_MS);
    sent.stdin.write('early ');
    await wait(NOTICE_MS * 4);
    sent.stdin.end('and late');
    expect(await reading).toBe('early and late');
    expect(sent.stderr()).toBe('');

    const noWords = pipeIO();
    const alone = readPipedPrompt(noWords.io, [], new AbortController().signal, NOTICE_MS);
    await wait(NOTICE_MS * 4);
    noWords.stdin.end('slow producer');
    expect(await alone).toBe('slow producer');
    expect(noWords.stderr()).toBe('');
  });

  it('stops with InterruptedError when aborted, and leaves no listener behind', async () => {
    const { io } = pipeIO();
    const controller = new AbortController();
    const reading = readPipedPrompt(io, ['words'], controller.signal, NOTICE_MS);
    controller.abort();
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);

    const finished = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = finished.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => { added += 1; add(...args); }) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => { removed += 1; remove(...args); }) as typeof remove;
    const other = pipeIO();
    const done = readPipedPrompt(other.io, [], signal, NOTICE_MS);
    other.stdin.end('x');
    await done;
    expect(added).toBe(1);
    expect(removed).toBe(1);
  });
});
