/**
 * /image in a real terminal (tmux): with a prompt, from the last reply, and Ctrl-C while the
 * image is being made; the session goes on after each. In tmux the preview is half blocks.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const scripted = useScriptedServer();

const PNG_FILE = (() => {
  const image = new PNG({ width: 32, height: 18 });
  image.data.fill(180);
  return PNG.sync.write(image);
})();
const picture = (revised: string) => reply.json(200, { created: 1700000000, data: [{ b64_json: PNG_FILE.toString('base64'), revised_prompt: revised }] });
const answer = (text: string) => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);

describe.skipIf(!hasTmux)('/image in a terminal session', () => {
  it('makes an image from a prompt and from the last reply, survives Ctrl-C, and the session goes on', async () => {
    const sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'pty-key-0123456789abcdef', SVC_MAX_RETRIES: '0' });
    const work = join(sandbox.home, 'work');
    mkdirSync(work);
    scripted.server.script(
      picture('a red fox in fresh snow'),
      answer('A **white** lighthouse on a rocky cape.'),
      picture('a white lighthouse, painted'),
      reply.silent(),
      answer('Still here.'),
    );
    const term = await startTmux(`node "${SVC_BIN}" chat`, sandbox.env, work);
    try {
      await term.waitFor('/help for commands');

      await term.type('/image a red fox --aspect 16:9', true);
      const first = await term.waitFor(/saved a-red-fox\.png \(32×18, [^)]*\)\n› $/m);
      // The preview (half blocks, tmux) comes before the revised prompt.
      expect(first.indexOf('▀')).toBeGreaterThan(first.indexOf('/image a red fox'));
      expect(first.indexOf('▀')).toBeLessThan(first.indexOf('a red fox in fresh snow'));

      await term.type('describe a lighthouse', true);
      await term.waitFor(/rocky cape\.\n\n› $/m);
      await term.type('/image', true);
      await term.waitFor('(no prompt: drawing the last reply as plain text: "A white lighthouse on a rocky cape.")');
      await term.waitFor(/saved a-white-lighthouse-on-a-rocky-cape\.png[^\n]*\n› $/m);

      await term.type('/image a slow one', true);
      // Ctrl-C once the request is with the service (the scripted server holds it unanswered).
      await expect.poll(() => scripted.server.requests.length, { timeout: 10_000 }).toBe(4);
      await term.press('C-c');
      await term.waitFor(/\(image cancelled; nothing saved\)\n› $/m);

      await term.type('are you there?', true);
      await term.waitFor(/Still here\.\n\n› $/m);
      await term.type('/history', true);
      await term.waitFor('[image] A white lighthouse on a rocky cape. → a-white-lighthouse-on-a-rocky-cape.png');
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
    try {
      expect(readdirSync(work).filter((name) => name.endsWith('.png')).sort()).toEqual(['a-red-fox.png', 'a-white-lighthouse-on-a-rocky-cape.png']);
      expect(existsSync(join(work, 'a-slow-one.png'))).toBe(false);
    } finally {
      sandbox.cleanup();
    }
  }, 60_000);
});
