/**
 * Ordinary pipelines (issue 21, item 1): the reader of stdout leaves after its first line
 * (`svc batch in.jsonl | head -1`). A real process and a real pipe: the test reads the first line
 * and then closes its end, as head does. No new request starts after that, nothing more is
 * printed, and svc batch ends quietly with SIGPIPE's code, 141; a one-shot chat stops its reply
 * and ends quietly with 0; `svc sessions search` stops writing.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);
const completion = (content: string) => JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const chatLine = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'closed-stdout-key-0123', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox.cleanup());

function start(args: string[]) {
  return execa(process.execPath, [SVC_BIN, ...args], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false, stdin: 'ignore', buffer: { stdout: false }, timeout: 20_000 });
}

/** Read stdout up to its first newline, then close the reading end, as `head -1` does. */
async function readFirstLineAndLeave(child: ReturnType<typeof start>): Promise<string> {
  let text = '';
  for await (const piece of child.stdout!) {
    text += String(piece);
    if (text.includes('\n')) break;
  }
  child.stdout!.destroy();
  return text.slice(0, text.indexOf('\n'));
}

describe('the reader of stdout leaves after one line', () => {
  it('svc batch: no new request starts, nothing more printed, exit 141', async () => {
    writeFileSync(home('many.jsonl'), Array.from({ length: 20 }, (_, n) => chatLine(`q${n}`)).join('\n'));
    // The first answer comes at once; the rest are held until the reader has left, so the test
    // knows exactly what was in flight when it did.
    const held: Array<() => void> = [];
    let readerLeft = false;
    const answer: Handler = (_req, res) => {
      const send = (): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(completion('ok'));
      if (readerLeft || held.length === 0 && scripted.server.requests.length === 1) send();
      else held.push(send);
    };
    scripted.server.script(reply.repeat(answer));
    const child = start(['batch', 'many.jsonl', '--concurrency', '2']);
    const first = await readFirstLineAndLeave(child);
    // Two go out at once (--concurrency 2), and either may reach the server first: it answers that one.
    expect(JSON.parse(first)).toMatchObject({ custom_id: expect.stringMatching(/^q[01]$/) as unknown, response: { status_code: 200 } });
    readerLeft = true;
    const inFlight = scripted.server.requests.length;
    for (const send of held.splice(0)) send();
    const result = await child;
    expect(result.exitCode).toBe(141);
    expect(result.stderr).toBe('');
    // At most the requests in flight when the reader left, and the one whose line found it gone.
    expect(scripted.server.requests.length).toBeLessThanOrEqual(inFlight + 2);
    expect(scripted.server.requests.length).toBeLessThan(20);
  });

  it('a one-shot chat: the reply stops, quietly, exit 0', async () => {
    let cutShort = false;
    const endless: Handler = async (_req, res) => {
      let finished = false;
      res.on('close', () => {
        if (!finished) cutShort = true;
      });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let n = 0; n < 100_000 && !res.destroyed; n++) {
        // Resolves on an error too (the callback gets it), and when the connection goes.
        await new Promise<void>((resolve) => {
          res.once('close', resolve);
          res.write(chunk(`line ${n}\n`), () => {
            res.off('close', resolve);
            resolve();
          });
        });
      }
      finished = !res.destroyed;
      res.end();
    };
    scripted.server.script(endless);
    const child = start(['chat', '--no-save', 'count forever']);
    expect(await readFirstLineAndLeave(child)).toBe('line 0');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    // svc hung up on the service instead of reading 100,000 chunks nobody would see.
    await expect.poll(() => cutShort, { timeout: 10_000 }).toBe(true);
  });
});

describe('sessions list and search stop once the reader has gone', () => {
  /** 3,000 saved conversations, the oldest one damaged: reading it says so on stderr. Made once; both tests only read them. */
  beforeAll(() => {
    const dir = join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
    mkdirSync(dir, { recursive: true });
    for (let n = 0; n < 3000; n++) {
      const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
      const path = join(dir, `talk-${n}.jsonl`);
      const records = [{ type: 'start', v: 1, name: `talk-${n}`, created: at }, { type: 'turn', user: `needle question ${n}`, assistant: 'answer', at }];
      writeFileSync(path, `${records.map((record) => JSON.stringify(record)).join('\n')}\n${n === 0 ? '{"type":"turn", damaged\n' : ''}`);
      const seconds = Date.parse(at) / 1000;
      utimesSync(path, seconds, seconds);
    }
  });

  it.each([
    ['sessions list', ['sessions', 'list'], 'talk-2999\t'],
    ['sessions search', ['sessions', 'search', 'needle'], 'talk-2999:1:user: needle question 2999'],
  ])('%s | head -1: the newest first, quiet, and the oldest file never read', async (_name, args, firstLine) => {
    const child = start(args);
    expect(await readFirstLineAndLeave(child)).toContain(firstLine);
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    // Read to the end, the listing does reach the damaged file and says so (the check above can
    // fail). No pipe to close here, so svc runs in-process.
    const whole = await runSvc(args, sandbox);
    expect(whole.stderr).toContain('talk-0.jsonl');
  });
});
