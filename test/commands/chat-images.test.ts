/**
 * `svc chat -f picture` in-process: real image files of each format (PNG from svc's own writer,
 * JPEG and WebP from the emulator's encoders, GIF from omggif's writer) go as `image_url` parts
 * after the words; the emulator says what it saw, the strict scripted server shows the exact
 * request; the conversation keeps each image once in svc's data folder and names it by hash,
 * never in base64; --continue sends it again; refusals are exit 2 with nothing sent.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { GifWriter } from 'omggif';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeJpeg, encodeWebp } from '@svc/emulator/images';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const RED = [220, 30, 30];

/** A picture all one colour. */
function solid(width: number, height: number, rgb = RED): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i += 1) data.set([...rgb, 255], i * 4);
  return data;
}

function pngOf(width: number, height: number): Buffer {
  return pngFile(width, height, false, deflateSync(subFilteredRows(new Uint8Array(solid(width, height)), width, height, false)));
}

function gifOf(width: number, height: number): Buffer {
  const buffer = Buffer.alloc(width * height + 4096);
  const writer = new GifWriter(buffer, width, height, { palette: [0xdc1e1e, 0x1e1edc] });
  writer.addFrame(0, 0, width, height, new Array<number>(width * height).fill(0));
  return buffer.subarray(0, writer.end());
}

const files = async (): Promise<Record<string, Buffer>> => ({
  'red.png': pngOf(40, 30),
  'red.jpg': await encodeJpeg(solid(40, 30), 40, 30),
  'red.webp': await encodeWebp(solid(40, 30), 40, 30),
  'red.gif': gifOf(40, 30),
});

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const put = (sandbox: Sandbox, name: string, bytes: Buffer | string): void => {
  mkdirSync(join(sandbox.home, name, '..'), { recursive: true });
  writeFileSync(join(sandbox.home, name), bytes);
};

describe('images against the emulator: it describes what arrived', () => {
  let emulator: RunningEmulator;
  let sandbox: Sandbox;
  beforeEach(async () => {
    emulator = await startEmulator({ apiKeys: ['images-key-0123456789'] });
    sandbox = makeSandbox({ SVC_BASE_URL: emulator.baseUrl, SVC_API_KEY: 'images-key-0123456789', SVC_MAX_RETRIES: '0' });
  });
  afterEach(async () => {
    await emulator.close();
    sandbox.cleanup();
  });

  it.each(['png', 'jpg', 'webp', 'gif'])('a %s file told by its bytes (named .bin)', async (ext) => {
    put(sandbox, 'picture.bin', (await files())[`red.${ext}`]!);
    const result = await runSvc(['chat', '-f', 'picture.bin', 'what is this?'], sandbox);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const format = { png: 'PNG', jpg: 'JPEG', webp: 'WebP', gif: 'GIF' }[ext];
    // A GIF that does not move goes as it is, as does every picture within 2,048 pixels.
    expect(result.stdout).toContain(`a 40×30 ${format} image, entirely red`);
  });

  it('refuses content parts on a text-only server: exit 4, saying it takes no images', async () => {
    const textOnly = await startEmulator({ apiKeys: ['images-key-0123456789'], textOnly: true });
    try {
      put(sandbox, 'red.png', pngOf(8, 8));
      const result = await runSvc(['chat', '-f', 'red.png', 'what is this?'], sandbox, { env: { SVC_BASE_URL: textOnly.baseUrl } });
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toMatch(/^svc: error: .*this server or model does not take images/m);
    } finally {
      await textOnly.close();
    }
  });
});

