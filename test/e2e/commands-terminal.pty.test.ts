/**
 * What a person at a terminal meets (issue 36, items 6 and 7), in a real terminal (tmux) with the
 * built binary: `svc auth login` with no base URL asks for one and stores it with the key; a key
 * the service refuses is stored only when the person says so; `svc chat --usage` opens the session
 * and prints the counts after each reply; `svc chat --json` and `svc chat -x` with no prompt are
 * refused before any session or request; a session with no model set against a service that lists
 * one model uses that one (its banner says so).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const KEY = 'pty-commands-key-0123456789';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const svcLine = (args: string) => `node "${SVC_BIN}" ${args}`;
const setup = useEmulatorSandbox(KEY);

describe.skipIf(!hasTmux)('svc auth login on a terminal', () => {
  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox?.cleanup();
    // No SVC_BASE_URL, no key: a first login.
    sandbox = makeSandbox();
  });
  afterAll(() => sandbox?.cleanup());
  const stored = (name: string): Record<string, unknown> => {
    const file = join(sandbox.env.XDG_CONFIG_HOME!, 'svc', name);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  };

  it('asks for the base URL, then the key; checks the key and stores both', async () => {
    const term = await startTmux(svcLine('auth login'), sandbox.env, sandbox.home);
    try {
      await term.waitFor('Base URL of the service');
      await term.type('not a url', true);
      await term.waitFor('the base URL must be an http:// or https:// URL');
      await term.press('C-u');
      await term.type(setup.emulator.baseUrl, true);
      await term.waitFor('API key');
      await term.type(KEY, true);
      const screen = await term.waitFor('[exit 0]', 20_000);
      expect(screen).toContain(`svc: ${setup.emulator.baseUrl} accepted the key`);
      expect(screen).toContain(`svc: stored the base URL ${setup.emulator.baseUrl} in `);
      expect(screen).not.toContain(KEY);
    } finally {
      await term.kill();
    }
    expect(stored('credentials.json')).toEqual({ apiKey: KEY });
    expect(stored('config.json')).toEqual({ baseUrl: setup.emulator.baseUrl });
  }, 60_000);

  it.each([
    ['n', 3, undefined],
    ['y', 0, 'sk-refused-key-0123456789'],
  ])('a refused key, answered "%s": exit %i', async (answer, code, kept) => {
    const env = { ...sandbox.env, SVC_BASE_URL: setup.emulator.baseUrl };
    const term = await startTmux(svcLine('auth login'), env, sandbox.home);
    try {
      await term.waitFor('API key');
      await term.type('sk-refused-key-0123456789', true);
      await term.waitFor('Store it anyway?');
      expect(await term.screen()).toContain(`svc: ${setup.emulator.baseUrl} refused this key (HTTP 401: Incorrect API key provided.`);
      await term.type(answer);
      await term.press('Enter');
      await term.waitFor(`[exit ${code}]`, 20_000);
    } finally {
      await term.kill();
    }
    expect(stored('credentials.json').apiKey).toBe(kept);
  }, 60_000);
});

describe.skipIf(!hasTmux)('svc chat with no prompt on a terminal', () => {
  it('--usage opens the session and prints the counts after each reply', async () => {
    const term = await startTmux(svcLine('chat --usage --no-save'), setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('hello there', true);
      await term.waitFor(/^tokens: \d+ prompt \+ \d+ completion = \d+ total$/m, 20_000);
      await term.type('and again', true);
      await term.waitFor(/(tokens: [^\n]+\n[\s\S]*){2}/, 20_000);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
  }, 60_000);

  it.each([
    ['--json', '--json prints one answer as JSON, and with no prompt svc chat opens an interactive session'],
    ['-x', '-x needs a one-shot prompt: words, -f files or piped text'],
  ])('%s is refused, exit 2', async (flag, message) => {
    const term = await startTmux(svcLine(`chat ${flag}`), setup.sandbox.env, setup.sandbox.home);
    try {
      const screen = await term.waitFor('[exit 2]');
      expect(screen).toContain(`svc: error: ${message}`);
      expect(screen).not.toContain('/help for commands');
    } finally {
      await term.kill();
    }
  }, 30_000);
});

describe.skipIf(!hasTmux)('a session with no model set', () => {
  let server: Server;
  let baseUrl: string;
  const sent: string[] = [];
  beforeAll(async () => {
    // One model listed, as llama-server lists the one it serves; chats streamed back naming it.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'local-7b.gguf', object: 'model', created: 1, owned_by: 'llamacpp' }] }));
        const { model } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string };
        sent.push(model);
        const event = { id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: `served by ${model}` }, finish_reason: 'stop' }] };
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(event)}\n\ndata: [DONE]\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('uses the one model the service lists, and says so in its first line', async () => {
    const sandbox = makeSandbox({ SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY });
    try {
      const term = await startTmux(svcLine('chat --no-save'), sandbox.env, sandbox.home);
      try {
        await term.waitFor('svc chat · local-7b.gguf · new conversation');
        await term.type('hello', true);
        await term.waitFor('served by local-7b.gguf');
        await term.press('C-d');
        await term.waitFor('[exit 0]');
      } finally {
        await term.kill();
      }
      expect(sent).toEqual(['local-7b.gguf']);
    } finally {
      sandbox.cleanup();
    }
  }, 60_000);
});
