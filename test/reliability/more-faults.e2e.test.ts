/**
 * Faults not covered elsewhere that need a real process: a stdin pipe that never closes, and a
 * 401 and hostile text in a session on a real terminal. The one-shot faults a process adds
 * nothing to (and Ctrl-C while svc waits for a silent pipe) are in-process, in more-faults.test.ts.
 */
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const hasTmux = await tmuxAvailable();

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'faults-key-0123456789abcdef' });
});
afterAll(() => sandbox.cleanup());

describe('more faults, one-shot', () => {
  it('with --no-stdin, a stdin pipe that never closes does not hold svc up', async () => {
    scripted.server.script(reply.sse([chunk('did not wait', 'stop'), 'data: [DONE]\n\n']));
    // stdin: 'pipe' that the test never ends, as in a `while read` loop or some CI runners.
    const child = execa(process.execPath, [SVC_BIN, 'chat', '--no-save', '--no-stdin', 'words'], { env: sandbox.env, extendEnv: false, stdin: 'pipe', reject: false, timeout: 15_000 });
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('did not wait');
  });
});

describe.skipIf(!hasTmux)('more faults, in the session', () => {
  it('a 401 in the middle of a session is reported, the session goes on and keeps what it had', async () => {
    scripted.server.script(reply.sse([chunk('first reply', 'stop'), 'data: [DONE]\n\n']));
    const term = await startTmux(`node "${SVC_BIN}" chat --session mid401`, sandbox.env, sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('one', true);
      await term.waitFor(/first reply\n\n› /);
      scripted.server.script(reply.json(401, { error: { message: 'key revoked' } }));
      await term.type('two', true);
      await term.waitFor('key revoked');
      await term.waitFor(/key revoked[\s\S]*\n› /);
      scripted.server.script(reply.sse([chunk('back again', 'stop'), 'data: [DONE]\n\n']));
      await term.type('three', true);
      await term.waitFor(/back again\n\n› /);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
      expect(await term.screen()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    } finally {
      await term.kill();
    }
    const show = await runSvc(['sessions', 'show', 'mid401', '--json'], sandbox);
    expect(JSON.parse(show.stdout).map((m: { content: string }) => m.content)).toEqual(['one', 'first reply', 'three', 'back again']);
  });

  it('hostile model text is neutralised in the session on a terminal', async () => {
    const hostile = 'safe \u001b]0;pwned\u0007 \u001b[2J done';
    scripted.server.script(reply.sse([chunk(hostile, 'stop'), 'data: [DONE]\n\n']));
    const term = await startTmux(`node "${SVC_BIN}" chat --no-save`, sandbox.env, sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('x', true);
      // Wait for the whole line: while it streams, the renderer holds back a `[` until it knows
      // whether a link starts there, and draws the line complete only at its end.
      const screen = await term.waitFor('safe ␛]0;pwned␇ ␛[2J done');
      expect(screen).not.toContain('\u001b]0;pwned');
      await term.press('C-d');
    } finally {
      await term.kill();
    }
  });

  it('a hostile revised prompt is neutralised on a terminal, exact in a pipe', async () => {
    const hostile = 'a fox \u001b]52;c;ZXZpbA==\u0007 in snow';
    const image = { created: 1, data: [{ b64_json: png(4, 4).toString('base64'), revised_prompt: hostile }] };
    scripted.server.script(reply.json(200, image));
    const piped = await runSvc(['image', 'x', '-o', 'piped.png'], sandbox);
    expect(piped.stdout).toBe(`${hostile}\n`);
    scripted.server.script(reply.json(200, image));
    const term = await startTmux(`node "${SVC_BIN}" image x -o tty.png`, sandbox.env, sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]');
      expect(screen).toContain('a fox ␛]52;c;ZXZpbA==␇ in snow');
    } finally {
      await term.kill();
    }
  });
});
