/**
 * `svc chat` on a real pseudo-terminal (util-linux `script`): the built binary sees a TTY on
 * stdin, stdout and stderr, and neutralises escape sequences in the model's text. The same
 * text is checked byte for byte in a pipe, in-process, in test/commands/chat-faults.test.ts.
 */
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'tty-key-0123456789abcdef' });
});
afterAll(() => sandbox.cleanup());

describe('hostile model text', () => {
  const hostile = 'safe \u001b]0;pwned\u0007 \u001b]52;c;ZXZpbA==\u0007 \u001b[2J done';

  it('is neutralised on a pseudo-terminal', async () => {
    scripted.server.script(reply.sse([chunk(hostile, 'stop'), 'data: [DONE]\n\n']));
    // util-linux `script` gives svc a real pseudo-terminal as stdin, stdout and stderr.
    const result = await execa('script', ['-qec', `stty cols 80 rows 24; node "${SVC_BIN}" chat x`, '/dev/null'], {
      env: { ...sandbox.env, TERM: 'xterm' },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
      stdin: 'ignore',
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('safe ␛]0;pwned␇ ␛]52;c;ZXZpbA==␇ ␛[2J done');
    expect(result.stdout).not.toContain('\u001b]0;pwned');
    expect(result.stdout).not.toContain('\u001b]52');
  });
});
