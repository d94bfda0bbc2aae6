/**
 * `svc emulator` with a stderr that refuses its address and key (2>/dev/full): it stops with exit
 * 1 instead of running where nobody can find it (a random port and key are useless unprinted).
 */
import { describe, expect, it } from 'vitest';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { main } from '../../src/main.js';
import { testIO } from '../helpers/in-process.js';

describe('svc emulator with a stderr that refuses writes', () => {
  it('stops by itself with exit 1', async () => {
    const { io, stderr } = testIO();
    stderr.failWith = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const seen: unknown[] = [];
    stderr.on('error', (error) => seen.push(error)); // as cli.ts does for the real stderr
    const stopped = new AbortController(); // never aborted: the emulator must end on its own
    const exitCode = await main(['emulator', '--port', '0'], io, { signal: stopped.signal, interrupts: new InterruptRouter(() => {}) });
    expect(exitCode).toBe(1);
    expect(seen).toContainEqual(expect.objectContaining({ code: 'ENOSPC' }));
  });
});
