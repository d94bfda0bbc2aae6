/**
 * The preview in real terminals (issue 13, "Tests"): the built svc against the emulator's
 * 1-megapixel pictures, in tmux (half blocks: tmux keeps no kitty or iTerm2 images) and in a
 * pseudo-terminal made by `script` with the environment of kitty, of iTerm2, and of a terminal
 * that answers the sixel question; the bytes written to the terminal are read back to pixels and
 * compared with the saved file. Absent in a pipe and with --preview none.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeRows } from '../../src/images/decode.js';
import { toPixels } from '../../src/images/pixels.js';
import type { Pixels } from '../../src/images/pixels.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { halfBlockPixels, itermImages, kittyImages, meanColour, sixelImages } from '../helpers/terminal-images.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

/** A file's pixels as plain RGBA. */
const decodeImage = async (bytes: Uint8Array) => toPixels(await decodeRows(bytes));

const KEY = 'preview-key-0123456789abcdef';
const hasTmux = await tmuxAvailable();
const hasScript = (await execa('script', ['--version'], { reject: false })).exitCode === 0;
if (process.env.CI && (!hasTmux || !hasScript)) throw new Error('CI must have tmux and script (util-linux) for the terminal tests');

const setup = useEmulatorSandbox(KEY);
const svcLine = (args: string) => `node "${SVC_BIN}" ${args}`;

beforeEach(() => {
  // Each test names its file from the same prompt: start from an empty folder.
  for (const name of readdirSync(setup.sandbox.home)) if (/\.(png|jpg|webp)$/.test(name)) rmSync(join(setup.sandbox.home, name));
});

/** The saved picture, decoded by svc's own decoder (exact for PNG), and its mean colour. */
async function savedPicture(name: string): Promise<Pixels> {
  return decodeImage(readFileSync(join(setup.sandbox.home, name)));
}

function expectSameColour(preview: Pixels, file: Pixels, tolerance: number) {
  const a = meanColour(preview);
  const b = meanColour(file);
  a.forEach((value, i) => expect(Math.abs(value - b[i]!), `mean colour ${a.map(Math.round).join()} vs ${b.map(Math.round).join()}`).toBeLessThanOrEqual(tolerance));
}

/**
 * Run a shell line in a pseudo-terminal of 100 × 40 made by `script` (util-linux), with exactly
 * `env` on top of the sandbox's, and `typed` as what the user (or the terminal) types. Returns
 * every byte the terminal received.
 */
async function inPty(line: string, env: Record<string, string>, typed = ''): Promise<string> {
  const result = await execa('script', ['-q', '-e', '-c', `stty cols 100 rows 40; ${line}`, '/dev/null'], {
    env: { ...setup.sandbox.env, ...env },
    extendEnv: false,
    cwd: setup.sandbox.home,
    input: typed,
    encoding: 'latin1',
    timeout: 30_000,
    reject: false,
  });
  expect(result.exitCode, result.stdout.slice(-500)).toBe(0);
  return Buffer.from(result.stdout, 'latin1').toString('utf8');
}

const TERMINALS = { NO_COLOR: '', TERM: 'xterm-256color' };

