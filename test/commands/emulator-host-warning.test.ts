/**
 * `svc emulator --host` beyond loopback warns, before the key is printed, that other machines can
 * reach it and that its key is printed; on loopback it says nothing of the kind.
 */
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/core/loopback.js';
import { main } from '../../src/main.js';
import { testIO } from '../helpers/in-process.js';

/** Run `svc emulator ...` in-process until it has printed its banner, then stop it as Ctrl-C would. */
async function emulatorBanner(args: string[]): Promise<{ exitCode: number; stderr: string }> {
  const { io, stderr } = testIO();
  const stop = new AbortController();
  const write = stderr.write.bind(stderr);
  stderr.write = ((chunk: unknown, ...rest: never[]) => {
    const result = write(chunk as string, ...rest);
    if (String(chunk).includes('Press Ctrl-C to stop.')) stop.abort();
    return result;
  }) as typeof stderr.write;
  const exitCode = await main(['emulator', '--port', '0', ...args], io, { signal: stop.signal });
  return { exitCode, stderr: stderr.text() };
}

describe('svc emulator --host', () => {
  it.each(['0.0.0.0', '::'])('%s: a warning before the key, naming the host and how to stay local', async (host) => {
    const { exitCode, stderr } = await emulatorBanner(['--host', host, '--api-key', 'emu-key-0123456789']);
    expect(exitCode).toBe(0);
    expect(stderr).toContain(`svc emulator: warning: listening on ${host}, so other machines can reach it, and its API key is printed below`);
    expect(stderr).toContain('--host 127.0.0.1');
    expect(stderr.indexOf('warning')).toBeLessThan(stderr.indexOf('SVC_API_KEY=emu-key-0123456789'));
  });

  it.each([['0.0.0.0', /SVC_BASE_URL=http:\/\/127\.0\.0\.1:\d+\n/], ['::', /SVC_BASE_URL=http:\/\/\[::1\]:\d+\n/]])(
    '%s: the SVC_BASE_URL given is loopback, which svc uses without a warning; other machines\' addresses are marked as such',
    async (host, loopback) => {
      const { stderr } = await emulatorBanner(['--host', host, '--api-key', 'emu-key-0123456789']);
      expect(stderr).toMatch(loopback);
      expect(stderr).not.toMatch(/SVC_BASE_URL=http:\/\/(0\.0\.0\.0|\[::\])/);
      // Other machines' addresses are this machine's own non-loopback ones (IPv4 only for 0.0.0.0):
      // exactly those are listed, or no such line where it has none (a CI box without a network).
      const own = Object.values(networkInterfaces())
        .flat()
        .filter((entry) => entry !== undefined && !entry.internal && (host === '0.0.0.0' ? entry.family === 'IPv4' : true))
        .map((entry) => entry!.address);
      const lan = /from other machines \(plain http over the network: the key travels unencrypted\): (.+)\n/.exec(stderr);
      expect(lan === null).toBe(own.length === 0);
      const listed = lan ? lan[1]!.split(', ') : [];
      expect(listed.every((url) => /^http:\/\/(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:%\w.]+\]):\d+$/i.test(url))).toBe(true);
      expect(listed.map((url) => new URL(url).hostname.replace(/^\[|\]$/g, ''))).toEqual(own);
    },
  );

  it('127.0.0.1 (the default): no warning', async () => {
    const { exitCode, stderr } = await emulatorBanner([]);
    expect(exitCode).toBe(0);
    expect(stderr).toContain('SVC_API_KEY=');
    expect(stderr).not.toContain('warning');
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['example.com', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
