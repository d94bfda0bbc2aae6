/**
 * `svc image` previews what it saved (issue 13, items 1 to 6), in-process against a scripted
 * server that sends real small pictures: the protocol each terminal gets, the fit, the order
 * (preview, revised prompt, saved line), never in a pipe, with --json or -o -, --preview and
 * SVC_PREVIEW and the stored setting, a file that cannot be previewed, and --open.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeJpeg, encodeWebp } from '@svc/emulator/images';
import { formatBytes } from '../../src/core/byte-size.js';
import { decodeRows } from '../../src/images/decode.js';
import { toPixels } from '../../src/images/pixels.js';
import { png as pngHeader } from '../helpers/fake-images.js';
import { runSvc, type RunOptions } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { halfBlockPixels, itermImages, kittyImages, meanColour, sixelImages, withoutPreviewEscapes } from '../helpers/terminal-images.js';

/** A file's pixels as plain RGBA. */
const decodeImage = async (bytes: Uint8Array) => toPixels(await decodeRows(bytes));

/** A 16:9 picture: a warm left half and a cool right half, so a wrong crop or flip shows. */
function picture(width = 320, height = 180): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data.set(x < width / 2 ? [220, 120, 40, 255] : [30, 90, 200, 255], (y * width + x) * 4);
  }
  return data;
}

function pngFile(data: Uint8Array, width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data = Buffer.from(data);
  return PNG.sync.write(image);
}

const PIXELS = picture();
const FILES: Record<'png' | 'jpeg' | 'webp', Buffer> = {
  png: pngFile(PIXELS, 320, 180),
  jpeg: await encodeJpeg(PIXELS, 320, 180),
  webp: Buffer.alloc(0),
};
const MALICIOUS_PROMPT = 'a harbour\x1b]0;owned\x07 at dawn\x1b[2J';

const answer = (file: Buffer, revised = 'a harbour at dawn, revised', count = 1) =>
  reply.json(200, { created: 1700000000, data: Array.from({ length: count }, (_, i) => ({ b64_json: file.toString('base64'), revised_prompt: `${revised}${count > 1 ? ` ${i + 1}` : ''}` })) });

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  FILES.webp = await encodeWebp(new Uint8ClampedArray(PIXELS), 320, 180);
  server = await startScriptedServer();
});
afterAll(async () => server.close());
beforeEach(() => {
  sandbox?.cleanup();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'k', SVC_IMAGE_METADATA: 'off' });
  // Each test scripts exactly the answers it needs; one left unused, or a request nobody
  // expected, fails it (the strict scripted server).
  server.reset();
});
afterEach(() => server.assertAllUsed());
afterAll(() => sandbox?.cleanup());

/** `svc image` on a terminal of 80 × 24 (stdout and stderr), NO_COLOR unset, with `env` on top. */
function onTerminal(args: string[], env: Record<string, string | undefined> = {}, options: RunOptions = {}) {
  return runSvc(['image', ...args], sandbox, { stdoutIsTTY: true, stderrIsTTY: false, columns: 80, env: { NO_COLOR: undefined, TERM: 'xterm-256color', ...env }, ...options });
}

/** The mean colours of the left and right halves, to check the preview is the picture. */
function halves(pixels: { width: number; height: number; data: Uint8Array }) {
  const half = (from: number, to: number) => {
    const data: number[] = [];
    for (let y = 0; y < pixels.height; y += 1) for (let x = from; x < to; x += 1) data.push(...pixels.data.subarray((y * pixels.width + x) * 4, (y * pixels.width + x) * 4 + 4));
    return meanColour({ width: to - from, height: pixels.height, data: Uint8Array.from(data) });
  };
  const quarter = Math.floor(pixels.width / 4);
  return { left: half(0, quarter), right: half(pixels.width - quarter, pixels.width) };
}

function expectColour(actual: number[], expected: number[], tolerance: number) {
  actual.forEach((value, i) => expect(Math.abs(value - expected[i]!), `channel ${i}: ${actual.join()} vs ${expected.join()}`).toBeLessThanOrEqual(tolerance));
}

