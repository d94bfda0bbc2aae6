/**
 * Images you can trace (issue 25, items 1 and 2), as a user meets them against the emulator:
 * every image svc saves carries its prompt, model and seed (svc image in each format, /image's
 * core, batch); --no-metadata and the imageMetadata setting keep the bytes exactly as sent;
 * `svc image info` reads the record back (a table, or --json; a file without one is exit 1);
 * `svc image again` sends the same request with a new seed and saves beside the file (boat-2.webp). exiftool,
 * where installed (CI installs it), reads the prompt and seed back from all three formats.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';

const KEY = 'image-metadata-key-0123';
const env = useEmulatorSandbox(KEY);
const home = (...parts: string[]) => join(env.sandbox.home, ...parts);
const hasExiftool = spawnSync('exiftool', ['-ver']).status === 0;

/** The image the emulator sends for this request, as it sends it. */
async function asSent(body: object): Promise<Buffer> {
  const answer = await fetch(`${env.emulator.baseUrl}/v1/images/generations`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await answer.json()) as { data: Array<{ b64_json: string }> };
  return Buffer.from(json.data[0]!.b64_json, 'base64');
}

describe('svc image saves its provenance in the file', () => {
  it.each([['png', 'png'], ['jpg', 'jpeg'], ['webp', 'webp']])('%s: info shows prompt, negative, model, seed, aspect and the real size', async (ext, format) => {
    const name = `fox-${ext}.${ext}`;
    const made = await runSvc(['image', 'a red fox in snow', '--seed', '42', '--aspect', '16:9', '--negative', 'cars', '-o', name], env.sandbox);
    expect(made.exitCode, made.stderr).toBe(0);
    const info = await runSvc(['image', 'info', name, '--json'], env.sandbox);
    expect(info.exitCode, info.stderr).toBe(0);
    const [shown] = JSON.parse(info.stdout) as Array<Record<string, unknown>>;
    expect(shown).toMatchObject({ path: name, format, width: 1344, height: 756, prompt: 'a red fox in snow', negative_prompt: 'cars', model: 'svc-vision', seed: 42, aspect_ratio: '16:9' });
    expect(shown!.revised_prompt).toBe(made.stdout.trim());
    expect(shown!.bytes).toBe(readFileSync(home(name)).length);
    if (hasExiftool) {
      const read = JSON.parse(execFileSync('exiftool', ['-json', '-XMP-svc:Prompt', '-XMP-svc:Seed', home(name)], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
      expect(read[0]).toMatchObject({ Prompt: 'a red fox in snow', Seed: 42 });
    }
  });

  it('never writes the key or the base URL into the file', async () => {
    await runSvc(['image', 'a lighthouse', '-o', 'lighthouse.png'], env.sandbox);
    const bytes = readFileSync(home('lighthouse.png')).toString('latin1');
    expect(bytes).toContain('a lighthouse');
    expect(bytes).not.toContain(KEY);
    expect(bytes).not.toContain(env.emulator.baseUrl);
  });

  it('--no-metadata and the imageMetadata setting keep the bytes exactly as the service sent them', async () => {
    const sent = await asSent({ prompt: 'a quiet harbour', seed: 5, output_format: 'jpeg' });
    expect((await runSvc(['image', 'a quiet harbour', '--seed', '5', '--no-metadata', '-o', 'plain.jpg'], env.sandbox)).exitCode).toBe(0);
    expect(readFileSync(home('plain.jpg')).equals(sent)).toBe(true);
    expect((await runSvc(['config', 'set', 'imageMetadata', 'off'], env.sandbox)).exitCode).toBe(0);
    expect((await runSvc(['image', 'a quiet harbour', '--seed', '5', '-o', 'plain2.jpg'], env.sandbox)).exitCode).toBe(0);
    await runSvc(['config', 'unset', 'imageMetadata'], env.sandbox);
    expect(readFileSync(home('plain2.jpg')).equals(sent)).toBe(true);
    const info = await runSvc(['image', 'info', 'plain.jpg'], env.sandbox);
    expect(info.exitCode).toBe(1);
    expect(info.stderr).toBe('svc: plain.jpg has no svc metadata (saved with --no-metadata, or not by svc)\n');
  });

  it('info prints a short block per file; a file without a record is named and the exit is 1', async () => {
    await runSvc(['image', 'a tin robot', '--seed', '3', '-o', 'robot.png'], env.sandbox);
    writeFileSync(home('notes.png'), 'not an image');
    const info = await runSvc(['image', 'info', 'robot.png', 'notes.png'], env.sandbox);
    expect(info.exitCode).toBe(1);
    expect(info.stdout).toMatch(/^robot\.png\n {2}prompt {10}a tin robot\n {2}revised prompt {2}.+\n {2}model {11}svc-vision\n {2}seed {12}3\n {2}format {10}png \(1024×1024, [\d.]+ KiB\)\n {2}made {12}\d{4}-\d\d-\d\dT.+ by svc \d+\.\d+\.\d+\n$/);
    expect(info.stderr).toContain('svc: notes.png is not a PNG, JPEG or WebP image');
    // A file that is not there is named too, before or after the others, which are still shown.
    for (const files of [['missing.png', 'robot.png'], ['robot.png', 'missing.png']]) {
      const withMissing = await runSvc(['image', 'info', ...files, '--json'], env.sandbox);
      expect(withMissing.exitCode).toBe(1);
      expect((JSON.parse(withMissing.stdout) as Array<{ path: string }>).map((entry) => entry.path)).toEqual(['robot.png']);
      expect(withMissing.stderr).toContain('svc: error: cannot read missing.png: ');
    }
  });

  it('a record holding escape sequences is neutralised on a terminal', async () => {
    await runSvc(['image', 'a red \u001b]0;owned\u0007 kite', '-o', 'kite.png'], env.sandbox);
    const info = await runSvc(['image', 'info', 'kite.png'], env.sandbox, { stdoutIsTTY: true });
    expect(info.stdout).not.toContain('\u001b');
  });
});

describe('svc image again', () => {
  it('sends the same request with a new seed and saves beside the file; --seed asks for one', async () => {
    mkdirSync(home('shots'), { recursive: true });
    expect((await runSvc(['image', 'a paper boat', '--seed', '11', '--aspect', '4:3', '--format', 'webp', '-o', 'shots/boat.webp'], env.sandbox)).exitCode).toBe(0);
    const again = await runSvc(['image', 'again', 'shots/boat.webp'], env.sandbox);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/again with a new seed, \d+ \(--seed 11 asks for the same one\)/);
    const files = readdirSync(home('shots')).sort();
    expect(files).toEqual(['boat-2.webp', 'boat.webp']);
    const [remade] = JSON.parse((await runSvc(['image', 'info', 'shots/boat-2.webp', '--json'], env.sandbox)).stdout) as Array<Record<string, unknown>>;
    expect(remade).toMatchObject({ prompt: 'a paper boat', aspect_ratio: '4:3', format: 'webp', width: 1152, height: 864 });
    expect(remade!.seed).not.toBe(11);

    const same = await runSvc(['image', 'again', 'shots/boat.webp', '--seed', '11', '-o', 'shots/boat-again.webp'], env.sandbox);
    expect(same.exitCode, same.stderr).toBe(0);
    const [first, second] = await Promise.all(['boat.webp', 'boat-again.webp'].map(async (name) => JSON.parse((await runSvc(['image', 'info', `shots/${name}`, '--json'], env.sandbox)).stdout) as Array<{ revised_prompt: string; seed: number }>));
    expect(second![0]!.seed).toBe(11);
    expect(second![0]!.revised_prompt).toBe(first![0]!.revised_prompt);
  });

  it('a file without a record: one clear line, exit 1, nothing sent', async () => {
    await runSvc(['image', 'x', '--no-metadata', '-o', 'bare.png'], env.sandbox);
    const again = await runSvc(['image', 'again', 'bare.png'], env.sandbox);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('bare.png has no svc metadata');
  });
});

describe('svc batch saves provenance too', () => {
  it('each image of a batch carries its own prompt and seed; --no-metadata keeps them bare', async () => {
    const line = (id: string, prompt: string, seed: number) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/images/generations', body: { prompt, seed } });
    mkdirSync(home('batch'), { recursive: true });
    writeFileSync(home('batch', 'in.jsonl'), `${line('one', 'a snail', 1)}\n${line('two', 'a crab', 2)}\n`);
    expect((await runSvc(['batch', 'batch/in.jsonl', '-o', 'batch/out.jsonl'], env.sandbox)).exitCode).toBe(0);
    const info = JSON.parse((await runSvc(['image', 'info', 'batch/one.png', 'batch/two.png', '--json'], env.sandbox)).stdout) as Array<{ prompt: string; seed: number }>;
    expect(info.map((entry) => [entry.prompt, entry.seed])).toEqual([['a snail', 1], ['a crab', 2]]);
    writeFileSync(home('batch', 'bare.jsonl'), `${line('three', 'a gull', 3)}\n`);
    expect((await runSvc(['batch', 'batch/bare.jsonl', '-o', 'batch/bare-out.jsonl', '--no-metadata'], env.sandbox)).exitCode).toBe(0);
    expect(readFileSync(home('batch', 'three.png')).equals(await asSent({ prompt: 'a gull', seed: 3 }))).toBe(true);
  });
});
