/** `svc render` in-process: pass-through in a pipe, rendering on a terminal, usage on a TTY stdin. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { renderWhole } from '../helpers/render.js';
import { TerminalScreen } from '../helpers/terminal-screen.js';

const MARKDOWN = '# Title\n\nSome **bold** text and `code`.\n\n```js\nconst x = 1;\n```\n';

describe('svc render', () => {
  it('copies stdin to a pipe byte for byte: escapes, invalid UTF-8, no newline added', async () => {
    const input = Buffer.concat([Buffer.from('# raw **md**\n\u001b[31mred\r\n'), Buffer.from([0xff, 0xfe, 0xe2, 0x82]), Buffer.from('no newline')]);
    const result = await runSvc(['render'], undefined, { stdin: input, stdoutIsTTY: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdoutBytes.equals(input)).toBe(true);
    expect(result.stderr).toBe('');
  });

  it('renders on a terminal as the renderer does, whatever the pieces stdin arrives in', async () => {
    // Pieces cut inside a marker and inside a multi-byte character.
    const bytes = Buffer.from(`${MARKDOWN}é ✓\n`);
    const pieces = [bytes.subarray(0, 12), bytes.subarray(12, bytes.length - 3), bytes.subarray(bytes.length - 3)];
    const result = await runSvc(['render'], undefined, { stdin: Readable.from(pieces), stdoutIsTTY: true, columns: 50, env: { TERM: 'xterm-256color' } });
    expect(result.exitCode).toBe(0);
    const screen = new TerminalScreen(50);
    screen.write(result.stdout);
    expect(screen.styled()).toBe(renderWhole(`${MARKDOWN}é ✓\n`, { width: 50 }).styled());
    expect(screen.text()).toBe('Title\n\nSome bold text and code.\n\njs\nconst x = 1;\né ✓');
  });

  it('NO_COLOR on a terminal: no colour codes, bold stays', async () => {
    const result = await runSvc(['render'], undefined, { stdin: MARKDOWN, stdoutIsTTY: true, columns: 50, env: { NO_COLOR: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toMatch(/\u001b\[[0-9;]*3[0-7][;m]/);
    expect(result.stdout).toContain('\u001b[0;1mbold');
  });

  it('refuses to wait on a terminal for input: usage error, exit 2', async () => {
    const result = await runSvc(['render'], undefined, { stdinKind: 'tty', stdoutIsTTY: true });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/svc render reads Markdown from its standard input/);
  });

  it('Ctrl-C while rendering: the line is finished, the style reset, exit 130', async () => {
    const controller = new AbortController();
    let reads = 0;
    // The first piece is there from the start; when svc asks for more, the user presses Ctrl-C.
    const stdin = new Readable({
      read() {
        if (++reads === 1) this.push('**bold text still streaming');
        else controller.abort();
      },
    });
    const result = await runSvc(['render'], undefined, { stdin, stdoutIsTTY: true, columns: 40, signal: controller.signal });
    expect(result.exitCode).toBe(130);
    expect(result.stdout.endsWith('\n')).toBe(true);
    const screen = new TerminalScreen(40);
    screen.write(result.stdout);
    expect(screen.text()).toBe('**bold text still streaming');
  });
});