describe('images: the exact request, the conversation file, refusals', () => {
  const context = useScriptedServer();
  let sandbox: Sandbox;
  const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
  const sent = () => context.server.requests.map((request) => (JSON.parse(request.body) as { messages: Array<{ role: string; content: unknown }> }).messages);

  beforeEach(() => {
    sandbox = makeSandbox({ SVC_BASE_URL: context.server.baseUrl, SVC_API_KEY: 'images-key-0123456789', SVC_MAX_RETRIES: '0' });
  });
  afterEach(() => sandbox.cleanup());

  it('sends the words and text files as one text part, then each image as a data: URL, in order', async () => {
    context.server.script(answer('ok'));
    const all = await files();
    put(sandbox, 'a.jpg', all['red.jpg']!);
    put(sandbox, 'b.webp', all['red.webp']!);
    put(sandbox, 'notes.md', 'first\n');
    const result = await runSvc(['chat', '-f', 'a.jpg', '-f', 'notes.md', '-f', 'b.webp', '--image-detail', 'low', 'compare'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(sent()).toEqual([[{
      role: 'user',
      content: [
        { type: 'text', text: 'compare\n\n```notes.md\nfirst\n```' },
        { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${all['red.jpg']!.toString('base64')}`, detail: 'low' } },
        { type: 'image_url', image_url: { url: `data:image/webp;base64,${all['red.webp']!.toString('base64')}`, detail: 'low' } },
      ],
    }]]);
  });

  it('sends an http(s) address as it is, downloading nothing, and an image alone is a prompt', async () => {
    context.server.script(answer('ok'));
    const result = await runSvc(['chat', '-f', 'https://example.com/x.png'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(sent()[0]).toEqual([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/x.png' } }] }]);
  });

  it('scales a picture over imageInputMax down before sending', async () => {
    context.server.script(answer('ok'));
    put(sandbox, 'wide.png', pngOf(400, 100));
    expect((await runSvc(['chat', '-f', 'wide.png', 'q'], sandbox, { env: { SVC_IMAGE_INPUT_MAX: '200' } })).exitCode).toBe(0);
    const part = (sent()[0]![0]!.content as Array<{ image_url?: { url: string } }>)[1]!;
    const bytes = Buffer.from(part.image_url!.url.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([200, 50]);
  });

  it('keeps each image once under its hash; the conversation file holds no base64; --continue sends it again', async () => {
    context.server.script(answer('A1'), answer('A2'), answer('A3'));
    const png = pngOf(40, 30);
    put(sandbox, 'red.png', png);
    expect((await runSvc(['chat', '--session', 'pics', '-f', 'red.png', 'what?'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['chat', '--session', 'pics', '-f', 'red.png', 'again?'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['chat', '--continue', 'and now?'], sandbox)).exitCode).toBe(0);
    const store = new ConversationStore(sandbox.env);
    const kept = readdirSync(join(store.dataDir, 'images'));
    expect(kept).toEqual([`${sha(png)}.png`]);
    const file = readFileSync(store.pathOf('pics'), 'utf8');
    expect(file).not.toContain(png.toString('base64').slice(0, 40));
    expect(file).not.toContain('data:image');
    expect(store.read('pics').turns[0]!.images).toEqual([{ name: 'red.png', sha256: sha(png), ext: 'png', bytes: png.length, width: 40, height: 30 }]);
    const url = `data:image/png;base64,${png.toString('base64')}`;
    expect(sent()[2]!.slice(0, 2)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'what?' }, { type: 'image_url', image_url: { url } }] },
      { role: 'assistant', content: 'A1' },
    ]);
  });

  it('a 400 naming image_url to a message with images: exit 4, saying the server or model takes no images', async () => {
    context.server.script(reply.json(400, { error: { message: "unknown content part type 'image_url'", type: 'invalid_request_error' } }));
    put(sandbox, 'red.png', pngOf(8, 8));
    const result = await runSvc(['chat', '--no-save', '-f', 'red.png', 'q'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe("svc: error: this server or model does not take images (it said: unknown content part type 'image_url') (HTTP 400)\n  ask without the images, or choose a model that takes them (--model, /model)\n");
  });

  it('a 400 naming content to a message of text alone is the service\'s own words, not about images', async () => {
    context.server.script(reply.json(400, { error: { message: 'content must not be empty', type: 'invalid_request_error' } }));
    const result = await runSvc(['chat', '--no-save', 'q'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).not.toContain('images');
    expect(result.stderr).toContain('content must not be empty');
  });

  it('sessions show lists each image by name, size and pixels; --json sends it back as it was sent', async () => {
    context.server.script(answer('A red square.'));
    const png = pngOf(40, 30);
    put(sandbox, 'red.png', png);
    await runSvc(['chat', '--session', 'look', '-f', 'red.png', '-f', 'https://example.com/x.png', 'what?'], sandbox);
    const shown = await runSvc(['sessions', 'show', 'look'], sandbox);
    expect(shown.stdout).toBe(`[user]\nwhat?\n[image red.png, ${png.length} B, 40×30]\n[image https://example.com/x.png]\n\n[assistant]\nA red square.\n`);
    const json = await runSvc(['sessions', 'show', 'look', '--json'], sandbox);
    expect(JSON.parse(json.stdout)).toEqual(sent()[0]!.slice(0, 1).concat([{ role: 'assistant', content: 'A red square.' }]));
  });

  it('--dry-run shows each data: URL as its type and size', async () => {
    put(sandbox, 'red.png', pngOf(40, 30));
    const result = await runSvc(['chat', '--dry-run', '-f', 'red.png', 'q'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`"image_url":{"url":"data:image/png;base64,… (${pngOf(40, 30).length} B)"}`);
    expect(result.stdout).not.toContain('iVBOR');
  });

  it('refuses an unreadable picture, and one over 20 MiB: exit 2 naming it, nothing sent', async () => {
    put(sandbox, 'cut.png', pngOf(40, 30).subarray(0, 20));
    const cut = await runSvc(['chat', '-f', 'cut.png', 'q'], sandbox);
    expect(cut.exitCode).toBe(2);
    expect(cut.stderr).toMatch(/^svc: error: -f cut\.png could not be read as a PNG image: damaged, or cut short; nothing was sent\n/);
    const huge = Buffer.alloc(20 * 1024 * 1024 + 1);
    pngOf(4, 4).copy(huge);
    put(sandbox, 'huge.png', huge);
    const big = await runSvc(['chat', '-f', 'huge.png', 'q'], sandbox);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toMatch(/^svc: error: -f huge\.png is larger than 20 MiB, the most svc sends of one image; nothing was sent\n/);
    expect(context.server.requests).toEqual([]);
  });
});
