import { describe, expect, it } from 'vitest';
import { neutraliseForTerminal } from '../../src/core/terminal-text.js';

describe('neutraliseForTerminal', () => {
  it.each([
    ['plain text stays', 'hello, wörld ✓\n\ttab', 'hello, wörld ✓\n\ttab'],
    ['OSC window title', '\u001b]0;pwned\u0007', '␛]0;pwned␇'],
    ['OSC 52 clipboard', '\u001b]52;c;ZXZpbA==\u0007', '␛]52;c;ZXZpbA==␇'],
    ['clear screen', '\u001b[2J\u001b[H', '␛[2J␛[H'],
    ['C1 CSI', '\u009b31m', '<U+009B>31m'],
    ['DEL', 'a\u007fb', 'a␡b'],
    ['backspace', 'a\bb', 'a␈b'],
    ['CRLF becomes LF', 'a\r\nb', 'a\nb'],
    ['lone CR is shown', 'safe\rEVIL', 'safe␍EVIL'],
    ['bidi override', 'abc\u202Edef', 'abc<U+202E>def'],
    ['bidi isolate', '\u2066x\u2069', '<U+2066>x<U+2069>'],
  ])('%s', (_name, input, expected) => {
    expect(neutraliseForTerminal(input)).toBe(expected);
  });
});
