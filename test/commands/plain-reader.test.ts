/** The plain-mode session reader (plainWanted in terminal/io.ts): the prompt as text, and the end of input. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PlainLineReader } from '../../src/commands/chat/interactive/plain-reader.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { CapturedStream } from '../helpers/in-process.js';

function reader() {
  const input = new PassThrough();
  const output = new CapturedStream({ isTTY: true });
  return { input, output, lines: new PlainLineReader(input, output, new InterruptRouter(() => {})) };
}

describe('PlainLineReader', () => {
  it('writes the prompt without its styles and hands on the typed line', async () => {
    const { input, output, lines } = reader();
    const read = lines.read('\u001b[1m›\u001b[22m ');
    input.write('hello\n');
    expect(await read).toEqual({ kind: 'line', text: 'hello' });
    expect(output.text()).toBe('› ');
  });

  it('ends the prompt line at Ctrl-D, so what the session says next starts on a line of its own', async () => {
    const { input, output, lines } = reader();
    const read = lines.read('› ');
    input.end();
    expect(await read).toEqual({ kind: 'eof' });
    expect(output.text()).toBe('› \n');
  });

  it('writes no newline when the session itself closes the reader', async () => {
    const { output, lines } = reader();
    lines.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.text()).toBe('');
  });
});
