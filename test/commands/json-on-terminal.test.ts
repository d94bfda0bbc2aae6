/**
 * JSON that a command prints on a terminal cannot drive it: JSON.stringify leaves C1 controls
 * (U+009B is CSI on some terminals) and bidirectional overrides raw, so on a terminal they are
 * written as \u escapes (the same JSON value); in a pipe the JSON is exactly JSON.stringify's.
 * Also: names a conversation file can carry (the model) are neutralised in the session's lines,
 * and `svc render` on TERM=dumb copies its input, as chat does there.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const HOSTILE = 'ok \u009b31m red \u202e evil';
const scripted = useScriptedServer();
let sandbox: Sandbox;

beforeEach(() => {
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-json-tty', SVC_MAX_RETRIES: '0', SVC_BASE_URL: scripted.server.baseUrl });
});
afterEach(() => sandbox.cleanup());

const completion = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: HOSTILE }, finish_reason: 'stop' }] };

describe('--json on a terminal', () => {
  it('chat --json escapes C1 controls and bidi overrides on a terminal, and keeps the same JSON value', async () => {
    scripted.server.script(reply.json(200, completion), reply.json(200, completion));
    const tty = await runSvc(['chat', '--no-stream', '--json', '--session', 'j', 'hi'], sandbox, { stdoutIsTTY: true });
    expect(tty.exitCode).toBe(0);
    expect(tty.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    expect(tty.stdout).toContain('\\u009b31m');
    expect(tty.stdout).toContain('\\u202e');
    expect(JSON.parse(tty.stdout).choices[0].message.content).toBe(HOSTILE);
    const piped = await runSvc(['chat', '--no-stream', '--json', '--no-save', 'hi'], sandbox);
    expect(piped.stdout).toBe(`${JSON.stringify(completion, null, 2)}\n`);
  });

  it('sessions show --json and sessions search --json escape them on a terminal, the value unchanged', async () => {
    scripted.server.script(reply.json(200, completion));
    expect((await runSvc(['chat', '--no-stream', '--session', 'j', 'hi'], sandbox)).exitCode).toBe(0);
    const shown = await runSvc(['sessions', 'show', 'j', '--json'], sandbox, { stdoutIsTTY: true });
    expect(shown.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    expect(JSON.parse(shown.stdout).at(-1).content).toBe(HOSTILE);
    const found = await runSvc(['sessions', 'search', 'red', '--json'], sandbox, { stdoutIsTTY: true });
    expect(found.exitCode).toBe(0);
    expect(found.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    // The value is the text as it was said, not a terminal's rendering of it.
    expect(JSON.stringify(JSON.parse(found.stdout))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    const piped = await runSvc(['sessions', 'show', 'j', '--json'], sandbox);
    expect(piped.stdout).toContain(HOSTILE);
  });
});

describe('svc render on TERM=dumb', () => {
  it('copies its input byte for byte, as chat prints raw there', async () => {
    const markdown = '# Title\n\n**bold** and `code`\n';
    const result = await runSvc(['render'], sandbox, { stdin: markdown, stdoutIsTTY: true, env: { TERM: 'dumb' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(markdown);
  });
});