describe.skipIf(!hasTmux)('half blocks in tmux', () => {
  it('the picture appears in 24-bit half blocks, fitted to 100 columns and two thirds of 40 rows, before the revised prompt', async () => {
    const term = await startTmux(svcLine('image "a lighthouse at dusk" --seed 7 -o lighthouse.png'), { ...setup.sandbox.env, ...TERMINALS, COLORTERM: 'truecolor' }, setup.sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]', 20_000);
      const coloured = await term.screenWithColours();
      const preview = halfBlockPixels(coloured, 'tmux');
      // 1024 × 1024 into 100 × 26 cells: 52 pixels tall, so 52 wide, 26 lines.
      expect([preview.width, preview.height]).toEqual([52, 52]);
      expect(coloured).toContain('\x1b[38;2;');
      expectSameColour(preview, await savedPicture('lighthouse.png'), 4);
      const lines = screen.split('\n');
      const lastBlock = lines.findLastIndex((line) => line.includes('▀'));
      expect(lines.findIndex((line) => line.includes('▀'))).toBe(lastBlock - 25);
      expect(lines[lastBlock + 1]).toMatch(/^A lighthouse at dusk/);
      expect(screen).toMatch(/saved lighthouse\.png \(1024×1024, /);
    } finally {
      await term.kill();
    }
  });

  it('inside tmux, kitty’s environment still gets half blocks (tmux would drop kitty images)', async () => {
    const term = await startTmux(svcLine('image "a red fox in snow" --aspect 16:9 --seed 11 -o fox.png'), { ...setup.sandbox.env, ...TERMINALS, KITTY_WINDOW_ID: '1' }, setup.sandbox.home);
    try {
      await term.waitFor('[exit 0]', 20_000);
      const coloured = await term.screenWithColours();
      expect(coloured).not.toContain('\x1b_G');
      expect(coloured).toContain('\x1b[38;5;');
      const preview = halfBlockPixels(coloured, 'tmux');
      // 1344 × 756 into 100 × 26 cells: 52 rows of pixels at most, so 92 × 52.
      expect([preview.width, preview.height]).toEqual([92, 52]);
      // No COLORTERM: the 256-colour palette, whose nearest colours shift a mean by up to ~20.
      expectSameColour(preview, await savedPicture('fox.png'), 24);
    } finally {
      await term.kill();
    }
  });

  it('absent in a pipe and with --preview none', async () => {
    const line = `${svcLine('image "a boat" -o boat.png')} | cat; ${svcLine('image "a boat" -o boat2.png --preview none')}`;
    const term = await startTmux(line, { ...setup.sandbox.env, ...TERMINALS, COLORTERM: 'truecolor' }, setup.sandbox.home);
    try {
      const screen = await term.waitFor('[exit 0]', 20_000);
      expect(screen).not.toContain('▀');
      expect(screen.match(/^A boat/gm)).toHaveLength(2);
      expect(screen).toContain('saved boat2.png');
    } finally {
      await term.kill();
    }
  });
});

