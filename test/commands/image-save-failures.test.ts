/**
 * svc image and svc batch save an answer's images the same way (images/save-generation.ts), so
 * they fail the same way: an image of another format than asked, or a name another process took
 * while the request was out, saves nothing, keeps what was there, and leaves no temporary file.
 * In-process against a scripted server; the provenance is on, so the files are made with room
 * for it as they stream.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { jpeg, png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);
/** What is in a folder of the sandbox, svc's own folders (settings, data) left out. */
const files = (...parts: string[]) => readdirSync(home(...parts)).filter((name) => !['config', 'data', 'state', 'cache'].includes(name)).sort();

const answer = (bytes: Buffer): Handler => reply.json(200, { created: 1, data: [{ b64_json: bytes.toString('base64'), revised_prompt: 'a fox, revised' }] });
/** The answer, once `path` has been taken by someone else while the request was out. */
const afterTaking = (path: () => string, bytes: Buffer): Handler => {
  const then = answer(bytes);
  return (req, res, body) => {
    writeFileSync(path(), 'theirs');
    return then(req, res, body);
  };
};

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'save-failures-key-0123456789' });
});
afterAll(() => sandbox?.cleanup());

describe('svc image', () => {
  it('an image of another format than asked: exit 1, nothing saved, no temporary file', async () => {
    scripted.server.script(answer(jpeg(16, 16)));
    const result = await runSvc(['image', 'a fox', '-o', 'fox.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('the image the service sent is jpeg, not the png asked for; nothing was written');
    expect(files()).toEqual([]);
  });

  it('the name taken while the request was out: exit 1, their file kept, no temporary file', async () => {
    scripted.server.script(afterTaking(() => home('fox.png'), png(16, 16)));
    const result = await runSvc(['image', 'a fox', '-o', 'fox.png'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${home('fox.png')} already exists; it was kept`);
    expect(files()).toEqual(['fox.png']);
    expect(readFileSync(home('fox.png'), 'utf8')).toBe('theirs');
  });
});

describe('svc batch', () => {
  const line = JSON.stringify({ custom_id: 'fox', method: 'POST', url: '/v1/images/generations', body: { prompt: 'a fox' } });
  const run = () => runSvc(['batch', 'in.jsonl', '-o', 'out.jsonl', '--images-dir', 'shots'], sandbox);
  const record = () => JSON.parse(readFileSync(home('out.jsonl'), 'utf8').trim()) as { error: { code: string; message: string } | null };

  beforeEach(() => {
    writeFileSync(home('in.jsonl'), `${line}\n`);
    mkdirSync(home('shots'));
  });

  it('an image of another format than asked: an image_not_saved record, nothing saved, no temporary file', async () => {
    scripted.server.script(answer(jpeg(16, 16)));
    const result = await run();
    expect(result.exitCode).toBe(1);
    expect(record().error).toEqual({ code: 'image_not_saved', message: 'the image the service sent is jpeg, not the png asked for; nothing was written' });
    expect(files('shots')).toEqual([]);
  });

  it('the name taken while the request was out: an image_not_saved record, their file kept, no temporary file', async () => {
    scripted.server.script(afterTaking(() => home('shots', 'fox.png'), png(16, 16)));
    const result = await run();
    expect(result.exitCode).toBe(1);
    expect(record().error).toEqual({ code: 'image_not_saved', message: `${home('shots', 'fox.png')} already exists; it was kept` });
    expect(files('shots')).toEqual(['fox.png']);
    expect(readFileSync(home('shots', 'fox.png'), 'utf8')).toBe('theirs');
  });
});
