/**
 * Reasoning text in a real terminal (tmux), issue 21 item 5: a reasoning model's thinking is
 * drawn dim above the rendered answer, set apart by a blank line, each once.
 */
import { describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const scripted = useScriptedServer();
const thinking = (text: string): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { reasoning_content: text }, finish_reason: null }] })}\n\n`;

describe.skipIf(!hasTmux)('reasoning on a terminal', () => {
  it('dim, above the answer, a blank line between, the answer rendered', async () => {
    scripted.server.script(reply.sse([thinking('The user asks for '), thinking('a bold word.'), chunk('Here is **bold**.', 'stop'), 'data: [DONE]\n\n']));
    const sandbox = makeSandbox({ SVC_API_KEY: 'sk-pty', SVC_BASE_URL: scripted.server.baseUrl, TERM: 'xterm-256color' });
    const env = { ...sandbox.env };
    delete (env as Record<string, string | undefined>).NO_COLOR;
    const term = await startTmux(`node "${SVC_BIN}" chat --no-save "bold please"`, env, sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]', 20_000);
      const lines = screen.split('\n').map((line) => line.trimEnd());
      const at = lines.indexOf('The user asks for a bold word.');
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toBe('');
      expect(lines[at + 2]).toBe('Here is bold.');
      const styled = await term.styledScreen();
      expect(styled).toMatch(/\u001b\[2mThe user asks for a bold word\./);
      expect(styled).toMatch(/\u001b\[1mbold/);
      expect(await term.count('The user asks for a bold word.')).toBe(1);
    } finally {
      await term.kill();
      sandbox.cleanup();
    }
  }, 30_000);
});
