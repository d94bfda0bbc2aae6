/**
 * /copy's clipboard (src/terminal/clipboard.ts): OSC 52 always, and the system's clipboard tool when
 * this machine has one, run for real here as small stand-in scripts on PATH that keep what they read;
 * inside tmux without set-clipboard on, how to let OSC 52 through.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clipboardTools, copyToClipboard, describeCopy } from '../../src/terminal/clipboard.js';
import { testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

let sandbox: Sandbox;
const bin = () => join(sandbox.home, 'bin');
const kept = (command: string) => join(sandbox.home, `${command}.out`);

beforeEach(() => {
  sandbox = makeSandbox();
  mkdirSync(bin());
});
afterEach(() => sandbox.cleanup());

/** A stand-in for `command` on PATH: keeps its arguments and what it reads, then exits with `status` (or prints `prints`). */
function fakeTool(command: string, { status = 0, prints = '' } = {}): void {
  const script = `#!/bin/sh\necho "$@" > '${kept(command)}.args'\ncat > '${kept(command)}'\nprintf '%s' '${prints}'\nexit ${status}\n`;
  writeFileSync(join(bin(), command), script);
  chmodSync(join(bin(), command), 0o755);
}

/** An IO whose environment is `env`, PATH holding only the stand-ins and the shell's own tools. */
const ioWith = (env: Record<string, string>) => testIO({ env: { ...sandbox.env, PATH: `${bin()}:/usr/bin:/bin`, ...env } });
const osc52 = (stderr: string) => [...stderr.matchAll(/\u001b\]52;c;([A-Za-z0-9+/=]*)\u0007/g)].map((match) => Buffer.from(match[1]!, 'base64').toString('utf8'));

describe('clipboardTools', () => {
  it.each([
    [{}, 'linux', []],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', ['wl-copy']],
    [{ DISPLAY: ':0' }, 'linux', ['xclip', 'xsel']],
    [{ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, 'linux', ['wl-copy', 'xclip', 'xsel']],
    [{ WSL_DISTRO_NAME: 'Ubuntu' }, 'linux', ['clip.exe']],
    [{}, 'darwin', ['pbcopy']],
    [{}, 'win32', ['clip.exe']],
  ] as const)('%j on %s: %j', (env, platform, commands) => {
    expect(clipboardTools(env, platform).map((tool) => tool.command)).toEqual(commands);
  });
});

describe('copyToClipboard', () => {
  it('sends OSC 52 and hands the text to the display server\'s tool', async () => {
    fakeTool('wl-copy');
    const { io, stderr } = ioWith({ WAYLAND_DISPLAY: 'wayland-0' });
    const outcome = await copyToClipboard(io, 'héllo ✓\nline two', 'linux');
    expect(outcome).toEqual({ tool: 'wl-copy', failures: [] });
    expect(readFileSync(kept('wl-copy'), 'utf8')).toBe('héllo ✓\nline two');
    expect(osc52(stderr.text())).toEqual(['héllo ✓\nline two']);
  });

  it('passes over a tool that is not installed, and names one that failed before trying the next', async () => {
    fakeTool('xclip', { status: 1 });
    fakeTool('xsel');
    const { io } = ioWith({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' });
    const outcome = await copyToClipboard(io, 'text', 'linux');
    expect(outcome).toEqual({ tool: 'xsel', failures: ['xclip: exit 1'] });
    expect(readFileSync(`${kept('xclip')}.args`, 'utf8')).toBe('-selection clipboard\n');
    expect(readFileSync(`${kept('xsel')}.args`, 'utf8')).toBe('--clipboard --input\n');
    expect(readFileSync(kept('xsel'), 'utf8')).toBe('text');
  });

  it('gives clip.exe UTF-16 with its byte-order mark, so text beyond ASCII survives', async () => {
    fakeTool('clip.exe');
    const { io } = ioWith({ WSL_DISTRO_NAME: 'Ubuntu' });
    expect((await copyToClipboard(io, 'héllo ✓', 'linux')).tool).toBe('clip.exe');
    expect(readFileSync(kept('clip.exe'))).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo ✓', 'utf16le')]));
  });

  it('with no tool at all: OSC 52 alone, and no tool run', async () => {
    fakeTool('wl-copy');
    const { io, stderr } = ioWith({});
    expect(await copyToClipboard(io, 'text', 'linux')).toEqual({ failures: [] });
    expect(existsSync(kept('wl-copy'))).toBe(false);
    expect(osc52(stderr.text())).toEqual(['text']);
  });

  it('inside tmux, asks tmux for set-clipboard: anything but "on" keeps OSC 52 from the terminal', async () => {
    fakeTool('tmux', { prints: 'external' });
    const { io } = ioWith({ TMUX: '/tmp/tmux-1000/default,1,0' });
    expect(await copyToClipboard(io, 'text', 'linux')).toEqual({ failures: [], tmuxBlocks: 'external' });
    expect(readFileSync(`${kept('tmux')}.args`, 'utf8')).toBe('show-options -gv set-clipboard\n');
    fakeTool('tmux', { prints: 'on' });
    expect(await copyToClipboard(io, 'text', 'linux')).toEqual({ failures: [] });
  });
});

describe('describeCopy', () => {
  it('says which tool took it, or that OSC 52 was sent, or how tmux lets it through', () => {
    expect(describeCopy({ tool: 'xclip', failures: [] }, 'last reply')).toEqual(['(last reply copied to the clipboard with xclip)']);
    expect(describeCopy({ failures: [] }, 'last reply')).toEqual(['(last reply copied, if your terminal allows OSC 52)']);
    expect(describeCopy({ failures: ['wl-copy: exit 1'], tmuxBlocks: 'external' }, 'last reply')).toEqual([
      '(the clipboard tool failed: wl-copy: exit 1)',
      '(last reply sent to the terminal by OSC 52, but tmux keeps it: its set-clipboard is "external")',
      '(to let it through: `tmux set -g set-clipboard on`, and `set -g set-clipboard on` in ~/.tmux.conf to keep it)',
    ]);
  });
});

describe('/copy in the session', () => {
  const scripted = useScriptedServer();

  it('copies with the system tool and says so; inside tmux without set-clipboard it says how to enable it', async () => {
    fakeTool('wl-copy');
    fakeTool('tmux', { prints: 'external' });
    const env = { SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'copy-key-0123456789', PATH: `${bin()}:/usr/bin:/bin` };
    scripted.server.script(reply.sse([chunk('the reply', 'stop'), 'data: [DONE]\n\n']), reply.sse([chunk('the second', 'stop'), 'data: [DONE]\n\n']));
    const box = { ...sandbox, env: { ...sandbox.env, ...env, WAYLAND_DISPLAY: 'wayland-0' } };
    const { stderr } = await runScriptedSession(box, ['hello', '/copy']);
    expect(stderr).toContain('(last reply copied to the clipboard with wl-copy)');
    expect(readFileSync(kept('wl-copy'), 'utf8')).toBe('the reply');
    const inTmux = { ...sandbox, env: { ...sandbox.env, ...env, TMUX: '/tmp/tmux-1000/default,1,0' } };
    const tmux = await runScriptedSession(inTmux, ['hello again', '/copy']);
    expect(tmux.stderr).toContain('tmux keeps it: its set-clipboard is "external"');
    expect(tmux.stderr).toContain('`set -g set-clipboard on` in ~/.tmux.conf');
  });
});
