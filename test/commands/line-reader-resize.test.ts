/**
 * The session's line reader and terminal resizes: readline redraws its prompt on every resize,
 * which during a streaming reply (SIGWINCH mid-reply) drew "› " over the reply and erased the
 * rest of the screen. The redraw now happens only while a prompt is shown.
 */
import { PassThrough } from 'node:stream';
import type { ReadStream } from 'node:tty';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../src/commands/chat/interactive/line-reader.js';
import { InputHistory } from '../../src/conversations/input-history.js';
import { CapturedStream } from '../helpers/in-process.js';

/** A keyboard: a stream that accepts raw mode. */
function keyboard(): ReadStream {
  return Object.assign(new PassThrough(), { isRaw: false, setRawMode: () => {} }) as unknown as ReadStream;
}

describe('a terminal resize', () => {
  it('draws nothing between prompts (a reply may be streaming), and redraws the prompt while one is shown', async () => {
    const keys = keyboard();
    const terminal = new CapturedStream({ isTTY: true, columns: 80 });
    const reader = new LineReader({ stream: keys, fd: 0 }, terminal, InputHistory.memory());
    try {
      const quiet = terminal.text();
      terminal.emit('resize');
      expect(terminal.text()).toBe(quiet);

      const line = reader.read('› ');
      const prompted = terminal.text();
      terminal.emit('resize');
      expect(terminal.text().slice(prompted.length)).toContain('› ');

      keys.write('hello\r');
      expect(await line).toEqual({ kind: 'line', text: 'hello' });
      const after = terminal.text();
      terminal.emit('resize');
      expect(terminal.text()).toBe(after);
    } finally {
      reader.close();
    }
  });
});