describe('the protocol each terminal gets', () => {
  it('kitty: the picture in kitty escapes, fitted to the width, then the revised prompt; saved line on stderr', async () => {
    server.script(answer(FILES.png));
    const result = await onTerminal(['a harbour', '-o', 'harbour.png'], { TERM: 'xterm-kitty' });
    expect(result.exitCode).toBe(0);
    const [image, ...others] = kittyImages(result.stdout);
    expect(others).toEqual([]);
    // 320×180 in 80 columns of 10 px: never enlarged, so 32 columns.
    expect(image!.control).toMatchObject({ s: '320', v: '180', c: '32' });
    expect(halves(image!.pixels)).toEqual({ left: [220, 120, 40], right: [30, 90, 200] });
    expect(withoutPreviewEscapes(result.stdout)).toBe('\na harbour at dawn, revised\n');
    expect(result.stdout.endsWith('\x1b\\\na harbour at dawn, revised\n')).toBe(true);
    expect(result.stderr).toBe(`saved harbour.png (320×180, ${formatBytes(FILES.png.length)})\n`);
  });

  it('iTerm2, from a JPEG: a PNG svc made from the decoded pixels, not the service’s file', async () => {
    server.script(answer(FILES.jpeg));
    const result = await onTerminal(['a harbour', '-o', 'harbour.jpg'], { TERM_PROGRAM: 'iTerm.app' });
    expect(result.exitCode).toBe(0);
    const [image] = itermImages(result.stdout);
    expect(image!.file.subarray(1, 4).toString()).toBe('PNG');
    expect(image!.args).toMatchObject({ inline: '1', width: '32', height: '9', preserveAspectRatio: '1' });
    expect(image!.args.name).toBeUndefined();
    const { left, right } = halves(image!.pixels);
    expectColour(left, [220, 120, 40], 6);
    expectColour(right, [30, 90, 200], 6);
  });

  it('half blocks in 24-bit colour, from a WebP: a narrow terminal limits the width', async () => {
    server.script(answer(FILES.webp));
    const result = await onTerminal(['a harbour', '-o', 'harbour.webp', '--aspect', '16:9'], { COLORTERM: 'truecolor' }, { columns: 40 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('\x1b[38;2;');
    const pixels = halfBlockPixels(result.stdout);
    // 40 columns: a 16:9 picture 40 pixels wide is 23 tall, 12 lines of two pixels.
    expect([pixels.width, pixels.height]).toEqual([40, 23]);
    expect(result.stdout.split('\n').filter((line) => line.includes('▀'))).toHaveLength(12);
    const { left, right } = halves(pixels);
    expectColour(left, [220, 120, 40], 8);
    expectColour(right, [30, 90, 200], 8);
  });

  it('half blocks in 256 colours without COLORTERM; a wide terminal: two thirds of its rows limit', async () => {
    server.script(answer(FILES.png));
    const result = await onTerminal(['a harbour', '-o', 'harbour.png'], {}, { columns: 200 });
    expect(result.stdout).toContain('\x1b[38;5;');
    expect(result.stdout).not.toContain('\x1b[38;2;');
    const pixels = halfBlockPixels(result.stdout);
    // 24 rows → 16 rows of two pixels: 32 pixels tall, so 57 wide (16:9).
    expect([pixels.width, pixels.height]).toEqual([57, 32]);
  });

  it('sixel when asked for: the picture scaled to its cells of 10 × 20 pixels', async () => {
    server.script(answer(FILES.png));
    const result = await onTerminal(['a harbour', '-o', 'harbour.png', '--preview', 'sixel']);
    const [image] = sixelImages(result.stdout);
    expect([image!.pixels.width, image!.pixels.height]).toEqual([320, 180]);
    const { left, right } = halves(image!.pixels);
    expectColour(left, [220, 120, 40], 12);
    expectColour(right, [30, 90, 200], 12);
  });

  it('SVC_DEBUG=1 tells how the preview was drawn and what each step took', async () => {
    server.script(answer(FILES.png), answer(FILES.png));
    const kitty = await onTerminal(['a harbour', '-o', 'debug.png'], { TERM: 'xterm-kitty', SVC_DEBUG: '1' });
    const bytes = kitty.stdout.indexOf('\na harbour at dawn');
    expect(kitty.stderr).toMatch(new RegExp(`^svc debug: preview: kitty, 320×180 image in 32×9 cells, ${bytes + 1} bytes; ms: decode [0-9.]+, scale [0-9.]+, encode [0-9.]+, write [0-9.]+$`, 'm'));
    const sixel = await onTerminal(['a harbour', '-o', 'debug-sixel.png', '--preview', 'sixel', '--force'], { SVC_DEBUG: '1' });
    expect(sixel.stderr).toMatch(/^svc debug: preview: sixel, 320×180 image in 32×9 cells, cell 10×20 px \(assumed\), \d+ bytes; ms: /m);
    expect(withoutPreviewEscapes(kitty.stderr)).toBe(kitty.stderr);
  });

  it('several images: each preview just before its own revised prompt', async () => {
    server.script(answer(FILES.png, 'revised', 2));
    const result = await onTerminal(['a harbour', '-o', 'harbour.png'], { TERM: 'xterm-kitty' });
    expect(kittyImages(result.stdout)).toHaveLength(2);
    expect(result.stdout.replace(/\x1b_G[^\x1b]*\x1b\\/g, '<image>')).toBe('<image>\nrevised 1\n<image>\nrevised 2\n');
  });
});

describe('where there is no preview', () => {
  it('in a pipe: stdout is exactly the revised prompt, even with --preview kitty', async () => {
    server.script(answer(FILES.png));
    const result = await runSvc(['image', 'a harbour', '-o', 'h.png', '--preview', 'kitty'], sandbox, { env: { TERM: 'xterm-kitty', NO_COLOR: undefined } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('a harbour at dawn, revised\n');
  });

  it('with --json on a terminal: stdout is the JSON alone', async () => {
    server.script(answer(FILES.png));
    const result = await onTerminal(['a harbour', '-o', 'h.png', '--json'], { TERM: 'xterm-kitty' });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ images: [{ revised_prompt: 'a harbour at dawn, revised' }] });
  });

  it('with -o - (forced onto a terminal): stdout is exactly the file', async () => {
    server.script(answer(FILES.png));
    const result = await onTerminal(['a harbour', '-o', '-', '--force'], { TERM: 'xterm-kitty' });
    expect(result.exitCode).toBe(0);
    expect(result.stdoutBytes.equals(FILES.png)).toBe(true);
  });

  it.each([
    ['--preview none', ['--preview', 'none'], {}],
    ['SVC_PREVIEW=none', [], { SVC_PREVIEW: 'none' }],
    ['TERM=dumb', [], { TERM: 'dumb' }],
    ['NO_COLOR and no graphics protocol', [], { NO_COLOR: '1' }],
  ])('%s: the revised prompt alone', async (_, flags, env) => {
    server.script(answer(FILES.png));
    const result = await onTerminal(['a harbour', '-o', 'h.png', ...flags], env);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('a harbour at dawn, revised\n');
  });
});

describe('choosing: --preview > SVC_PREVIEW > the stored setting > auto', () => {
  it('the stored setting is used, SVC_PREVIEW beats it, the flag beats both', async () => {
    server.script(answer(FILES.png), answer(FILES.png), answer(FILES.png));
    expect((await runSvc(['config', 'set', 'preview', 'blocks'], sandbox)).exitCode).toBe(0);
    const stored = await onTerminal(['a', '-o', 'a.png'], { TERM: 'xterm-kitty', COLORTERM: 'truecolor' });
    expect(halfBlockPixels(stored.stdout).width).toBe(57);
    const fromEnv = await onTerminal(['a', '-o', 'b.png'], { TERM: 'xterm-kitty', SVC_PREVIEW: 'iterm' });
    expect(itermImages(fromEnv.stdout)).toHaveLength(1);
    const fromFlag = await onTerminal(['a', '-o', 'c.png', '--preview', 'kitty'], { SVC_PREVIEW: 'iterm' });
    expect(kittyImages(fromFlag.stdout)).toHaveLength(1);
    expect((await runSvc(['config', 'get', 'preview'], sandbox)).stdout).toBe('blocks\n');
  });

  it('a --preview typo is a usage error wherever it is typed, before anything is sent', async () => {
    const piped = await runSvc(['image', 'a harbour', '--preview', 'sixels'], sandbox);
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('--preview must be one of auto, kitty, iterm, sixel, blocks, none; got "sixels"');
    expect(server.requests).toHaveLength(0);
  });

  it('a bad SVC_PREVIEW stops only a run that would preview (and before sending)', async () => {
    server.script(answer(FILES.png));
    const piped = await runSvc(['image', 'a harbour', '-o', 'h.png'], sandbox, { env: { SVC_PREVIEW: 'sometimes' } });
    expect(piped.exitCode).toBe(0);
    const shown = await onTerminal(['a harbour', '-o', 'i.png'], { SVC_PREVIEW: 'sometimes' });
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain('SVC_PREVIEW must be one of auto, kitty, iterm, sixel, blocks, none');
    expect(server.requests).toHaveLength(1);
  });

  it('config set refuses a value that is not a choice', async () => {
    const result = await runSvc(['config', 'set', 'preview', 'kitty-ish'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('preview must be one of auto, kitty, iterm, sixel, blocks, none');
  });
});

describe('safety: only svc’s own pixels reach the terminal', () => {
  it('a revised prompt and a prompt-made file name full of escapes: no escape but the preview’s', async () => {
    const hostile = answer(FILES.png, 'revised\x1b]52;c;cHduZWQ=\x07 \x1b[2J\x9b31m');
    server.script(hostile, hostile, hostile, hostile);
    for (const env of [{ TERM: 'xterm-kitty' }, { TERM_PROGRAM: 'iTerm.app' }, { COLORTERM: 'truecolor' }, { SVC_PREVIEW: 'sixel' }]) {
      // stderr a terminal too (CI=true keeps the spinner, which the test streams cannot draw, away).
      const result = await onTerminal([MALICIOUS_PROMPT], { ...env, CI: 'true' }, { stderrIsTTY: true });
      expect(result.exitCode).toBe(0);
      const left = withoutPreviewEscapes(result.stdout);
      expect(left).not.toMatch(/[\x1b\x9b\x07]/);
      expect(left.trim().split('\n').at(-1)).toBe('revised␛]52;c;cHduZWQ=␇ ␛[2J<U+009B>31m');
      expect(result.stderr).not.toMatch(/[\x1b\x9b\x07]/);
    }
  });

  it('the image file’s own bytes (a text chunk with an escape) are not what is sent', async () => {
    // A PNG with a tEXt chunk holding an OSC sequence: iTerm2 gets a PNG svc encoded, without it.
    const text = Buffer.from('Comment\0\x1b]0;owned\x07');
    const chunk = Buffer.alloc(12 + text.length);
    chunk.writeUInt32BE(text.length, 0);
    chunk.write('tEXt', 4, 'latin1');
    text.copy(chunk, 8);
    const { crc32 } = await import('node:zlib');
    chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + text.length)), 8 + text.length);
    const withText = Buffer.concat([FILES.png.subarray(0, 33), chunk, FILES.png.subarray(33)]);
    expect((await decodeImage(withText)).width).toBe(320);
    server.script(answer(withText));
    const result = await onTerminal(['a harbour', '-o', 'h.png'], { TERM_PROGRAM: 'iTerm.app' });
    const [image] = itermImages(result.stdout);
    expect(image!.file.includes('owned')).toBe(false);
    expect(image!.file.equals(withText)).toBe(false);
  });

  it('a file that cannot be decoded: saved, a one-line warning, exit 0', async () => {
    const damaged = Buffer.concat([pngHeader(64, 64), Buffer.from('not really a png')]);
    server.script(answer(damaged));
    const result = await onTerminal(['a harbour', '-o', 'broken.png'], { TERM: 'xterm-kitty' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('a harbour at dawn, revised\n');
    expect(result.stderr).toBe('svc: warning: no preview of broken.png: the png file could not be decoded\nsaved broken.png (64×64, 49 B)\n');
    expect(readFileSync(join(sandbox.home, 'broken.png')).equals(damaged)).toBe(true);
  });
});

describe('--open', () => {
  function fakeOpener(): { dir: string; log: string } {
    const dir = join(sandbox.home, 'bin');
    mkdirSync(dir, { recursive: true });
    const log = join(sandbox.home, 'opened.txt');
    writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${log}.tmp" && mv "${log}.tmp" "${log}"\n`);
    chmodSync(join(dir, 'xdg-open'), 0o755);
    return { dir, log };
  }

  it.runIf(process.platform === 'linux')('opens the saved file (by its absolute path) with xdg-open, detached, and says so', async () => {
    server.script(answer(FILES.png));
    const { dir, log } = fakeOpener();
    const result = await runSvc(['image', 'a harbour', '-o', '-leading-dash.png', '--open'], sandbox, { env: { PATH: `${dir}:/usr/bin:/bin` } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`saved -leading-dash.png (320×180, ${formatBytes(FILES.png.length)})\nopening -leading-dash.png in the system viewer (xdg-open)\n`);
    await vi.waitFor(() => expect(readFileSync(log, 'utf8')).toBe(`${join(sandbox.home, '-leading-dash.png')}\n`), { timeout: 10_000 });
  });

  it.runIf(process.platform === 'linux')('no opener installed: a one-line warning, the file saved, exit 0', async () => {
    server.script(answer(FILES.png));
    const empty = join(sandbox.home, 'empty-bin');
    mkdirSync(empty);
    const result = await runSvc(['image', 'a harbour', '-o', 'h.png', '--open'], sandbox, { env: { PATH: empty } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr.split('\n')).toEqual([expect.stringMatching(/^saved h\.png /), 'svc: warning: cannot open h.png: xdg-open was not found; the file is saved, open it yourself', '']);
  });

  it('--open with -o - is a usage error: there is no saved file', async () => {
    const result = await runSvc(['image', 'a harbour', '-o', '-', '--open'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--open opens a saved file, and -o - saves none');
    expect(server.requests).toHaveLength(0);
  });
});
