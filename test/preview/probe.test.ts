/**
 * The terminal probe (cell size and DA1 for sixel): the answers parsed, the terminal's raw mode put back whatever happens,
 * a silent terminal costing at most the timeout, and a stream that was not flowing paused again
 * (or svc would never exit).
 */
import { closeSync, openSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inForeground, listsSixel, parseCellSize, parseDeviceAttributes, parseGraphicsSize, probeTerminal, sameTerminal, type TerminalInput } from '../../src/preview/probe.js';

/** A fake terminal: stdin with a raw mode, stdout that answers the probe with `answer` (or stays silent). */
function terminal(answer: string | undefined, { raw = false, pieces = 1 } = {}) {
  const input = new PassThrough() as PassThrough & TerminalInput;
  const modes: boolean[] = [];
  input.isRaw = raw;
  input.setRawMode = (mode: boolean) => {
    modes.push(mode);
    input.isRaw = mode;
    return input;
  };
  const written: string[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      if (answer !== undefined && chunk.toString().endsWith('\x1b[c')) {
        // Answered in pieces, as a slow link delivers it.
        const size = Math.ceil(answer.length / pieces);
        for (let i = 0; i < answer.length; i += size) input.write(answer.slice(i, i + size));
      }
      callback();
    },
  });
  return { input, output, modes, written };
}

describe('parseDeviceAttributes and listsSixel', () => {
  it.each([
    ['\x1b[?62;4;22c', ['62', '4', '22'], true], // xterm -ti vt340
    ['\x1b[?65;1;2;4;6;9;15;22c', ['65', '1', '2', '4', '6', '9', '15', '22'], true],
    ['\x1b[?64;1;2;6;9;15;18;21;22c', ['64', '1', '2', '6', '9', '15', '18', '21', '22'], false], // xterm without sixel
    ['\x1b[?1;2c', ['1', '2'], false], // VT100 with AVO
    ['\x1b[?4c', ['4'], false], // 4 as the terminal class is not the sixel attribute
    ['typed\x1b[?62;4c', ['62', '4'], true],
  ])('%j', (text, parameters, sixel) => {
    expect(parseDeviceAttributes(text)).toEqual(parameters);
    expect(listsSixel(parameters)).toBe(sixel);
  });

  it('no answer in partial or other text', () => {
    expect(parseDeviceAttributes('\x1b[?62;4')).toBeUndefined();
    expect(parseDeviceAttributes('\x1b[62;4c')).toBeUndefined();
  });
});

describe('parseCellSize', () => {
  it.each([
    ['\x1b[6;20;10t', { width: 10, height: 20 }], // height first, then width
    ['\x1b[6;13;6t\x1b[?62;4c', { width: 6, height: 13 }], // xterm's default font, before DA1
    ['\x1b[6;0;0t', undefined], // a terminal that does not know
    ['\x1b[6;20000;10t', undefined], // not believable
    ['\x1b[4;600;800t', undefined], // the text area, not the cell
    ['\x1b[6;20t', undefined],
  ])('%j', (text, cell) => {
    expect(parseCellSize(text)).toEqual(cell);
  });
});

describe('parseGraphicsSize', () => {
  it.each([
    ['\x1b[?2;0;480;312S', { width: 480, height: 312 }], // xterm -ti vt340, 80 × 24 cells of 6 × 13
    ['\x1b[?1;0;256S\x1b[?2;0;1000;1000S', { width: 1000, height: 1000 }], // after another item's answer
    ['\x1b[?2;3;0;0S', undefined], // an error status
    ['\x1b[?2;0;0;0S', undefined],
    ['\x1b[?2;0;480S', undefined],
  ])('%j', (text, size) => {
    expect(parseGraphicsSize(text)).toEqual(size);
  });
});