describe.skipIf(!hasScript)('graphics protocols in a pseudo-terminal', () => {
  it('kitty: the picture as kitty escapes, 52 × 26 cells, pixels those of the file scaled down', async () => {
    const out = await inPty(svcLine('image "a lighthouse at dusk" --seed 7 -o lighthouse.png'), { ...TERMINALS, TERM: 'xterm-kitty', KITTY_WINDOW_ID: '4' });
    const [image, ...others] = kittyImages(out);
    expect(others).toEqual([]);
    expect(image!.control).toMatchObject({ a: 'T', f: '32', o: 'z', s: '520', v: '520', c: '52', r: '26', q: '2' });
    expectSameColour(image!.pixels, await savedPicture('lighthouse.png'), 2);
    expect(out).toMatch(/\x1b\\\r\nA lighthouse at dusk/);
  });

  it('iTerm2: a PNG of the picture, 52 × 26 cells, aspect kept', async () => {
    const out = await inPty(svcLine('image "a lighthouse at dusk" --seed 7 --format jpeg -o lighthouse.jpg'), { ...TERMINALS, TERM_PROGRAM: 'iTerm.app', LC_TERMINAL: 'iTerm2' });
    const [image, ...others] = itermImages(out);
    expect(others).toEqual([]);
    expect(image!.args).toMatchObject({ inline: '1', width: '52', height: '26', preserveAspectRatio: '1' });
    expect([image!.pixels.width, image!.pixels.height]).toEqual([520, 520]);
    expectSameColour(image!.pixels, await savedPicture('lighthouse.jpg'), 2);
  });

  it('a terminal that answers DA1 with sixel: asked once, sixel drawn, the terminal’s mode put back', async () => {
    // The terminal's answer, typed ahead: it waits in the terminal's input until svc reads it.
    const line = `${svcLine('image "a lighthouse at dusk" --seed 7 --format webp -o lighthouse.webp')}; stty -a`;
    const out = await inPty(line, TERMINALS, '\x1b[?62;4;22c');
    expect(out.split('\x1b[c')).toHaveLength(2);
    const [image] = sixelImages(out);
    expect([image!.pixels.width, image!.pixels.height]).toEqual([520, 520]);
    expectSameColour(image!.pixels, await savedPicture('lighthouse.webp'), 6);
    expect(out).toMatch(/(^|[ ;])icanon/m);
    expect(out).not.toMatch(/-icanon|-echo\b/);
  });

  it('a terminal that tells its cell size (6 × 13, xterm’s own font): the sixel picture is sized in its pixels', async () => {
    const line = `${svcLine('image "a lighthouse at dusk" --seed 7 -o small-cells.png')}; stty -a`;
    const out = await inPty(line, TERMINALS, '\x1b[6;13;6t\x1b[?62;4;22c');
    expect(out.split('\x1b[16t\x1b[?2;1;0S\x1b[c')).toHaveLength(2);
    const [image] = sixelImages(out);
    // Two thirds of 40 rows is 26, of 13 pixels: 338 high, and as wide (100 columns of 6 allow 600).
    expect([image!.pixels.width, image!.pixels.height]).toEqual([338, 338]);
    expectSameColour(image!.pixels, await savedPicture('small-cells.png'), 6);
    expect(out).not.toMatch(/-icanon|-echo\b/);
  });

  it('xterm, which tells no cell size by default: the cells worked out from its sixel area', async () => {
    // xterm -ti vt340 at 100 × 40 cells of 6 × 13: a text area of 600 × 520 pixels.
    const out = await inPty(svcLine('image "a lighthouse at dusk" --seed 7 -o xterm.png'), TERMINALS, '\x1b[?2;0;600;520S\x1b[?63;1;2;4;6;9;15;16;22;28c');
    const [image] = sixelImages(out);
    expect([image!.pixels.width, image!.pixels.height]).toEqual([338, 338]);
  });

  it('sixel asked for by name: the cell size is asked for too, and assumed when no answer comes', async () => {
    const told = await inPty(svcLine('image "a lighthouse at dusk" --seed 7 -o named.png --preview sixel'), TERMINALS, '\x1b[6;16;8t\x1b[?62;22c');
    expect([sixelImages(told)[0]!.pixels.width, sixelImages(told)[0]!.pixels.height]).toEqual([416, 416]);
    const silent = await inPty(svcLine('image "a lighthouse at dusk" --seed 7 -o named-silent.png --preview sixel'), TERMINALS);
    expect(silent).toContain('\x1b[16t\x1b[?2;1;0S\x1b[c');
    expect([sixelImages(silent)[0]!.pixels.width, sixelImages(silent)[0]!.pixels.height]).toEqual([520, 520]);
  });

  it('a terminal that does not answer: half blocks after the short wait, mode put back', async () => {
    const out = await inPty(`${svcLine('image "a lighthouse at dusk" -o quiet.png')}; stty -a`, TERMINALS);
    expect(out.split('\x1b[c')).toHaveLength(2);
    expect(sixelImages(out)).toEqual([]);
    // From the picture's first colour on (the spinner's last escapes share its first line).
    const drawn = out.slice(out.indexOf('\x1b[38;')).replaceAll('\r\n', '\n');
    expect(halfBlockPixels(drawn).width).toBe(52);
    expect(out).not.toMatch(/-icanon|-echo\b/);
  });

  it('a background job (`svc image … &`) asks the terminal nothing: never stopped by SIGTTOU', async () => {
    // `set -m`: the shell puts the job in a process group of its own, not the terminal's foreground.
    const out = await inPty(`set -m; ${svcLine('image "a lighthouse at dusk" -o background.png')} & wait $!; echo "[job $?]"`, TERMINALS);
    expect(out).toContain('[job 0]');
    expect(out).not.toContain('\x1b[c');
    expect(halfBlockPixels(out.slice(out.indexOf('\x1b[38;')).replaceAll('\r\n', '\n')).width).toBe(52);
  });

  it('kitty’s environment in a pipe, or with --preview none: no escape reaches the terminal', async () => {
    const out = await inPty(`${svcLine('image "a boat" -o boat.png')} | cat; ${svcLine('image "a boat" -o boat2.png --preview none')}`, { ...TERMINALS, TERM: 'xterm-kitty' });
    expect(kittyImages(out)).toEqual([]);
    expect(out).not.toContain('\x1b_G');
    expect(out.match(/A boat/g)).toHaveLength(2);
  });
});
