/**
 * Variants (issue 25, item 3): `svc image "prompt" -n 4` makes four images, one request each,
 * seeds S…S+3 with --seed (random otherwise, each recorded), saved as name-1…name-4, a line per
 * variant as it comes, one contact sheet on a terminal labelled with number and seed; a variant
 * that fails leaves the others saved; `/image -n` takes the same flag.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImageCommand } from '../../src/commands/chat/interactive/image-args.js';
import { labelLine } from '../../src/preview/contact-sheet.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';
import { png } from '../helpers/fake-images.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const env = useEmulatorSandbox('variants-key-0123456789');
const scripted = useScriptedServer();
const home = (...parts: string[]) => join(env.sandbox.home, ...parts);
type Info = { path: string; seed: number; prompt: string };
const infoOf = async (...files: string[]) => JSON.parse((await runSvc(['image', 'info', ...files, '--json'], env.sandbox)).stdout) as Info[];

describe('svc image -n', () => {
  it('--seed S -n 4: four requests with seeds S to S+3, saved as name-1 to name-4, each remakeable', async () => {
    const result = await runSvc(['image', 'a koi pond', '-n', '4', '--seed', '7', '-o', 'koi.png', '--json'], env.sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { images: Array<{ path: string; seed: number }> };
    expect(json.images.map((image) => [image.path.endsWith(`koi-${image.seed - 6}.png`), image.seed])).toEqual([[true, 7], [true, 8], [true, 9], [true, 10]]);
    const info = await infoOf('koi-1.png', 'koi-2.png', 'koi-3.png', 'koi-4.png');
    expect(info.map((entry) => entry.seed)).toEqual([7, 8, 9, 10]);
    // Each variant is the image its seed gives: the third one, made again alone, is the same bytes.
    expect((await runSvc(['image', 'a koi pond', '-n', '4', '--seed', '7', '-o', 'bare.png', '--no-metadata'], env.sandbox)).exitCode).toBe(0);
    expect((await runSvc(['image', 'a koi pond', '--seed', '9', '-o', 'koi-alone.png', '--no-metadata'], env.sandbox)).exitCode).toBe(0);
    expect(readFileSync(home('bare-3.png')).equals(readFileSync(home('koi-alone.png')))).toBe(true);
    expect(readFileSync(home('bare-2.png')).equals(readFileSync(home('koi-alone.png')))).toBe(false);
    // A line on stderr as each variant comes, then the saved lines with their seeds.
    expect(result.stderr.match(/^svc: variant \d of 4 came \(seed \d+\), \d of 4 done$/gm)).toHaveLength(4);
    expect(result.stderr).toContain('(seed 10, 1024×1024, ');
  });

  it('without --seed each variant gets its own random seed, recorded in its file', async () => {
    const result = await runSvc(['image', 'a glass bird', '-n', '3', '-o', 'bird.webp'], env.sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    const seeds = (await infoOf('bird-1.webp', 'bird-2.webp', 'bird-3.webp')).map((entry) => entry.seed);
    expect(new Set(seeds).size).toBe(3);
    expect(seeds.every((seed) => Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32)).toBe(true);
  });

  it('on a terminal: one contact sheet for all of them, labelled with number and seed', async () => {
    const result = await runSvc(['image', 'a tin robot', '-n', '2', '--seed', '40', '-o', 'robot.png', '--preview', 'blocks'], env.sandbox, { stdoutIsTTY: true, columns: 100, env: { COLORTERM: 'truecolor', NO_COLOR: '' } });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const labels = lines.filter((line) => line.includes('· seed'));
    expect(labels).toEqual([expect.stringMatching(/^1 · seed 40 +2 · seed 41$/)]);
    // The sheet's rows come before the labels, and it is one picture: no second sheet after them.
    const labelRow = lines.indexOf(labels[0]!);
    expect(lines.slice(0, labelRow).filter((line) => line.includes('▀')).length).toBeGreaterThan(5);
    expect(lines.slice(labelRow + 1).some((line) => line.includes('▀'))).toBe(false);
  });

  it('a numbered name already taken is found before any request: exit 2, nothing sent, the file kept', async () => {
    writeFileSync(home('pond-2.png'), 'mine');
    const result = await runSvc(['image', 'a koi pond', '-n', '3', '-o', 'pond.png', '--base-url', scripted.server.baseUrl], env.sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${home('pond-2.png')} already exists; it was kept, and nothing was sent`);
    expect(scripted.server.requests).toHaveLength(0);
    expect(readFileSync(home('pond-2.png'), 'utf8')).toBe('mine');
    expect(existsSync(home('pond-1.png'))).toBe(false);
  });

  it('refuses -n with -o -, and outside 1 to 8 (exit 2, nothing sent)', async () => {
    const toStdout = await runSvc(['image', 'x', '-n', '2', '-o', '-'], env.sandbox);
    expect(toStdout.exitCode).toBe(2);
    expect(toStdout.stderr).toContain('-o - writes one image: -n makes several');
    expect((await runSvc(['image', 'x', '-n', '9'], env.sandbox)).exitCode).toBe(2);
    expect((await runSvc(['image', 'x', '-n', '0'], env.sandbox)).exitCode).toBe(2);
  });
});

describe('a variant that fails', () => {
  it('leaves the others saved under their numbers, and its failure is the exit', async () => {
    const image = { created: 1, data: [{ b64_json: png(8, 8).toString('base64'), revised_prompt: 'r' }] };
    scripted.server.script(reply.json(200, image), reply.json(400, { error: { message: 'bad seed', type: 'invalid_request_error' } }), reply.json(200, image));
    const result = await runSvc(['image', 'a snail', '-n', '3', '--seed', '1', '-o', 'snail.png', '--no-metadata'], env.sandbox, { env: { SVC_BASE_URL: scripted.server.baseUrl, SVC_MAX_RETRIES: '0' } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('bad seed');
    const saved = ['snail-1.png', 'snail-2.png', 'snail-3.png'].filter((name) => existsSync(home(name)));
    expect(saved).toHaveLength(2);
    const seeds = scripted.server.requests.map((request) => (JSON.parse(request.body) as { seed: number }).seed).sort();
    expect(seeds).toEqual([1, 2, 3]);
  });
});

describe('the contact sheet label line and /image -n', () => {
  it('puts each label under its tile, cut before the next', () => {
    expect(labelLine(['1 · seed 7', '2 · seed 8'], [0, 500], 1000, 40)).toBe('1 · seed 7          2 · seed 8');
    expect(labelLine(['1 · seed 1234567890', '2'], [0, 100], 1000, 20)).toBe('1 2');
    // Eight tiles at 60 columns: no room for "seed", the numbers stay whole.
    const eight = Array.from({ length: 8 }, (_, i) => `${i + 1} · seed ${i + 1}`);
    expect(labelLine(eight, eight.map((_, i) => i * 125), 1000, 60)).toBe('1 · 1  2 · 2   3 · 3  4 · 4   5 · 5  6 · 6   7 · 7  8 · 8');
  });

  it('/image takes -n like svc image', () => {
    expect(parseImageCommand('-n 4 "a fox"')).toMatchObject({ words: ['a fox'], count: '4' });
  });
});
