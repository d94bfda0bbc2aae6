/**
 * Compaction against llama.cpp's own `llama-server` with a 512-token context (docs/real-servers.md
 * says how to get it and a tiny model): a conversation that outgrows the window is refused (exit
 * 4, the hint naming --compact), `svc chat --continue --compact "…"` then summarises its earlier
 * turns and the message is answered, the request fitting. The tiny model writes nonsense; what
 * is tested is that the requests fit. Runs only when SVC_LLAMA_SERVER (the binary) and
 * SVC_LLAMA_MODEL (a .gguf file) are set: `npm run test:real`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, svc, type Sandbox } from '../helpers/run-svc.js';
import { launchLlamaServer, type Launched } from './launch.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { sessionPlan } from '../helpers/session-plan.js';

const binary = process.env.SVC_LLAMA_SERVER;
const model = process.env.SVC_LLAMA_MODEL;
const MODEL_ALIAS = 'tiny-llama';

let server: Launched | undefined;
let sandbox: Sandbox;

/** A message of some 60 tokens: a few of them and their replies outgrow the 512-token window. */
const longMessage = (n: number): string => `Message ${n}: ${'the sea is wide and deep '.repeat(8)}`;

describe.skipIf(!binary || !model)('compaction against llama-server (skipped: set SVC_LLAMA_SERVER and SVC_LLAMA_MODEL to run)', () => {
  beforeAll(async () => {
    server = await launchLlamaServer(binary!, model!, MODEL_ALIAS, 24);
    sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: server.key, SVC_MODEL: MODEL_ALIAS });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    sandbox?.cleanup();
  });

  it('a conversation that outgrows the window is refused; --continue --compact then lets the next message through', async () => {
    let refused;
    let sent = 0;
    for (let n = 1; n <= 12 && refused === undefined; n++) {
      const turn = await svc(['chat', '--session', 'long', '--max-tokens', '16', longMessage(n)], sandbox, { timeout: 60_000 });
      if (turn.exitCode === 4) refused = turn;
      else {
        expect(turn.exitCode, turn.stderr).toBe(0);
        sent += 1;
      }
    }
    expect(refused, 'the conversation never outgrew the window').toBeDefined();
    expect(sent).toBeGreaterThan(3);
    expect(refused!.stderr).toContain('svc chat --continue --compact');
    // The refused turn is kept when the server cut it mid-reply (the window reached while it
    // wrote: "context shift is disabled"), not when it refused the prompt: the log says which.
    const kept = (JSON.parse((await svc(['sessions', 'show', 'long', '--json'], sandbox)).stdout) as Array<{ role: string }>).filter((message) => message.role === 'user').length;
    expect([sent, sent + 1]).toContain(kept);
    const compacted = await svc(['chat', '--continue', '--compact', '--max-tokens', '16', 'and now?'], sandbox, { timeout: 60_000 });
    expect(compacted.exitCode, compacted.stderr).toBe(0);
    expect(compacted.stderr).toMatch(new RegExp(`svc: compacted ${kept - 2} turns into a summary \\(\\d+ tokens\\); the last 2 turns are sent as they are`));
    expect(compacted.stdout.length).toBeGreaterThan(0);
    const show = await svc(['sessions', 'show', 'long', '--json'], sandbox);
    const messages = JSON.parse(show.stdout) as Array<{ role: string; content: string }>;
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain(`Summary of the earlier conversation (its first ${kept - 2} turns`);
    expect(messages.filter((message) => message.role === 'user')).toHaveLength(3);
  }, 180_000);

  it('with autoCompact, the same conversation never outgrows the window: it is compacted first, as /props gives the window', async () => {
    let compactions = 0;
    for (let n = 1; n <= 12; n++) {
      const turn = await svc(['chat', '--session', 'auto', '--max-tokens', '16', longMessage(n)], sandbox, { timeout: 60_000, env: { ...sandbox.env, SVC_AUTO_COMPACT: '60' } });
      expect(turn.exitCode, turn.stderr).toBe(0);
      if (/over autoCompact's 60%: compacting the conversation first/.test(turn.stderr)) compactions += 1;
    }
    expect(compactions).toBeGreaterThan(0);
    const all = await svc(['sessions', 'show', 'auto', '--all'], sandbox);
    expect(all.stdout.match(/\[compaction: turns? 1/g)?.length).toBe(compactions);
  }, 300_000);

  it('in the session: a conversation that outgrows the window, /compact, then a reply that fits', async () => {
    const plan = { ...sessionPlan(), fields: { max_tokens: 16 } };
    const lines = [1, 2, 3, 4, 5, 6, 7, 8].map(longMessage);
    const { stderr } = await runScriptedSession(sandbox, [...lines, '/compact', 'and now?', '/usage'], { plan });
    // It outgrew the window: warned about before a send, or refused by the server.
    expect(stderr).toMatch(/more than tiny-llama's context window of 512|exceeds the available context size/);
    const after = stderr.slice(stderr.indexOf('(compacted '));
    expect(after).toMatch(/^\(compacted \d+ turns into a summary/);
    expect(after).not.toMatch(/exceeds the available context size|not sent/);
    expect(after).toMatch(/last request: +\d+ of 512 tokens of the context window/);
  }, 180_000);
});
