/**
 * The parts of svc batch as plain functions: lines read across pieces (a character split between
 * two reads, a line over the bound), JSON lines escaped only for a terminal, the pool's bound and
 * stop, the shared pause extended but never shortened, and counts with thousands separators.
 */
import { describe, expect, it, vi } from 'vitest';
import { collect } from '../helpers/collect.js';
import { readLines } from '../../src/commands/batch/lines.js';
import { jsonLine } from '../../src/commands/batch/output.js';
import { PoolPause } from '../../src/commands/batch/pause.js';
import { runPool } from '../../src/commands/batch/pool.js';
import { count } from '../../src/commands/batch/progress.js';

describe('readLines', () => {
  it('joins lines split across pieces, even inside a character, and keeps the last line without a newline', async () => {
    const text = Buffer.from('{"a":"é"}\r\nsecond\n\nlast');
    const split = text.indexOf(0xa9); // the second byte of é
    const lines = await collect(readLines([text.subarray(0, split), text.subarray(split, 14), text.subarray(14)]));
    expect(lines).toEqual([
      { number: 1, text: '{"a":"é"}' },
      { number: 2, text: 'second' },
      { number: 3, text: '' },
      { number: 4, text: 'last' },
    ]);
  });

  it('reports a line longer than the bound without holding it, and goes on', async () => {
    const lines = await collect(readLines([Buffer.from('short\n'), Buffer.from('x'.repeat(30)), Buffer.from('x'.repeat(30) + '\nok\n')], 40));
    expect(lines).toEqual([{ number: 1, text: 'short' }, { number: 2, tooLong: true }, { number: 3, text: 'ok' }]);
  });
});

describe('jsonLine', () => {
  const record = { text: 'a\u009b31mred\u202eevil\u2028' };
  it('is JSON.stringify exactly for files and pipes', () => {
    expect(jsonLine(record)).toBe(`${JSON.stringify(record)}\n`);
  });
  it('escapes C1 controls, bidi overrides and line separators for a terminal; the value is the same', () => {
    const line = jsonLine(record, true);
    expect(line).toBe('{"text":"a\\u009b31mred\\u202eevil\\u2028"}\n');
    expect(JSON.parse(line)).toEqual(record);
  });
});

describe('runPool', () => {
  it('never runs more than the bound at once, and runs every job', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    async function* jobs() {
      for (let i = 0; i < 25; i++) yield i;
    }
    await runPool(jobs(), 4, async (job) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      done.push(job);
    }, () => false);
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('starts no job once told to stop, and throws the first failure after the others ended', async () => {
    const started: number[] = [];
    let stop = false;
    async function* jobs() {
      for (let i = 0; i < 100; i++) yield i;
    }
    const outcome = runPool(jobs(), 3, async (job) => {
      started.push(job);
      await new Promise((resolve) => setImmediate(resolve));
      if (job === 4) {
        stop = true;
        throw new Error('job 4 failed');
      }
    }, () => stop);
    await expect(outcome).rejects.toThrow('job 4 failed');
    expect(Math.max(...started)).toBeLessThan(8);
  });
});

describe('PoolPause', () => {
  it('is extended by a longer hold and never shortened by a shorter one', () => {
    let now = 1000;
    const pause = new PoolPause(() => now);
    expect(pause.remaining()).toBe(0);
    pause.hold(500);
    pause.hold(100);
    expect(pause.remaining()).toBe(500);
    now = 1300;
    pause.hold(800);
    expect(pause.remaining()).toBe(800);
    now = 3000;
    expect(pause.remaining()).toBe(0);
  });

  it('wakes every waiting worker with one timer, when the pause is over', async () => {
    vi.useFakeTimers();
    try {
      const pause = new PoolPause();
      pause.hold(400);
      const woken: number[] = [];
      const waits = [0, 1, 2, 3].map((worker) => pause.wait(undefined).then(() => woken.push(worker)));
      // One timer for all four (a timer each woke them apart, and the first awake ran ahead).
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(399);
      expect(woken).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all(waits);
      expect(woken).toEqual([0, 1, 2, 3]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an extended pause holds the workers that were already waiting until its new end', async () => {
    vi.useFakeTimers();
    try {
      const pause = new PoolPause();
      pause.hold(100);
      let early = false;
      const first = pause.wait(undefined).then(() => (early = true));
      await vi.advanceTimersByTimeAsync(50);
      pause.hold(200); // now until 250
      let late = false;
      const second = pause.wait(undefined).then(() => (late = true));
      await vi.advanceTimersByTimeAsync(150); // 200: the first alarm went off, the pause goes on
      expect([early, late]).toEqual([false, false]);
      await vi.advanceTimersByTimeAsync(50);
      await Promise.all([first, second]);
      expect([early, late]).toEqual([true, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when every waiter is aborted the timer goes too, and a later waiter still wakes', async () => {
    vi.useFakeTimers();
    try {
      const pause = new PoolPause();
      pause.hold(1000);
      const controllers = [new AbortController(), new AbortController()];
      const waits = controllers.map((controller) => pause.wait(controller.signal));
      for (const controller of controllers) controller.abort();
      for (const waiting of waits) await expect(waiting).rejects.toMatchObject({ name: 'InterruptedError' });
      expect(vi.getTimerCount()).toBe(0);
      let woke = false;
      const later = pause.wait(undefined).then(() => (woke = true));
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(1000);
      await later;
      expect(woke).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('waiting ends with InterruptedError when aborted', async () => {
    const pause = new PoolPause();
    pause.hold(60_000);
    const controller = new AbortController();
    const waiting = pause.wait(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'InterruptedError' });
  });
});

describe('count', () => {
  it.each([[0, '0'], [999, '999'], [5120, '5,120'], [1234567, '1,234,567']])('%d → %s', (n, text) => {
    expect(count(n)).toBe(text);
  });
});
