/**
 * `svc image info` and `svc image again` as commands of their own (issue 36, items 6 and 8): a
 * missing file or a name that is no image file is exit 2 naming it, with nothing sent (a typo
 * never costs a paid generation), and unquoted prompt words after them say how to quote; a quoted
 * prompt starting with the word is still a prompt. `again` saves beside its file (out.png →
 * out-2.png), and `svc image --json` gives each file's seed, width and height.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathsBeside } from '../../src/images/file-names.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'image-subcommands-key-0123';
const env = useEmulatorSandbox(KEY);
const home = (...parts: string[]) => join(env.sandbox.home, ...parts);

interface JsonImage {
  path: string;
  seed: number | null;
  width: number | null;
  height: number | null;
  bytes: number;
}

describe('a word that is no image file: exit 2, naming it, nothing sent', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    // Answers nothing: any request svc sent would fail the test (assertAllUsed).
    server = await startScriptedServer();
  });
  afterAll(() => server.close());
  const run = (...words: string[]) => runSvc(['image', ...words, '--base-url', server.baseUrl], env.sandbox);

  it.each([
    [['info'], "svc: error: missing required argument 'file'\n"],
    [['again'], "svc: error: missing required argument 'file'\n"],
    [['info', 'koi-2.jpgg'], 'svc: error: svc image info: koi-2.jpgg is not an image file (.png, .jpg, .jpeg, .webp); nothing was sent\n  svc image info reads files svc saved\n'],
    [['again', 'koi-2.jpgg'], 'svc: error: svc image again: koi-2.jpgg is not an image file (.png, .jpg, .jpeg, .webp); nothing was sent\n  svc image again reads files svc saved\n'],
    [['info', 'koi.png', 'notes/'], 'svc: error: svc image info: notes/ is not an image file (.png, .jpg, .jpeg, .webp); nothing was sent\n  svc image info reads files svc saved\n'],
    [['info', 'graphic', 'of', 'a', 'bee'], 'svc: error: svc image info: graphic is not an image file (.png, .jpg, .jpeg, .webp); nothing was sent\n  to make an image of these words, quote them: svc image "info graphic of a bee"\n'],
    [['again', 'a', 'cat', 'says', '"hi"'], 'svc: error: svc image again: a is not an image file (.png, .jpg, .jpeg, .webp); nothing was sent\n  to make an image of these words, quote them: svc image "again a cat says \\"hi\\""\n'],
    [['again', 'one.png', 'two.png'], 'svc: error: svc image again takes one file\n  svc image again one.png --seed 7\n'],
  ])('svc image %j', async (words, stderr) => {
    const result = await run(...words);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.replace('(run with --help for usage)\n', '')).toBe(stderr);
    expect(server.requests).toEqual([]);
    expect(server.modelListAsks).toEqual([]);
  });

  it('a quoted prompt that starts with "info" is a prompt', async () => {
    const made = await runSvc(['image', 'info graphic of a bee', '--dry-run'], env.sandbox);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toContain('"prompt":"info graphic of a bee"');
  });

  it('each has a help page of its own', async () => {
    const info = await runSvc(['image', 'info', '--help'], env.sandbox);
    expect(info.stdout).toMatch(/^Usage: svc image info \[options\] <file\.\.\.>\n/);
    expect(info.stdout).toContain('--json');
    const again = await runSvc(['image', 'again', '--help'], env.sandbox);
    expect(again.stdout).toMatch(/^Usage: svc image again \[options\] <file>\n/);
    expect(again.stdout).toContain('--seed <n>');
    const image = await runSvc(['image', '--help'], env.sandbox);
    expect(image.stdout).toMatch(/Commands:\n\s+info \[options\] <file\.\.\.>\s+show the prompt, model and seed saved in image files\n\s+again \[options\] <file>\s+make an image again/);
  });
});

describe('svc image again saves beside its file', () => {
  const json = async (...words: string[]): Promise<JsonImage[]> => {
    const result = await runSvc(['image', ...words, '--json'], env.sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { images: JsonImage[] }).images;
  };

  it('out.png → out-2.png, then out-3.png; out-2.png goes on with the series; flags before `again` count', async () => {
    mkdirSync(home('again'));
    await json('a paper crane', '--seed', '4', '-o', 'again/out.png');
    const [second] = await json('again', 'again/out.png');
    expect(second!.path).toBe(home('again', 'out-2.png'));
    const [third] = await json('again', 'again/out.png', '--seed', '4');
    expect(third).toMatchObject({ path: home('again', 'out-3.png'), seed: 4 });
    const [fourth] = await json('--seed', '9', 'again', 'again/out-2.png');
    expect(fourth).toMatchObject({ path: home('again', 'out-4.png'), seed: 9 });
    const asWebp = await json('again', 'again/out.png', '--format', 'webp', '-n', '2', '--seed', '20');
    expect(asWebp.map((image) => [image.path, image.seed])).toEqual([[home('again', 'out-5-1.webp'), 20], [home('again', 'out-5-2.webp'), 21]]);
    expect(readdirSync(home('again')).sort()).toEqual(['out-2.png', 'out-3.png', 'out-4.png', 'out-5-1.webp', 'out-5-2.webp', 'out.png']);
  });

  it('-o still says where', async () => {
    mkdirSync(home('elsewhere'));
    await json('a kite', '-o', 'kite.png');
    const [made] = await json('again', 'kite.png', '-o', 'elsewhere/');
    expect(made!.path).toBe(home('elsewhere', 'a-kite.png'));
  });
});

describe('svc image --json', () => {
  it('gives each file its seed (null when none was sent), width and height', async () => {
    const plain = await runSvc(['image', 'a red fox', '--aspect', '16:9', '-o', 'fox.png', '--json'], env.sandbox);
    const [fox] = (JSON.parse(plain.stdout) as { images: JsonImage[] }).images;
    expect(fox).toMatchObject({ path: home('fox.png'), seed: null, width: 1344, height: 756 });
    const seeded = await runSvc(['image', 'a red fox', '--aspect', '9:16', '--seed', '3', '-n', '2', '-o', 'foxes.webp', '--json'], env.sandbox);
    const images = (JSON.parse(seeded.stdout) as { images: JsonImage[] }).images;
    expect(images.map(({ seed, width, height }) => ({ seed, width, height }))).toEqual([{ seed: 3, width: 756, height: 1344 }, { seed: 4, width: 756, height: 1344 }]);
  });
});

describe('pathsBeside', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-beside-'));
    for (const name of ['out.png', 'out-2.png', 'photo-2024.jpg', 'shot-7.png', 'shot.png']) writeFileSync(join(dir, name), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['out.png', 'png', 1, ['out-3.png']],
    ['out-2.png', 'png', 1, ['out-3.png']],
    ['out.png', 'webp', 2, ['out-3-1.webp', 'out-3-2.webp']],
    // No photo.jpg beside it: 2024 is part of the name, not a number of a series.
    ['photo-2024.jpg', 'jpeg', 1, ['photo-2024-2.jpg']],
    ['shot-7.png', 'png', 1, ['shot-2.png']],
  ] as const)('%s as %s, %i image(s) → %j', (file, format, count, expected) => {
    expect(pathsBeside(join(dir, file), format, count)).toEqual(expected.map((name) => join(dir, name)));
  });
});
