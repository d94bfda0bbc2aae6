import { describe, expect, it } from 'vitest';
import { MessageComposer } from '../../src/commands/chat/interactive/composer.js';
import { PASTED_NEWLINE } from '../../src/commands/chat/interactive/key-feed.js';

function compose(lines: string[]): Array<string | null> {
  const composer = new MessageComposer();
  return lines.map((line) => {
    const result = composer.feed(line);
    return result.done ? result.text : null;
  });
}

describe('MessageComposer', () => {
  it.each([
    ['one line is one message', ['hello'], ['hello']],
    ['a trailing backslash goes on', ['first \\', 'second'], [null, 'first \nsecond']],
    ['an escaped backslash does not', ['path C:\\\\'], ['path C:\\\\']],
    ['a """ block', ['"""', 'a', '', 'b', '"""'], [null, null, null, null, 'a\n\nb']],
    ['a block that starts and ends on text lines', ['"""first', 'last"""'], [null, 'first\nlast']],
    ['a whole block on one line', ['"""only"""'], ['only']],
    ['pasted newlines become real ones', [`a${PASTED_NEWLINE}b${PASTED_NEWLINE}c`], ['a\nb\nc']],
    ['messages after a block are separate', ['"""', 'x', '"""', 'next'], [null, null, 'x', 'next']],
  ])('%s', (_name, lines, expected) => {
    expect(compose(lines)).toEqual(expected);
  });

  it('reset drops a half-typed message', () => {
    const composer = new MessageComposer();
    composer.feed('"""');
    expect(composer.pending).toBe(true);
    composer.reset();
    expect(composer.pending).toBe(false);
    expect(composer.feed('fresh')).toEqual({ done: true, text: 'fresh' });
  });
});
