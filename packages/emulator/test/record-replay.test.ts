/**
 * Record and replay over HTTP: an emulator started with `record` passes every request on to the
 * server behind it (here another emulator) and keeps each exchange in the cassette folder, the
 * key left out; one started with `replay` answers from that folder alone, byte for byte. svc as
 * the client of both is tested in svc's test/commands/emulator-record-replay.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../src/server.js';
import { chatBody } from './helpers/http.js';

const KEY = 'sk-real-secret-key-0123456789';

/** Run `use` with an emulator started with `options`, closed after it whatever happens. */
async function withEmulator<T>(options: EmulatorOptions, use: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    return await use(emulator);
  } finally {
    await emulator.close();
  }
}

/** A fresh cassette folder for `use`, removed after it. */
async function withCassette<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'emulator-cassette-'));
  try {
    return await use(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** Status, content type and body text of a POST to the chat endpoint of `baseUrl`. */
async function postChat(baseUrl: string, body: unknown): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('record, then replay', () => {
  const asks = [chatBody({ stream: true, temperature: 0 }), chatBody({ temperature: 0, messages: [{ role: 'user', content: 'one line please' }] })];

  it('records the answers unchanged, keeps one file per exchange without the key, and replays them byte for byte', async () => {
    await withCassette(async (folder) => {
      const recorded = await withEmulator({ apiKeys: [KEY] }, (upstream) =>
        withEmulator({ record: { upstream: upstream.baseUrl, dir: folder } }, async (recorder) => {
          const answers = [];
          for (const ask of asks) answers.push(await postChat(recorder.baseUrl, ask));
          return answers;
        }),
      );
      expect(recorded.map((answer) => [answer.status, answer.type])).toEqual([[200, 'text/event-stream'], [200, 'application/json']]);
      expect(recorded[0]!.text.endsWith('data: [DONE]\n\n')).toBe(true);

      const files = readdirSync(folder);
      expect(files).toHaveLength(2);
      for (const file of files) {
        const text = readFileSync(join(folder, file), 'utf8');
        expect(text).not.toContain(KEY);
        expect(JSON.parse(text)).toMatchObject({ request: { method: 'POST', path: '/v1/chat/completions' } });
      }

      // The server behind the recorder is gone: every answer comes from the folder.
      const replayed = await withEmulator({ apiKeys: [KEY], replay: { dir: folder, timing: false } }, async (player) => {
        const answers = [];
        for (const ask of asks) answers.push(await postChat(player.baseUrl, ask));
        return answers;
      });
      expect(replayed).toEqual(recorded);
    });
  });

  it('a request never recorded is a 404 not_recorded naming the folder and the closest recorded request', async () => {
    await withCassette(async (folder) => {
      await withEmulator({ apiKeys: [KEY] }, (upstream) => withEmulator({ record: { upstream: upstream.baseUrl, dir: folder } }, (recorder) => postChat(recorder.baseUrl, asks[1])));
      const missing = await withEmulator({ apiKeys: [KEY], replay: { dir: folder, timing: false } }, (player) => postChat(player.baseUrl, chatBody({ messages: [{ role: 'user', content: 'never asked' }] })));
      expect(missing.status).toBe(404);
      const { error } = JSON.parse(missing.text) as { error: { code: string; message: string } };
      expect(error.code).toBe('not_recorded');
      expect(error.message).toContain(`No recording in ${folder} for POST /v1/chat/completions; the closest recorded request is`);
    });
  });

  it('a damaged cassette file is named in the answer to the request it held', async () => {
    await withCassette(async (folder) => {
      writeFileSync(join(folder, 'post-v1_chat_completions-0123456789ab.json'), '{"request": {"method": "POST", "pa');
      const answer = await withEmulator({ apiKeys: [KEY], replay: { dir: folder, timing: false } }, (player) => postChat(player.baseUrl, chatBody()));
      expect(answer.status).toBe(404);
      expect(answer.text).toContain('1 recorded file(s) could not be read: post-v1_chat_completions-0123456789ab.json (not valid JSON)');
    });
  });
});

describe('a body that is not text', () => {
  it('an image file fetched through the recorder comes back from the replay byte for byte', async () => {
    const bytesOf = async (url: string) => Buffer.from(await (await fetch(url, { headers: auth })).arrayBuffer());
    await withCassette(async (folder) => {
      const { path, original } = await withEmulator({ apiKeys: [KEY] }, (upstream) =>
        withEmulator({ record: { upstream: upstream.baseUrl, dir: folder } }, async (recorder) => {
          const made = await fetch(`${recorder.baseUrl}/v1/images/generations`, { method: 'POST', headers: auth, body: JSON.stringify({ prompt: 'a lighthouse', seed: 3, response_format: 'url' }) });
          const imagePath = new URL(((await made.json()) as { data: Array<{ url: string }> }).data[0]!.url).pathname;
          return { path: imagePath, original: await bytesOf(`${recorder.baseUrl}${imagePath}`) };
        }),
      );
      expect(original.subarray(1, 4).toString()).toBe('PNG');
      const replayed = await withEmulator({ apiKeys: [KEY], replay: { dir: folder, timing: false } }, (player) => bytesOf(`${player.baseUrl}${path}`));
      expect(replayed.equals(original)).toBe(true);
    });
  });
});
