/**
 * /image in the chat session (issue 13, items 7 to 9), in-process: the real session loop and
 * slash commands with a scripted line reader, against the strict scripted server. The image is
 * saved as svc image saves it, kept as a record (never sent to the chat model), listed by
 * /history, svc sessions show and the resume banner; the last reply can be the prompt; errors
 * and Ctrl-C are reported and the session goes on.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import { recordOf } from '../../src/conversations/records.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { runSvc, testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { ScriptedReader } from '../helpers/scripted-reader.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { sessionPlan } from '../helpers/session-plan.js';

const scripted = useScriptedServer();
const server = () => scripted.server;
let sandbox: Sandbox;
let work: string;

const PNG_FILE = (() => {
  const image = new PNG({ width: 16, height: 9 });
  image.data.fill(200);
  return PNG.sync.write(image);
})();
const picture = (revised: string): Handler => reply.json(200, { created: 1700000000, data: [{ b64_json: PNG_FILE.toString('base64'), revised_prompt: revised }] });
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const bodies = () => server().requests.map((request) => ({ url: request.url, body: JSON.parse(request.body) as Record<string, unknown> }));

beforeEach(() => {
  sandbox?.cleanup();
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_BASE_URL: server().baseUrl, SVC_API_KEY: 'session-key-0123456789', SVC_MAX_RETRIES: '0', SVC_PREVIEW: 'blocks', SVC_IMAGE_METADATA: 'off' });
  work = join(sandbox.home, 'work');
  mkdirSync(work);
});
afterAll(() => sandbox?.cleanup());

async function session(lines: string[] | ScriptedReader, options: { continueLatest?: boolean; stdoutIsTTY?: boolean } = {}) {
  const { io, stdout, stderr } = testIO({ env: sandbox.env, cwd: work, stdoutIsTTY: options.stdoutIsTTY ?? false, columns: 40 });
  const factory = createFactory(io);
  const plan = sessionPlan(options.continueLatest ? { continueLatest: true, sessionName: undefined, save: true } : undefined);
  try {
    const settings = await factory.settings({});
    const client = await factory.apiClient(settings);
    const store = await factory.conversationStore();
    const conversation = openConversation(store, plan.conversation);
    const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
    const reader = lines instanceof ScriptedReader ? lines : new ScriptedReader(lines);
    await runSession({ plan, context, client, store, session: conversation, model: chatModel(settings, conversation), reader, terminal: { fd: -1 } });
  } finally {
    await factory.dispose();
  }
  return { stdout: stdout.text(), stderr: stderr.text(), store: new ConversationStore(sandbox.env) };
}

describe('/image with a prompt', () => {
  it('saves the image as svc image names it, prints the revised prompt, keeps a record the chat model never sees', async () => {
    server().script(picture('a red fox in snow, revised'), answer('Nice fox.'));
    const { stdout, stderr, store } = await session(['/image a red fox --aspect 16:9 --seed 7 --negative "no people"', 'what next?', '/history']);
    const [image, chat] = bodies();
    expect(image!.url).toBe('/v1/images/generations');
    expect(image!.body).toMatchObject({ prompt: 'a red fox', aspect_ratio: '16:9', seed: 7, negative_prompt: 'no people', output_format: 'png' });
    expect(readdirSync(work)).toEqual(['a-red-fox.png']);
    expect(readFileSync(join(work, 'a-red-fox.png')).equals(PNG_FILE)).toBe(true);
    expect(stdout).toContain('a red fox in snow, revised\n');
    expect(stderr).toContain('saved a-red-fox.png (16×9, ');
    // The chat request after it holds the conversation only: no image, no prompt of it.
    expect(chat!.body.messages).toEqual([{ role: 'user', content: 'what next?' }]);
    expect(stderr).toContain('[image] a red fox → a-red-fox.png (--aspect 16:9 --seed 7 --negative "no people")\n[you] what next?');
    const saved = store.read('talk');
    expect(saved.images).toEqual([
      { prompt: 'a red fox', revisedPrompt: 'a red fox in snow, revised', options: { aspect: '16:9', seed: '7', negative: 'no people' }, path: join(work, 'a-red-fox.png'), at: expect.any(String), afterTurn: 0 },
    ]);
    expect(saved.turns.map((turn) => turn.user)).toEqual(['what next?']);
  });

  it('previews on a terminal, before the revised prompt', async () => {
    server().script(picture('a harbour, revised'));
    const { stdout } = await session(['/image a harbour'], { stdoutIsTTY: true });
    expect(stdout.indexOf('▀')).toBeGreaterThanOrEqual(0);
    expect(stdout.indexOf('▀')).toBeLessThan(stdout.indexOf('a harbour, revised'));
  });

  it('saves to -o and never overwrites: a taken name or a missing folder is an error before any request', async () => {
    mkdirSync(join(work, 'pics'));
    server().script(picture('one'));
    const { stderr } = await session(['/image a boat -o nowhere/', '/image a boat -o pics/boat.png', '/image a boat -o pics/boat.png']);
    expect(stderr).toContain('error: -o nowhere/: the folder');
    expect(stderr).toContain('saved pics/boat.png');
    expect(stderr).toMatch(/error: .*boat\.png.*(exists|already)/);
    // The hint offers what /image takes: it has no --force.
    expect(stderr).toContain('choose another name with -o, or leave -o out for a free one');
    expect(stderr).not.toContain('--force');
    expect(server().requests).toHaveLength(1);
    expect(readdirSync(join(work, 'pics'))).toEqual(['boat.png']);
  });
});

describe('/image with no prompt', () => {
  it('cuts a long reply at a sentence end and says so', async () => {
    const long = 'The harbour is quiet. '.repeat(60).trim();
    server().script(answer(long), picture('r'));
    const { stderr } = await session(['describe', '/image']);
    const prompt = bodies()[1]!.body.prompt as string;
    expect(prompt.length).toBeLessThanOrEqual(1000);
    expect(prompt.endsWith('quiet.')).toBe(true);
    expect(stderr).toContain(`(no prompt: drawing the last reply as plain text, cut to its first ${prompt.length} characters: "The harbour is quiet.`);
  });

  it('draws the last reply as plain text, and says so', async () => {
    server().script(answer('# Scene\nA **white** lighthouse on a cliff at dusk.\n```sh\nrm -rf /\n```'), picture('a lighthouse, revised'));
    const { stderr, store } = await session(['describe a scene', '/image --aspect 4:3', '/image --aspect 3:2']);
    expect(bodies()[1]!.body).toMatchObject({ prompt: 'Scene A white lighthouse on a cliff at dusk.', aspect_ratio: '4:3' });
    expect(stderr).toContain('(no prompt: drawing the last reply as plain text: "Scene A white lighthouse on a cliff at dusk.")');
    // A bad option is reported before anything is announced or sent.
    expect(stderr.match(/drawing the last reply/g)).toHaveLength(1);
    expect(stderr).toContain('error: --aspect must be one of');
    expect(store.read('talk').images.map((image) => [image.prompt, image.afterTurn])).toEqual([['Scene A white lighthouse on a cliff at dusk.', 1]]);
  });

  it('with no reply yet, says what to type and sends nothing', async () => {
    const { stderr } = await session(['/image']);
    expect(stderr).toContain('(no prompt, and no reply yet to draw: /image <what to draw>)');
    expect(server().requests).toEqual([]);
  });
});

describe('a failed /image', () => {
  it('reports the service refusing the prompt as svc image does, and the session goes on', async () => {
    server().script(reply.json(400, { error: { message: 'Request contains disallowed content', type: 'invalid_request_error', code: 'content_policy_violation' } }), answer('still here'));
    const { stdout, stderr, store } = await session(['/image something bad', 'hello']);
    expect(stderr).toMatch(/^svc: error: Request contains disallowed content \(HTTP 400/m);
    expect(stdout).toContain('still here');
    expect(readdirSync(work)).toEqual([]);
    expect(store.read('talk').images).toEqual([]);
  });

  it('reports a bad option as a usage error and sends nothing', async () => {
    const { stderr } = await session(['/image a fox --aspect 7:3', '/image a fox --json', '/image a fox -o -', '/image "unterminated fox']);
    expect(stderr).toContain('error: --aspect must be one of');
    expect(stderr).toContain('error: the " before "unterminated fox" is never closed');
    expect(stderr).toContain('error: /image does not take --json');
    expect(stderr).toContain('error: /image saves a file; -o - (image bytes on stdout) is for svc image');
    expect(server().requests).toEqual([]);
  });

  it('Ctrl-C cancels the request, nothing is saved, and the session goes on', async () => {
    const reader = new ScriptedReader(['/image a slow picture', 'are you there?']);
    // The service holds the request; Ctrl-C comes once svc is waiting for it.
    const held: Handler = Object.assign(() => reader.pressCtrlC(), { label: 'held, then Ctrl-C' });
    server().script(held, answer('yes'));
    const { stdout, stderr, store } = await session(reader);
    expect(stderr).toContain('(image cancelled; nothing saved)');
    expect(stdout).toContain('yes');
    expect(readdirSync(work)).toEqual([]);
    expect(store.read('talk').images).toEqual([]);
  });
});

describe('an image in the saved conversation', () => {
  it('is listed by svc sessions show and counted when the conversation is resumed', async () => {
    server().script(answer('A fox.'), picture('a fox, revised'));
    await session(['draw me something', '/image a fox --seed 3']);
    const shown = await runSvc(['sessions', 'show', 'talk'], sandbox);
    expect(shown.stdout).toBe(
      `[user]\ndraw me something\n\n[assistant]\nA fox.\n\n[image --seed 3]\na fox\nsaved ${join(work, 'a-fox.png')}\nrevised: a fox, revised\n`,
    );
    const resumed = await session(['/history'], { continueLatest: true });
    expect(resumed.stderr).toContain('resuming "talk" (1 turn, 1 image: /history lists them)');
    expect(resumed.stderr).toContain('[image] a fox → a-fox.png (--seed 3)');
  });

  it('a damaged image record is that line skipped, not the conversation', () => {
    const good = { type: 'image', prompt: 'p', options: { seed: '1' }, path: '/x.png', at: '2026-01-01T00:00:00Z' };
    expect(recordOf(good)).toEqual(good);
    for (const bad of [{ ...good, prompt: 5 }, { ...good, options: { seed: 1 } }, { ...good, path: undefined }, { ...good, revisedPrompt: null }]) {
      expect(recordOf(bad)).toBeUndefined();
    }
  });

  it('survives in the file next to the turns: a reader replays both', async () => {
    server().script(picture('r'));
    await session(['/image a cat']);
    const lines = readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'talk.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(['start', 'image']);
    expect(existsSync(join(work, 'a-cat.png'))).toBe(true);
  });
});
