/**
 * The preview's decoders and encoders load only when a preview is shown: `svc image` in a pipe,
 * with --json or with --preview none never imports a decoder (png-rgb, pngjs, the WebAssembly
 * codecs), the preview module, or what readies it while the image is made (preload, warm-up);
 * start-up and memory are budgets, bench/. Checked by what the process imported.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodePng } from '@svc/emulator/images';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('pngjs', async (importOriginal) => {
  loaded.add('pngjs');
  return importOriginal();
});
vi.mock('@jsquash/jpeg/decode.js', async (importOriginal) => {
  loaded.add('@jsquash/jpeg');
  return importOriginal();
});
vi.mock('../../src/images/png-rgb.js', async (importOriginal) => {
  loaded.add('png-rgb');
  return importOriginal();
});
vi.mock('../../src/preview/show.js', async (importOriginal) => {
  loaded.add('preview');
  return importOriginal();
});
vi.mock('../../src/preview/preload.js', async (importOriginal) => {
  loaded.add('preload');
  return importOriginal();
});
vi.mock('../../src/preview/warm-up.js', async (importOriginal) => {
  loaded.add('warm-up');
  return importOriginal();
});

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  const file = await encodePng(new Uint8ClampedArray(40 * 30 * 4).fill(128), 40, 30);
  const grey = reply.json(200, { created: 1, data: [{ b64_json: file.toString('base64'), revised_prompt: 'grey' }] });
  // Four runs below, one answer each.
  server = await startScriptedServer(grey, grey, grey, grey);
  sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'k' });
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

describe('what svc image loads', () => {
  it('nothing of the preview in a pipe, with --json or with --preview none; all of it once one is shown', async () => {
    const env = { TERM: 'xterm-kitty', NO_COLOR: undefined };
    expect((await runSvc(['image', 'grey', '-o', 'a.png'], sandbox, { env })).exitCode).toBe(0);
    expect((await runSvc(['image', 'grey', '-o', 'b.png', '--json'], sandbox, { env, stdoutIsTTY: true })).exitCode).toBe(0);
    expect((await runSvc(['image', 'grey', '-o', 'c.png', '--preview', 'none'], sandbox, { env, stdoutIsTTY: true })).exitCode).toBe(0);
    expect([...loaded]).toEqual([]);
    const shown = await runSvc(['image', 'grey', '-o', 'd.png'], sandbox, { env, stdoutIsTTY: true });
    expect(shown.stdout).toContain('\x1b_G');
    // An 8-bit RGB PNG takes the fast path: not even pngjs is loaded for it.
    expect([...loaded].sort()).toEqual(['png-rgb', 'preload', 'preview', 'warm-up']);
  });
});
