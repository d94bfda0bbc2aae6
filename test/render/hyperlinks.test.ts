/** When svc asks the terminal for OSC 8 hyperlinks. */
import { describe, expect, it } from 'vitest';
import { hyperlinksWanted } from '../../src/render/hyperlinks.js';

describe('hyperlinksWanted', () => {
  it.each([
    ['FORCE_HYPERLINK=1 forces them, even in a pipe', { FORCE_HYPERLINK: '1' }, false, true],
    ['FORCE_HYPERLINK=0 turns them off', { FORCE_HYPERLINK: '0', TERM_PROGRAM: 'WezTerm' }, true, false],
    ['never in a pipe', { TERM_PROGRAM: 'WezTerm' }, false, false],
    ['WezTerm', { TERM_PROGRAM: 'WezTerm' }, true, true],
    ['iTerm2 3.1 and later', { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.19' }, true, true],
    ['iTerm2 before 3.1', { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.15' }, true, false],
    ['VS Code 1.72 and later', { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.90.0' }, true, true],
    ['VTE 0.50 and later (GNOME Terminal)', { VTE_VERSION: '7600' }, true, true],
    ['old VTE', { VTE_VERSION: '4802' }, true, false],
    ['Windows Terminal', { WT_SESSION: 'abc' }, true, true],
    ['kitty', { TERM: 'xterm-kitty' }, true, true],
    ['inside tmux the outer terminal is unknown', { TMUX: '/tmp/tmux', TERM_PROGRAM: 'WezTerm' }, true, false],
    ['CI logs', { CI: 'true', TERM_PROGRAM: 'WezTerm' }, true, false],
    ['an unknown terminal', { TERM: 'xterm-256color' }, true, false],
  ])('%s', (_name, env, isTTY, expected) => {
    expect(hyperlinksWanted(env, isTTY)).toBe(expected);
  });
});
