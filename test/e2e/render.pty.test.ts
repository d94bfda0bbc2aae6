/**
 * `svc render` in a real terminal (tmux, 100 columns): Markdown streamed into it a few
 * characters at a time leaves exactly the screen the renderer's model predicts (so nothing was
 * drawn twice and no word was split at the edge), with markers gone, styles present, code kept
 * and fences hidden. And in a pipe the bytes pass through unchanged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderWhole } from '../helpers/render.js';
import { makeSandbox, SVC_BIN, svc } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const DOC = [
  '# Streaming **Markdown** into a terminal',
  '',
  'A paragraph with **strong words**, *emphasis*, ~~struck text~~ and `inline code`, long enough to wrap at least once at a hundred columns without splitting any word.',
  '',
  '- a list item that is also long enough to wrap under its own indent when the terminal is a hundred columns wide',
  '- second item',
  '',
  '> a quoted line',
  '',
  '```python',
  'def greet(name):',
  '    return f"hello {name}"  # kept exactly',
  '```',
  '',
  '| Tool | Renders | Streams |',
  '|---|---|---|',
  '| svc | yes | yes |',
  '',
  'The end.',
  '',
].join('\n');

const sandbox = makeSandbox({ TERM: 'xterm-256color' });
delete sandbox.env.NO_COLOR;
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasTmux)('svc render in a terminal', () => {
  it('renders text streamed in small pieces: the screen is the model screen, styled, nothing twice', async () => {
    const doc = join(sandbox.home, 'doc.md');
    writeFileSync(doc, DOC);
    // Writes the document three characters at a time, so svc really renders it piece by piece.
    const producer = join(sandbox.home, 'producer.mjs');
    writeFileSync(
      producer,
      `import { readFileSync } from 'node:fs';\nconst text = readFileSync(${JSON.stringify(doc)}, 'utf8');\n` +
        `let i = 0;\nconst next = () => { if (i >= text.length) return; process.stdout.write(text.slice(i, i + 3), () => setTimeout(next, 1)); i += 3; };\nnext();\n`,
    );
    const term = await startTmux(`node ${producer} | node "${SVC_BIN}" render`, sandbox.env, sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]', 20_000);
      const shown = screen.slice(0, screen.indexOf('[exit 0]')).replace(/\n+$/, '');
      expect(shown.split('\n').map((line) => line.replace(/ +$/, '')).join('\n')).toBe(renderWhole(DOC, { width: 100 }).text());
      // Markers gone, fences hidden, code kept.
      expect(shown).not.toMatch(/\*\*|~~|```|`inline/);
      expect(shown).toContain('    return f"hello {name}"  # kept exactly');
      expect(shown.split('\n').filter((line) => line === 'python')).toHaveLength(1);
      // Nothing drawn twice: every phrase is on the screen (and in the scrollback) once.
      for (const phrase of ['Streaming Markdown', 'strong words', 'second item', 'def greet', 'The end.']) expect(await term.count(phrase)).toBe(1);
      // Styles are present: bold for strong text, a colour for code.
      const styled = await term.styledScreen();
      expect(styled).toMatch(/\u001b\[1m(?:\u001b\[[0-9;]*m)*strong words/);
      expect(styled).toMatch(/\u001b\[3[0-9]m(?:\u001b\[[0-9;]*m)*def/);
    } finally {
      await term.kill();
    }
  }, 30_000);

  it('in a pipe the bytes pass through unchanged', async () => {
    const input = Buffer.concat([Buffer.from(DOC), Buffer.from('\u001b[31m raw \r\n'), Buffer.from([0xc3, 0x28])]);
    const result = await svc(['render'], sandbox, { input, encoding: 'buffer' });
    expect(result.exitCode).toBe(0);
    expect(Buffer.from(result.stdout as unknown as Uint8Array).equals(input)).toBe(true);
  });
});
