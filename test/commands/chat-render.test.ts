/**
 * `svc chat` rendering Markdown (issue 12): on a terminal the reply is rendered as the renderer
 * renders it, whatever pieces it streams in; in a pipe, with --raw, SVC_RENDER=raw or the stored
 * setting it is the service's text byte for byte; --json is never rendered; NO_COLOR keeps bold
 * without colour; Ctrl-C, a full disk and a reader leaving behave as for plain text. And the
 * session: replies rendered, a blank line after each turn, /history rendered, /copy and /save
 * the raw Markdown. In-process, against a scripted service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { main } from '../../src/main.js';
import { runSvc, testIO } from '../helpers/in-process.js';
import { renderPieces, renderWhole } from '../helpers/render.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { ScriptedReader } from '../helpers/scripted-reader.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { TerminalScreen } from '../helpers/terminal-screen.js';
import { sessionPlan } from '../helpers/session-plan.js';

const DOC = [
  '# A **rendered** reply',
  '',
  'Some **bold** and *emphasis* text with `inline code`, long enough to wrap at sixty columns without splitting a word.',
  '',
  '- first item',
  '- second item',
  '',
  '```python',
  'def greet(name):',
  '    return f"hello {name}"  # kept exactly',
  '```',
  '',
  '| Tool | Renders |',
  '|---|---|',
  '| svc | yes |',
  '',
].join('\n');

/** DOC as the service streams it: cut inside `**`, after two backticks of a fence, mid-row. */
function pieces(text: string): string[] {
  const cuts = [text.indexOf('**') + 1, text.indexOf('emphasis') + 3, text.indexOf('```') + 2, text.indexOf('return') + 4, text.indexOf('| svc') + 3].sort((a, b) => a - b);
  return cuts.map((cut, i) => text.slice(i === 0 ? 0 : cuts[i - 1], cut)).concat(text.slice(cuts.at(-1)));
}

const streamed = (text: string): Handler => reply.sse([...pieces(text).map((piece) => chunk(piece)), chunk(undefined, 'stop'), 'data: [DONE]\n\n']);

