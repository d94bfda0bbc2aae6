/** Faults not covered elsewhere: slow drips, huge lines, Retry-After, 401 mid-session. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasStackTrace, makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

let server: ScriptedServer;
let sandbox: Sandbox;
const hasTmux = await tmuxAvailable();

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'faults-key-0123456789abcdef' });
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

describe('more faults, one-shot', () => {
  it('a body that drips slower than --timeout in all but never goes silent that long is read whole', async () => {
    const text = chunk('slow but steady', 'stop') + 'data: [DONE]\n\n';
    server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // About 2.4 s in all, a piece every 0.3 s, against a 1 s limit on silence.
      const pieces = 8;
      const size = Math.ceil(text.length / pieces);
      for (let i = 0; i < text.length; i += size) {
        res.write(text.slice(i, i + size));
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      res.end();
    });
    const result = await svc(['chat', '--no-save', '--timeout', '1', 'x'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('slow but steady');
  });

  it('a 10 MB single SSE line is one event', async () => {
    const big = 'y'.repeat(10 * 1024 * 1024);
    server.script(reply.sse([chunk(big, 'stop'), 'data: [DONE]\n\n']));
    const result = await svc(['chat', '--no-save', 'x'], sandbox, { maxBuffer: 64 * 1024 * 1024 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.length).toBe(big.length);
  });

  it('503 with Retry-After is retried after the wait, then succeeds', async () => {
    server.script(reply.json(503, { error: { message: 'busy' } }, { 'retry-after': '1' }), reply.sse([chunk('after the wait', 'stop'), 'data: [DONE]\n\n']));
    server.requests.length = 0;
    const started = Date.now();
    const result = await svc(['chat', '--no-save', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a stream with neither [DONE] nor finish_reason is interrupted (exit 6), its text kept', async () => {
    server.script(reply.sse([chunk('no end '), chunk('in sight')]));
    const result = await svc(['chat', '--session', 'no-end', 'x'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('no end in sight');
    expect(hasStackTrace(result.stderr)).toBe(false);
    const show = await svc(['sessions', 'show', 'no-end'], sandbox);
    expect(show.stdout).toContain('[assistant, interrupted]\nno end in sight');
  });
});

describe('more faults, one-shot (2)', () => {
  it('a connection reset before the headers is retried, then succeeds', async () => {
    server.script(reply.reset(), reply.sse([chunk('second try', 'stop'), 'data: [DONE]\n\n']));
    const result = await svc(['chat', '--no-save', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('second try');
  });

  it('with --no-stdin, a stdin pipe that never closes does not hold svc up', async () => {
    server.script(reply.sse([chunk('did not wait', 'stop'), 'data: [DONE]\n\n']));
    const { execa } = await import('execa');
    // stdin: 'pipe' that the test never ends, as in a `while read` loop or some CI runners.
    const child = execa(process.execPath, [SVC_BIN, 'chat', '--no-save', '--no-stdin', 'words'], { env: sandbox.env, extendEnv: false, stdin: 'pipe', reject: false, timeout: 15_000 });
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('did not wait');
  });

  it('without --no-stdin, a silent pipe gets a notice with the way out, and Ctrl-C leaves at once', async () => {
    server.script(reply.sse([chunk('never sent', 'stop'), 'data: [DONE]\n\n']));
    const requestsBefore = server.requests.length;
    const { execa } = await import('execa');
    const child = execa(process.execPath, [SVC_BIN, 'chat', '--no-save', 'words'], { env: sandbox.env, extendEnv: false, stdin: 'pipe', reject: false, timeout: 15_000 });
    let stderr = '';
    // The notice, or the child ending without it (then the assertion below says so).
    await Promise.race([
      new Promise<void>((resolve) => {
        child.stderr?.on('data', (data: Buffer) => {
          stderr += data.toString();
          if (stderr.includes('--no-stdin')) resolve();
        });
      }),
      child,
    ]);
    expect(stderr).toContain('still waiting for stdin');
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('svc: interrupted');
    expect(result.stdout).toBe('');
    expect(hasStackTrace(result.stderr)).toBe(false);
    // Nothing was sent: the prompt was never complete.
    expect(server.requests.length).toBe(requestsBefore);
  });
});

describe.skipIf(!hasTmux)('more faults, in the session', () => {
  it('a 401 in the middle of a session is reported, the session goes on and keeps what it had', async () => {
    server.script(reply.sse([chunk('first reply', 'stop'), 'data: [DONE]\n\n']));
    const term = await startTmux(`node "${SVC_BIN}" chat --session mid401`, sandbox.env, sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('one', true);
      await term.waitFor(/first reply\n› /);
      server.script(reply.json(401, { error: { message: 'key revoked' } }));
      await term.type('two', true);
      await term.waitFor('key revoked');
      await term.waitFor(/key revoked[\s\S]*\n› /);
      server.script(reply.sse([chunk('back again', 'stop'), 'data: [DONE]\n\n']));
      await term.type('three', true);
      await term.waitFor(/back again\n› /);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
      expect(await term.screen()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    } finally {
      await term.kill();
    }
    const show = await svc(['sessions', 'show', 'mid401', '--json'], sandbox);
    expect(JSON.parse(show.stdout).map((m: { content: string }) => m.content)).toEqual(['one', 'first reply', 'three', 'back again']);
  });

  it('hostile model text is neutralised in the session on a terminal', async () => {
    const hostile = 'safe \u001b]0;pwned\u0007 \u001b[2J done';
    server.script(reply.sse([chunk(hostile, 'stop'), 'data: [DONE]\n\n']));
    const term = await startTmux(`node "${SVC_BIN}" chat --no-save`, sandbox.env, sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('x', true);
      const screen = await term.waitFor('done');
      expect(screen).toContain('safe ␛]0;pwned␇ ␛[2J done');
      await term.press('C-d');
    } finally {
      await term.kill();
    }
  });

  it('a hostile revised prompt is neutralised on a terminal, exact in a pipe', async () => {
    const hostile = 'a fox \u001b]52;c;ZXZpbA==\u0007 in snow';
    const image = { created: 1, data: [{ b64_json: (await import('../helpers/fake-images.js')).png(4, 4).toString('base64'), revised_prompt: hostile }] };
    server.script(reply.json(200, image));
    const piped = await svc(['image', 'x', '-o', 'piped.png'], sandbox);
    expect(piped.stdout).toBe(hostile);
    server.script(reply.json(200, image));
    const term = await startTmux(`node "${SVC_BIN}" image x -o tty.png`, sandbox.env, sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]');
      expect(screen).toContain('a fox ␛]52;c;ZXZpbA==␇ in snow');
    } finally {
      await term.kill();
    }
  });
});
