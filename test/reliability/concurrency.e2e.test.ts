/** Many svc processes at once on the same conversation and the same output file. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { png } from '../helpers/fake-images.js';
import { hasStackTrace, svc } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'concurrency-key-0123456789abcdef';

// The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
const setup = useEmulatorSandbox(KEY, {}, { SVC_IMAGE_METADATA: 'off' });
// The image race is about the file, not the picture: a small PNG, the same for every process,
// instead of twenty megapixel pictures drawn by the emulator.
const scripted = useScriptedServer();
const IMAGE = png(64, 36);
// Eight at once on two cores keeps several of them inside the same few milliseconds of locking
// and renaming; each one more costs a Node start-up and adds no new kind of overlap.
const PROCESSES = 8;

describe(`${PROCESSES} processes at once`, () => {
  it('svc chat --session same: a valid store with every turn', async () => {
    const results = await Promise.all(Array.from({ length: PROCESSES }, (_, n) => svc(['chat', '--session', 'same', `question number ${n}`], setup.sandbox, { timeout: 60_000 })));
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    const store = new ConversationStore(setup.sandbox.env);
    const lines = readFileSync(store.pathOf('same'), 'utf8').trim().split('\n');
    expect(lines.every((line) => JSON.parse(line))).toBe(true);
    const users = store.read('same').turns.map((turn) => turn.user).sort();
    expect(users).toEqual(Array.from({ length: PROCESSES }, (_, n) => `question number ${n}`).sort());
  }, 90_000);

  it('svc image to the same -o without --force: exactly one file, and a clear error for each of the others', async () => {
    scripted.server.script(reply.repeat(reply.json(200, { created: 1, data: [{ b64_json: IMAGE.toString('base64'), revised_prompt: 'a race' }] })));
    const env = { ...setup.sandbox.env, SVC_BASE_URL: scripted.server.baseUrl };
    const results = await Promise.all(Array.from({ length: PROCESSES }, () => svc(['image', 'a race', '-o', 'race.png'], { ...setup.sandbox, env }, { timeout: 60_000 })));
    const ok = results.filter((result) => result.exitCode === 0);
    const refused = results.filter((result) => result.exitCode !== 0);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(PROCESSES - 1);
    for (const result of refused) {
      // Found before sending (a usage error, 2) or only when saving (the work lost, 1).
      expect([1, 2]).toContain(result.exitCode);
      expect(result.stderr).toContain('already exists');
      expect(hasStackTrace(result.stderr)).toBe(false);
    }
    const pngs = readdirSync(setup.sandbox.home).filter((name) => name.includes('race') || name.endsWith('.part'));
    expect(pngs).toEqual(['race.png']);
    expect(readFileSync(join(setup.sandbox.home, 'race.png')).equals(IMAGE)).toBe(true);
  }, 90_000);
});