describe('probeTerminal', () => {
  it('asks for the cell size, the sixel size and DA1 in one write, reads answers split across reads, and puts cooked mode back', async () => {
    const t = terminal('\x1b[6;18;9t\x1b[?2;0;720;432S\x1b[?62;4;22c', { pieces: 4 });
    expect(await probeTerminal(t.input, t.output, 5_000)).toEqual({ sixel: true, cell: { width: 9, height: 18 }, graphics: { width: 720, height: 432 } });
    expect(t.written).toEqual(['\x1b[16t\x1b[?2;1;0S\x1b[c']);
    expect(t.modes).toEqual([true, false]);
    expect(t.input.listenerCount('data')).toBe(0);
    expect(t.input.readableFlowing).toBe(false);
  });

  it('a terminal that answers DA1 only: sixel, and no cell size', async () => {
    const t = terminal('\x1b[?62;4;22c');
    expect(await probeTerminal(t.input, t.output, 5_000)).toEqual({ sixel: true, cell: undefined, graphics: undefined });
  });

  it('an answer without sixel is false; a raw terminal stays raw', async () => {
    const t = terminal('\x1b[?64;1;2;6;22c', { raw: true });
    expect((await probeTerminal(t.input, t.output, 5_000)).sixel).toBe(false);
    expect(t.modes).toEqual([true, true]);
  });

  it('a terminal that never answers: false after the timeout, mode restored', async () => {
    const t = terminal(undefined);
    expect(await probeTerminal(t.input, t.output, 20)).toEqual({ sixel: false, cell: undefined, graphics: undefined });
    expect(t.modes).toEqual([true, false]);
    expect(t.input.listenerCount('data')).toBe(0);
  });

  it('a stream that was already flowing keeps flowing (its owner reads it)', async () => {
    const t = terminal('\x1b[?62;4c');
    const owner = () => {};
    t.input.on('data', owner);
    expect((await probeTerminal(t.input, t.output, 5_000)).sixel).toBe(true);
    expect(t.input.readableFlowing).toBe(true);
    expect(t.input.listeners('data')).toEqual([owner]);
  });

  it('without a raw mode (not a terminal) nothing is sent', async () => {
    const t = terminal('\x1b[?62;4c');
    delete t.input.setRawMode;
    expect(await probeTerminal(t.input, t.output, 5_000)).toEqual({ sixel: false, cell: undefined, graphics: undefined });
    expect(t.written).toEqual([]);
  });

  it('a terminal that refuses raw mode is no sixel, and no error', async () => {
    const t = terminal('\x1b[?62;4c');
    t.input.setRawMode = () => {
      throw Object.assign(new Error('EIO'), { code: 'EIO' });
    };
    expect(await probeTerminal(t.input, t.output, 5_000)).toEqual({ sixel: false, cell: undefined, graphics: undefined });
  });
});

describe('sameTerminal', () => {
  it('streams without descriptors, closed ones, or devices that are not terminals are not the same terminal', () => {
    expect(sameTerminal({}, { fd: 1 })).toBe(false);
    expect(sameTerminal({ fd: 99999 }, { fd: 99999 })).toBe(false);
    // /dev/null is a character device, the same one twice, and still no terminal to ask.
    const a = openSync('/dev/null', 'r');
    const b = openSync('/dev/null', 'w');
    try {
      expect(sameTerminal({ fd: a }, { fd: b })).toBe(false);
    } finally {
      closeSync(a);
      closeSync(b);
    }
  });
});

describe('inForeground', () => {
  it.each([
    // pid (comm) state ppid pgrp session tty_nr tpgid ...
    ['the foreground job', '4242 (node) S 4000 4242 4000 34816 4242 4194304', true],
    ['a background job (`svc image … &`)', '4242 (node) S 4000 4242 4000 34816 4100 4194304', false],
    ['no controlling terminal', '4242 (node) S 4000 4242 4242 0 -1 4194304', false],
    ['a command name with spaces and a parenthesis', '4242 (my (odd) node) S 4000 4242 4000 34816 4242 0', true],
  ])('%s', (_, stat, expected) => {
    expect(inForeground(() => stat)).toBe(expected);
  });

  it('no /proc (macOS, the BSDs): no, so no question is asked', () => {
    expect(
      inForeground(() => {
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      }),
    ).toBe(false);
  });
});
