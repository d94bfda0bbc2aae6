/**
 * svc's talk on stderr goes through the IO object (terminal/io.ts): one voice, the `svc:` prefix
 * on warnings and notes, untrusted text neutralised whether stderr is a terminal or a log; plain
 * mode a property of the run, never written into the environment that child processes inherit.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { testIO } from '../helpers/in-process.js';
import { makeSandbox } from '../helpers/run-svc.js';

describe('the IO object\'s talk', () => {
  it.each([false, true])('warn, note and say: prefixes, a hint indented below, no escape sequence (stderr a terminal: %s)', (stderrIsTTY) => {
    const { io, stderr } = testIO({ stderrIsTTY });
    io.warn('the file \u001b]0;owned\u0007x.json is odd', 'fix it with \u001b[2Jsvc config');
    io.note('saved \u009b31mthis');
    io.say('a line\u001b[1m of its own');
    expect(stderr.text()).toBe(
      'svc: warning: the file ␛]0;owned␇x.json is odd\n  fix it with ␛[2Jsvc config\n' +
        'svc: saved <U+009B>31mthis\n' +
        'a line␛[1m of its own\n',
    );
  });

  it('--plain is a property of the run: plain, no colour, and nothing written into the environment', async () => {
    const sandbox = makeSandbox();
    try {
      const { io } = testIO({ env: { ...sandbox.env, FORCE_COLOR: '1' }, stderrIsTTY: true });
      expect(io.plain).toBe(false);
      expect(await main(['--plain', 'config', 'list'], io)).toBe(0);
      expect(io.plain).toBe(true);
      expect(io.colorEnabled).toBe(false);
      expect(io.env.SVC_PLAIN).toBeUndefined();
    } finally {
      sandbox.cleanup();
    }
  });

  it('SVC_PLAIN and TERM=dumb make the run plain from the start', () => {
    expect(testIO({ env: { SVC_PLAIN: 'yes' } }).io.plain).toBe(true);
    expect(testIO({ env: { TERM: 'dumb' } }).io.plain).toBe(true);
    expect(testIO({ env: { SVC_PLAIN: 'off' } }).io.plain).toBe(false);
  });
});
