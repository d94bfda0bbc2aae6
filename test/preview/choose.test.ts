/**
 * Which way a preview is drawn, from the environment a terminal sets (and whether the DA1 probe
 * is worth asking), then after the probe's answer.
 */
import { describe, expect, it } from 'vitest';
import { afterProbe, colourDepth, decide, multiplexer, wrapForTmux } from '../../src/preview/choose.js';

const draw = (protocol: string, colours = '256', passthrough: string | undefined = undefined) => ({ kind: 'draw', protocol, colours, passthrough });

describe('decide: auto', () => {
  it.each([
    ['kitty by TERM', { TERM: 'xterm-kitty' }, draw('kitty')],
    ['kitty by KITTY_WINDOW_ID (TERM changed by the user)', { TERM: 'xterm-256color', KITTY_WINDOW_ID: '3' }, draw('kitty')],
    ['Ghostty by TERM_PROGRAM', { TERM_PROGRAM: 'ghostty', TERM: 'xterm-256color' }, draw('kitty')],
    ['Ghostty by TERM', { TERM: 'xterm-ghostty' }, draw('kitty')],
    ['Ghostty by its resources folder', { GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' }, draw('kitty')],
    ['iTerm2 by TERM_PROGRAM', { TERM_PROGRAM: 'iTerm.app', COLORTERM: 'truecolor' }, draw('iterm', 'truecolor')],
    ['iTerm2 through ssh (LC_TERMINAL)', { LC_TERMINAL: 'iTerm2', TERM: 'xterm-256color' }, draw('iterm')],
    ['WezTerm: iTerm2 protocol', { TERM_PROGRAM: 'WezTerm' }, draw('iterm')],
    ['plain xterm, 24-bit', { TERM: 'xterm-256color', COLORTERM: 'truecolor' }, draw('blocks', 'truecolor')],
    ['plain xterm, COLORTERM=24bit', { TERM: 'xterm', COLORTERM: '24bit' }, draw('blocks', 'truecolor')],
    ['plain xterm, 256 colours', { TERM: 'xterm-256color' }, draw('blocks')],
    ['VS Code without a probe', { TERM_PROGRAM: 'vscode', COLORTERM: 'truecolor' }, draw('blocks', 'truecolor')],
    ['tmux inside kitty: half blocks', { TMUX: '/tmp/tmux-1/default,1,0', TERM: 'tmux-256color', KITTY_WINDOW_ID: '1' }, draw('blocks')],
    ['tmux by TERM alone', { TERM: 'tmux-256color', TERM_PROGRAM: 'iTerm.app' }, draw('blocks')],
    ['tmux by TERM_PROGRAM (tmux 3.2+ sets it)', { TERM_PROGRAM: 'tmux', LC_TERMINAL: 'iTerm2' }, draw('blocks')],
    ['screen by STY', { STY: '1234.pts-0.host', TERM: 'xterm-kitty' }, draw('blocks')],
    ['screen by TERM', { TERM: 'screen.xterm-256color' }, draw('blocks')],
    ['TERM=dumb: none', { TERM: 'dumb' }, { kind: 'none', reason: 'TERM=dumb' }],
    ['NO_COLOR: no half blocks', { TERM: 'xterm-256color', NO_COLOR: '1' }, { kind: 'none', reason: 'NO_COLOR is set' }],
    ['NO_COLOR does not stop a graphics protocol', { TERM: 'xterm-kitty', NO_COLOR: '1' }, draw('kitty')],
  ])('%s', (_, env, decision) => {
    expect(decide('auto', env, false)).toEqual(decision);
  });

  it('asks the terminal about sixel only where no protocol is known and nothing sits in between', () => {
    expect(decide('auto', { TERM: 'xterm-256color' }, true)).toEqual({ kind: 'probe', colours: '256', vscode: false });
    expect(decide('auto', { TERM_PROGRAM: 'vscode', COLORTERM: 'truecolor' }, true)).toEqual({ kind: 'probe', colours: 'truecolor', vscode: true });
    expect(decide('auto', { TERM: 'xterm-kitty' }, true)).toEqual(draw('kitty'));
    expect(decide('auto', { TMUX: 'x', TERM: 'screen' }, true)).toEqual(draw('blocks'));
    expect(decide('auto', { TERM: 'dumb' }, true).kind).toBe('none');
  });
});

describe('decide: asked for by name', () => {
  it.each([
    ['kitty', {}, draw('kitty')],
    ['iterm', { COLORTERM: 'truecolor' }, draw('iterm', 'truecolor')],
    ['sixel', {}, draw('sixel')],
    ['blocks', { TERM: 'xterm-kitty' }, draw('blocks')],
    ['kitty inside tmux: wrapped for passthrough', { TMUX: 'x' }, draw('kitty', '256', 'tmux')],
    ['iterm inside tmux: wrapped for passthrough', { TERM_PROGRAM: 'tmux' }, draw('iterm', '256', 'tmux')],
    ['sixel inside tmux: as it is (tmux 3.4+ draws sixel)', { TMUX: 'x' }, draw('sixel')],
    ['blocks inside tmux', { TMUX: 'x', COLORTERM: 'truecolor' }, draw('blocks', 'truecolor')],
    ['kitty in screen: not wrapped', { STY: 'x' }, draw('kitty')],
    ['blocks even with TERM=dumb and NO_COLOR', { TERM: 'dumb', NO_COLOR: '1' }, draw('blocks')],
  ] as const)('%s', (name, env, decision) => {
    const choice = name.split(' ')[0] as 'kitty' | 'iterm' | 'sixel' | 'blocks';
    expect(decide(choice, env, true)).toEqual(decision);
  });

  it('none is none, whatever the terminal', () => {
    expect(decide('none', { TERM: 'xterm-kitty' }, true)).toEqual({ kind: 'none', reason: 'turned off' });
  });
});

describe('afterProbe', () => {
  it('sixel when listed, iTerm2 in VS Code (its image support speaks both), half blocks otherwise', () => {
    expect(afterProbe({ kind: 'probe', colours: '256', vscode: false }, true, {})).toEqual(draw('sixel'));
    expect(afterProbe({ kind: 'probe', colours: 'truecolor', vscode: true }, true, {})).toEqual(draw('iterm', 'truecolor'));
    expect(afterProbe({ kind: 'probe', colours: 'truecolor', vscode: true }, false, {})).toEqual(draw('blocks', 'truecolor'));
    expect(afterProbe({ kind: 'probe', colours: '256', vscode: false }, false, { NO_COLOR: '1' })).toEqual({ kind: 'none', reason: 'NO_COLOR is set' });
    expect(afterProbe({ kind: 'probe', colours: '256', vscode: false }, true, { NO_COLOR: '1' })).toEqual(draw('sixel'));
  });
});

describe('helpers', () => {
  it.each([
    [{ XTERM_VERSION: 'XTerm(379)' }, 'truecolor'], // xterm drops COLORTERM but draws 24-bit colour
    [{ XTERM_VERSION: 'XTerm(330)' }, '256'], // before patch 331 it mapped 24-bit colour to its palette
    [{ XTERM_VERSION: 'something else' }, '256'],
    [{ MLTERM: '3.9.0' }, 'truecolor'],
    [{ KONSOLE_VERSION: '221203' }, 'truecolor'],
    [{ WT_SESSION: 'a7c5-…' }, 'truecolor'],
    [{ TERM: 'xterm-direct' }, 'truecolor'],
    [{ TERM: 'xterm-256color' }, '256'],
  ])('colourDepth knows terminals that draw 24-bit colour without saying so: %j', (env, depth) => {
    expect(colourDepth(env)).toBe(depth);
  });

  it('colourDepth reads COLORTERM, case-insensitively', () => {
    expect(colourDepth({ COLORTERM: 'TrueColor' })).toBe('truecolor');
    expect(colourDepth({ COLORTERM: 'yes' })).toBe('256');
    expect(colourDepth({})).toBe('256');
  });

  it('multiplexer', () => {
    expect(multiplexer({ TMUX: 'x' })).toBe('tmux');
    expect(multiplexer({ STY: 'x' })).toBe('screen');
    expect(multiplexer({ TERM: 'xterm-256color' })).toBeUndefined();
  });

  it('wrapForTmux doubles every ESC inside the passthrough DCS', () => {
    expect(wrapForTmux('\x1b_Ga=T;AAAA\x1b\\')).toBe('\x1bPtmux;\x1b\x1b_Ga=T;AAAA\x1b\x1b\\\x1b\\');
  });
});