const COLUMNS = 60;
/** A terminal with colour: the sandbox's NO_COLOR removed. */
const COLOUR = { NO_COLOR: undefined, TERM: 'xterm-256color' };
/** SGR with a foreground colour (30-37) among its codes. */
const COLOUR_SGR = /\u001b\[(?:[0-9;]*;)?3[0-7](?:;[0-9;]*)?m/;

const scripted = useScriptedServer();
let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'render-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterEach(() => sandbox.cleanup());

function screenOf(bytes: string, width = COLUMNS): TerminalScreen {
  const screen = new TerminalScreen(width);
  screen.write(bytes);
  return screen;
}

describe('one-shot svc chat on a terminal', () => {
  it('renders the reply as the renderer renders the whole text: markers and fences gone, styles on', async () => {
    scripted.server.script(streamed(DOC));
    const result = await runSvc(['chat', '--no-save', 'show me'], sandbox, { stdoutIsTTY: true, columns: COLUMNS, env: COLOUR });
    expect(result.exitCode, result.stderr).toBe(0);
    const screen = screenOf(result.stdout);
    expect(screen.styled()).toBe(renderWhole(DOC, { width: COLUMNS }).styled());
    expect(screen.rewrites).toBe(0);
    expect(screen.text()).not.toMatch(/\*\*|```|`inline/);
    expect(screen.text()).toContain('    return f"hello {name}"  # kept exactly');
    expect(result.stdout).toContain('\u001b[0;1mbold');
    expect(result.stdout).toMatch(COLOUR_SGR);
  });

  it('NO_COLOR: bold stays, no colour', async () => {
    scripted.server.script(streamed(DOC));
    const result = await runSvc(['chat', '--no-save', 'show me'], sandbox, { stdoutIsTTY: true, columns: COLUMNS, env: { TERM: 'xterm-256color' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('\u001b[0;1mbold');
    expect(result.stdout).not.toMatch(COLOUR_SGR);
    expect(screenOf(result.stdout).text()).not.toContain('**');
  });

  it('escapes in the model text are shown, never sent to the terminal', async () => {
    scripted.server.script(streamed('safe \u001b]0;pwned\u0007 **bold** \u001b]52;c;ZXZpbA==\u0007 \u001b[2J done\n'));
    const result = await runSvc(['chat', '--no-save', 'x'], sandbox, { stdoutIsTTY: true, columns: COLUMNS, env: COLOUR });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('␛]0;pwned␇');
    expect(result.stdout).not.toMatch(/\u001b\]|\u001b\[2J|\u0007/);
  });

  it('reads the width at every line: a resize applies from the next line', async () => {
    const long = 'word '.repeat(30).trim();
    let firstDrawn = (): void => {};
    const drawn = new Promise<void>((resolve) => (firstDrawn = resolve));
    scripted.server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk(`${long}\n\n`));
      // The second paragraph only once the first is on the screen and the terminal has shrunk.
      await drawn;
      res.end(`${chunk(`${long}\n`, 'stop')}data: [DONE]\n\n`);
    });
    const { io, stdout } = testIO({ env: { ...sandbox.env, ...COLOUR }, cwd: sandbox.home, stdoutIsTTY: true, columns: 80 });
    // The terminal shrinks to 40 columns once the first paragraph has been drawn (SIGWINCH).
    const write = stdout.write.bind(stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      stdout.columns = 40;
      firstDrawn();
      return write(chunk, ...rest);
    }) as typeof stdout.write;
    const exitCode = await main(['chat', '--no-save', 'x'], io, { interrupts: new InterruptRouter(() => {}) });
    expect(exitCode).toBe(0);
    const [before = '', after = ''] = screenOf(stdout.text(), 80).text().split('\n\n');
    const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));
    // The same 149 characters: wrapped at 80 before the resize, at 40 after it.
    expect([before.replace(/\n/g, ' '), after.replace(/\n/g, ' ')]).toEqual([long, long]);
    expect(widest(before)).toBeGreaterThan(40);
    expect(widest(after)).toBeLessThanOrEqual(40);
  });

  it('Ctrl-C mid-reply: the line is finished, the style put back, the partial reply kept (exit 130)', async () => {
    scripted.server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Some **bold text still'));
      // Held open: only svc hanging up ends it.
      await new Promise((resolve) => res.on('close', resolve));
    });
    const controller = new AbortController();
    const { io, stdout } = testIO({ env: { ...sandbox.env, ...COLOUR }, cwd: sandbox.home, stdoutIsTTY: true, columns: COLUMNS });
    // The user presses Ctrl-C as soon as the first text is on the screen.
    const write = stdout.write.bind(stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      controller.abort();
      return write(chunk, ...rest);
    }) as typeof stdout.write;
    const exitCode = await main(['chat', '--session', 'stopped', 'x'], io, { signal: controller.signal, interrupts: new InterruptRouter(() => {}) });
    expect(exitCode).toBe(130);
    const out = stdout.text();
    expect(out.endsWith('\n')).toBe(true);
    // Bold was drawn while the text came; the last style change is a reset: nothing stays bold.
    const styles = out.match(/\u001b\[[0-9;]*m/g) ?? [];
    expect(styles).toContain('\u001b[0;1m');
    expect(styles.at(-1)).toBe('\u001b[0m');
    expect(screenOf(out).text()).toBe(renderWhole('Some **bold text still', { width: COLUMNS }).text());
    const [kept] = new ConversationStore(sandbox.env).read('stopped').turns;
    expect([kept?.assistant, kept?.interrupted]).toEqual(['Some **bold text still', true]);
  });

  it('a full disk is exit 1 in words; a reader leaving is a quiet success', async () => {
    for (const [code, exit] of [['ENOSPC', 1], ['EPIPE', 0]] as const) {
      scripted.server.script(streamed(DOC));
      const { io, stdout, stderr } = testIO({ env: { ...sandbox.env, ...COLOUR }, cwd: sandbox.home, stdoutIsTTY: true, columns: COLUMNS });
      stdout.failWith = Object.assign(new Error(`write ${code}`), { code, syscall: 'write' });
      const exitCode = await main(['chat', '--no-save', 'x'], io, { interrupts: new InterruptRouter(() => {}) });
      expect(exitCode, stderr.text()).toBe(exit);
      if (exit === 1) expect(stderr.text()).toMatch(/could not write to stdout: no space left/);
      else expect(stderr.text()).toBe('');
    }
  });
});

