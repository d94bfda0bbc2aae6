/**
 * The body of an answer as svc reads it (src/api/body-queue.ts), against a recording controller
 * in place of undici's: when the connection is paused and resumed, what a reader sees after a
 * failure, and that stopping early aborts the request only when there was more to come.
 */
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { BodyQueue } from '../../src/api/body-queue.js';

function recordingController() {
  const calls: string[] = [];
  let paused = false;
  const controller = {
    get paused() {
      return paused;
    },
    get aborted() {
      return calls.includes('abort');
    },
    get reason() {
      return null;
    },
    pause() {
      paused = true;
      calls.push('pause');
    },
    resume() {
      paused = false;
      calls.push('resume');
    },
    abort() {
      calls.push('abort');
    },
  } satisfies Dispatcher.DispatchController;
  return { controller, calls };
}

function queue() {
  const { controller, calls } = recordingController();
  let settled = 0;
  const body = new BodyQueue(controller, () => (settled += 1));
  return { body, calls, settled: () => settled };
}

const KiB = 1024;

describe('BodyQueue', () => {
  it('pauses the connection once the reader is 64 KiB behind, and resumes it when the reader catches up', async () => {
    const { body, calls } = queue();
    body.push(Buffer.alloc(32 * KiB, 1));
    expect(calls).toEqual([]);
    body.push(Buffer.alloc(32 * KiB, 2));
    expect(calls).toEqual(['pause']);
    const first = await body.next();
    expect(first.value?.[0]).toBe(1);
    expect(calls).toEqual(['pause', 'resume']);
    const second = await body.next();
    expect(second.value?.[0]).toBe(2);
    expect(calls).toEqual(['pause', 'resume']);
  });

  it('hands a piece straight to a reader already waiting, without queueing or pausing', async () => {
    const { body, calls } = queue();
    const waiting = body.next();
    body.push(Buffer.alloc(100 * KiB, 7));
    const step = await waiting;
    expect(step.value?.length).toBe(100 * KiB);
    expect(calls).toEqual([]);
  });

  it('gives the pieces that came before a failure, then the failure', async () => {
    const { body, settled } = queue();
    body.push(Buffer.from('abc'));
    body.push(Buffer.from('def'));
    const cut = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    body.fail(cut);
    expect(settled()).toBe(1);
    const read: string[] = [];
    await expect(
      (async () => {
        for await (const piece of body) read.push(Buffer.from(piece).toString());
      })(),
    ).rejects.toBe(cut);
    expect(read).toEqual(['abc', 'def']);
  });

  it('rejects a reader waiting when the failure comes', async () => {
    const { body } = queue();
    const waiting = body.next();
    const cut = new Error('cut');
    body.fail(cut);
    await expect(waiting).rejects.toBe(cut);
  });

  it('ends a reader after the last piece, and settles once', async () => {
    const { body, settled } = queue();
    body.push(Buffer.from('only'));
    body.end();
    body.end();
    body.fail(new Error('late'));
    const read: string[] = [];
    for await (const piece of body) read.push(Buffer.from(piece).toString());
    expect(read).toEqual(['only']);
    expect(settled()).toBe(1);
  });

  it('a reader leaving early aborts the request, frees what was queued and ends a waiting read', async () => {
    const { body, calls, settled } = queue();
    body.push(Buffer.from('first'));
    for await (const piece of body) {
      expect(Buffer.from(piece).toString()).toBe('first');
      break;
    }
    expect(calls).toEqual(['abort']);
    expect(settled()).toBe(1);
    body.push(Buffer.from('after'));
    expect(await body.next()).toEqual({ value: undefined, done: true });
  });

  it('destroying a body that had all come aborts nothing', async () => {
    const { body, calls, settled } = queue();
    body.push(Buffer.from('all'));
    body.end();
    body.destroy();
    expect(calls).toEqual([]);
    expect(settled()).toBe(1);
    expect(await body.next()).toEqual({ value: undefined, done: true });
  });

  it('destroying ends a read that was waiting, with no error', async () => {
    const { body, calls } = queue();
    const waiting = body.next();
    body.destroy();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(calls).toEqual(['abort']);
  });
});
