/** `svc image` (in-process) against a scripted server: the body sent, saving rules, and bad answers. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { jpeg, png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const PNG = Buffer.concat([png(1344, 756), Buffer.from('rest of the image')]);
const answer = (...images: Array<{ bytes: Buffer; revised?: string }>) =>
  reply.json(200, {
    created: 1700000000,
    data: images.map(({ bytes, revised }) => ({ b64_json: bytes.toString('base64'), revised_prompt: revised ?? 'a revised prompt' })),
    usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 },
  });
const files = () => readdirSync(sandbox.home).filter((name) => !['config', 'data', 'state', 'cache'].includes(name)).sort();

beforeEach(() => {
  sandbox?.cleanup();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'image-key-0123456789abcdef', SVC_IMAGE_METADATA: 'off' });
});
afterAll(() => sandbox?.cleanup());

describe('svc image sends', () => {
  it('every option with the right JSON type', async () => {
    scripted.server.script(answer({ bytes: PNG }));
    const result = await runSvc(['image', 'a', 'red', 'fox', '--aspect', '16:9', '--seed', '42', '--negative', 'people', '-m', 'svc-vision-2', '-o', 'fox.png'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(scripted.server.requests[0]?.url).toBe('/v1/images/generations');
    expect(JSON.parse(scripted.server.requests[0]!.body)).toEqual({
      prompt: 'a red fox',
      model: 'svc-vision-2',
      aspect_ratio: '16:9',
      output_format: 'png',
      seed: 42,
      negative_prompt: 'people',
    });
  });

  it('the format the -o extension names', async () => {
    scripted.server.script(answer({ bytes: jpeg(10, 10) }));
    await runSvc(['image', 'x', '-o', 'x.jpg'], sandbox);
    expect(JSON.parse(scripted.server.requests[0]!.body)).toMatchObject({ output_format: 'jpeg', model: 'svc-vision' });
  });
});

describe('svc image saves', () => {
  it('the revised prompt on stdout, what was saved on stderr', async () => {
    scripted.server.script(answer({ bytes: PNG, revised: 'A red fox, golden light' }));
    const result = await runSvc(['image', 'a red fox'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('A red fox, golden light\n');
    expect(result.stderr).toBe(`saved a-red-fox.png (1344×756, ${PNG.length} B)\n`);
    expect(readFileSync(join(sandbox.home, 'a-red-fox.png')).equals(PNG)).toBe(true);
  });

  it('never overwrites: a second image from the same prompt gets a new name', async () => {
    scripted.server.script(answer({ bytes: PNG }), answer({ bytes: PNG }));
    await runSvc(['image', 'a red fox'], sandbox);
    await runSvc(['image', 'a red fox'], sandbox);
    expect(files()).toEqual(['a-red-fox-2.png', 'a-red-fox.png']);
  });

  it('an existing -o file is kept (exit 2, a usage error: nothing sent) unless --force', async () => {
    scripted.server.script(answer({ bytes: PNG }));
    const target = join(sandbox.home, 'keep.png');
    writeFileSync(target, 'precious');
    const kept = await runSvc(['image', 'x', '-o', 'keep.png'], sandbox);
    expect(kept.exitCode).toBe(2);
    expect(kept.stderr).toContain('already exists');
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(scripted.server.requests).toHaveLength(0);
    const forced = await runSvc(['image', 'x', '-o', 'keep.png', '--force'], sandbox);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(target).equals(PNG)).toBe(true);
    expect(files()).toEqual(['keep.png']);
  });

  it('several images are numbered, with -o and without', async () => {
    const pair = () => answer({ bytes: PNG, revised: 'one' }, { bytes: PNG, revised: 'two' });
    scripted.server.script(pair(), pair());
    const named = await runSvc(['image', 'pair', '-o', 'out.png'], sandbox);
    expect(named.stdout).toBe('one\ntwo\n');
    const auto = await runSvc(['image', 'pair'], sandbox);
    expect(auto.exitCode).toBe(0);
    expect(files()).toEqual(['out-1.png', 'out-2.png', 'pair-1.png', 'pair-2.png']);
  });

  it('-o - writes the bytes to stdout and the revised prompt to stderr', async () => {
    scripted.server.script(answer({ bytes: PNG, revised: 'to stdout' }));
    const result = await runSvc(['image', 'x', '-o', '-'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdoutBytes.equals(PNG)).toBe(true);
    expect(result.stderr).toBe('to stdout\n');
    expect(files()).toEqual([]);
  });

  it('--json prints created, images with absolute paths and sizes, and usage', async () => {
    scripted.server.script(answer({ bytes: PNG }));
    const result = await runSvc(['image', 'json please', '--json'], sandbox);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toEqual({
      created: 1700000000,
      images: [{ path: join(sandbox.home, 'json-please.png'), revised_prompt: 'a revised prompt', bytes: PNG.length, seed: null, width: 1344, height: 756 }],
      usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 },
    });
  });
});

describe('svc image refuses bad answers and leaves nothing behind', () => {
  it.each([
    ['invalid base64', reply.json(200, { data: [{ b64_json: 'not base64 at all!!', revised_prompt: 'x' }] }), 'not valid base64'],
    ['a JPEG when PNG was asked for', answer({ bytes: jpeg(10, 10) }), 'is jpeg, not the png asked for'],
    ['no image at all', reply.json(200, { created: 1, data: [] }), '`data` is empty'],
    ['JSON of the wrong shape', reply.json(200, { created: 1 }), 'without `data`'],
    ['a cut answer', reply.text(200, '{"data":[{"b64_json":"iVBORw0KGgo', 'application/json'), 'middle of the image'],
  ])('%s: exit 1, no file, no temporary file', async (_name, handler, message) => {
    scripted.server.script(handler);
    const result = await runSvc(['image', 'x', '-o', 'x.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(message);
    expect(hasStackTrace(result.stderr)).toBe(false);
    expect(files()).toEqual([]);
  });

  it('disallowed content: exactly the service message, exit 4', async () => {
    scripted.server.script(reply.json(400, { error: { message: 'Request contains disallowed content', type: 'invalid_request_error', code: 'content_policy_violation' } }));
    const result = await runSvc(['image', 'something bad'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^svc: error: Request contains disallowed content \(HTTP 400/);
    expect(files()).toEqual([]);
  });

  it('bad flags are usage errors and send nothing', async () => {
    for (const args of [['--aspect', '2:1'], ['--format', 'gif'], ['-o', 'x.png', '--format', 'webp'], ['--seed', 'abc'], ['-o', 'no/such/dir/x.png']]) {
      const result = await runSvc(['image', 'x', ...args], sandbox);
      expect(result.exitCode, args.join(' ')).toBe(2);
    }
    expect(scripted.server.requests).toHaveLength(0);
    expect(existsSync(join(sandbox.home, 'x.png'))).toBe(false);
  });
});