describe('the text exactly as the service sent it', () => {
  const exact = async (args: string[], options: { tty: boolean; env?: Record<string, string | undefined> }) => {
    scripted.server.script(streamed(DOC));
    const result = await runSvc(['chat', '--no-save', ...args, 'x'], sandbox, { stdoutIsTTY: options.tty, columns: COLUMNS, env: { ...COLOUR, ...options.env } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdoutBytes.equals(Buffer.from(DOC))).toBe(true);
  };

  it('in a pipe', () => exact([], { tty: false }));
  it('in a pipe, whatever SVC_RENDER says (it is not even read)', () => exact([], { tty: false, env: { SVC_RENDER: 'fancy' } }));
  it('on a terminal with --raw', () => exact(['--raw'], { tty: true }));
  it('on a terminal with --raw, over SVC_RENDER=auto', () => exact(['--raw'], { tty: true, env: { SVC_RENDER: 'auto' } }));
  it('on a terminal with SVC_RENDER=raw', () => exact([], { tty: true, env: { SVC_RENDER: 'raw' } }));
  it('on a TERM=dumb terminal, which understands no escape sequence', () => exact([], { tty: true, env: { TERM: 'dumb' } }));

  it('on a terminal with the stored setting render=raw', async () => {
    expect((await runSvc(['config', 'set', 'render', 'RAW'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'render'], sandbox)).stdout).toBe('raw\n');
    await exact([], { tty: true });
  });

  it('--json on a terminal: the completion as JSON, its content never rendered', async () => {
    scripted.server.script(streamed(DOC));
    const result = await runSvc(['chat', '--no-save', '--json', 'x'], sandbox, { stdoutIsTTY: true, columns: COLUMNS, env: COLOUR });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).choices[0].message.content).toBe(DOC);
  });

  it('a render setting that is not auto or raw is a usage error on a terminal, before anything is sent', async () => {
    const result = await runSvc(['chat', '--no-save', 'x'], sandbox, { stdoutIsTTY: true, env: { SVC_RENDER: 'fancy' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('SVC_RENDER must be one of auto, raw; got "fancy"');
    expect(scripted.server.requests).toHaveLength(0);
    const stored = await runSvc(['config', 'set', 'render', 'fancy'], sandbox);
    expect(stored.exitCode).toBe(2);
    expect(stored.stderr).toContain('must be one of auto, raw');
  });
});

describe('the session on a terminal', () => {
  const SECOND = 'Then **more**:\n\n1. one\n2. two\n\n```sh\necho hi\n```\n';

  it('renders each reply, leaves a blank line after each turn, shows /history rendered, copies and saves the Markdown', async () => {
    scripted.server.script(streamed(DOC), streamed(SECOND));
    // CI=true: no spinner, so stderr holds only what the session says.
    const { io, stdout, stderr } = testIO({ env: { ...sandbox.env, ...COLOUR, CI: 'true' }, cwd: sandbox.home, stdoutIsTTY: true, stderrIsTTY: true, columns: COLUMNS });
    const factory = createFactory(io);
    const plan = sessionPlan();
    try {
      const settings = await factory.settings({});
      const client = await factory.apiClient(settings);
      const store = await factory.conversationStore();
      const session = openConversation(store, plan.conversation);
      const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
      const reader = new ScriptedReader(['first', 'second', '/history', '/copy', '/save ~/talk.json']);
      await runSession({ plan, context, client, store, session, model: chatModel(settings, session), reader, terminal: { fd: -1 }, render: true });
    } finally {
      await factory.dispose();
    }
    // stdout: the two replies rendered, one after the other.
    const first = renderPieces([DOC], { width: COLUMNS }).bytes;
    const second = renderPieces([SECOND], { width: COLUMNS }).bytes;
    expect(screenOf(stdout.text()).styled()).toBe(screenOf(first + second).styled());
    // stderr: the greeting (wrapped at the 60 columns, a hanging indent), then one blank line
    // after each turn, then /history.
    const talk = stderr.text();
    expect(talk.slice(0, talk.indexOf('[you]'))).toBe('svc chat · svc-pro · new conversation · /help for commands,\n  Ctrl-D to leave\n\n\n');
    // /history: each reply drawn by the same renderer, so the same bytes; no Markdown markers.
    const history = talk.slice(talk.indexOf('[you]'), talk.indexOf('\u001b]52'));
    expect(history).toContain(`[you] first\n[svc-pro]\n${first}`);
    expect(history).toContain(`[you] second\n[svc-pro]\n${second}`);
    expect(history).not.toMatch(/\*\*|```/);
    // /copy and /save: the Markdown exactly as it came.
    const copied = /\u001b\]52;c;([A-Za-z0-9+/=]*)\u0007/.exec(talk)?.[1] ?? '';
    expect(Buffer.from(copied, 'base64').toString('utf8')).toBe(SECOND);
    const saved = JSON.parse(readFileSync(join(sandbox.home, 'talk.json'), 'utf8')) as Array<{ role: string; content: string }>;
    expect(saved.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual([DOC, SECOND]);
  });
});
