/**
 * Images in the turns of an interactive session, in-process (a scripted line reader, the real
 * session loop and slash commands, the strict scripted server): `/file last` attaches the image
 * /image just made, /history lists a turn's images, /retry, /rewind and /fork carry them as
 * they should, and `svc sessions export` links (Markdown) or embeds (HTML) them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';
import { keptImagePath } from '../../src/storage/image-store.js';
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

/** What the image service sends: a 16×9 PNG. */
const MADE = (() => {
  const image = new PNG({ width: 16, height: 9 });
  image.data.fill(180);
  return PNG.sync.write(image);
})();
/** A 4×2 PNG on the disk, attached with /file. */
const SHOT = pngFile(4, 2, false, deflateSync(subFilteredRows(new Uint8Array(4 * 2 * 3).fill(200), 4, 2, false)));
const dataUrl = (bytes: Buffer): string => `data:image/png;base64,${bytes.toString('base64')}`;

const picture: Handler = reply.json(200, { created: 1700000000, data: [{ b64_json: MADE.toString('base64') }] });
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
type Content = string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
const chats = () =>
  server()
    .requests.filter((request) => request.url === '/v1/chat/completions')
    .map((request) => (JSON.parse(request.body) as { messages: Array<{ role: string; content: Content }> }).messages);
const store = () => new ConversationStore(sandbox.env);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: server().baseUrl, SVC_API_KEY: 'image-turns-key-0123456789', SVC_MAX_RETRIES: '0', SVC_PREVIEW: 'off', SVC_IMAGE_METADATA: 'off' });
  work = join(sandbox.home, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'shot.png'), SHOT);
});
afterAll(() => sandbox?.cleanup());

async function session(lines: string[], options: { name?: string; continueLatest?: boolean } = {}): Promise<string> {
  const { io, stderr } = testIO({ env: sandbox.env, cwd: work });
  const factory = createFactory(io);
  const plan = sessionPlan(options.continueLatest ? { continueLatest: true, sessionName: undefined, save: true } : { continueLatest: false, sessionName: options.name ?? 'talk', save: true });
  try {
    const settings = await factory.settings({});
    const client = await factory.apiClient(settings);
    const conversations = await factory.conversationStore();
    const conversation = openConversation(conversations, plan.conversation);
    const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
    await runSession({ plan, context, client, store: conversations, session: conversation, model: chatModel(settings, conversation), reader: new ScriptedReader(lines), terminal: { fd: -1 } });
  } finally {
    await factory.dispose();
  }
  return stderr.text();
}

/** The image parts' URLs of a user message as sent. */
const imageUrls = (content: Content | undefined): string[] => (typeof content === 'string' || content === undefined ? [] : content.flatMap((part) => (part.image_url ? [part.image_url.url] : [])));

describe('/file last', () => {
  it('attaches the image /image just made: "make it, then ask about it" is two lines', async () => {
    server().script(picture, answer('A red barn.'));
    const stderr = await session(['/image a red barn', '/file last', 'what is in it?']);
    expect(stderr).toContain('with your next message: [image a-red-barn.png, ');
    const [messages] = chats();
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what is in it?' }, { type: 'image_url', image_url: { url: dataUrl(MADE) } }] }]);
    expect(store().read('talk').turns[0]!.images).toEqual([{ name: 'a-red-barn.png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), ext: 'png', bytes: MADE.length, width: 16, height: 9 }]);
  });

  it('goes with other paths, in the order written; a file named "last" is ./last', async () => {
    server().script(picture, answer('ok'));
    writeFileSync(join(work, 'last'), 'notes called last\n');
    await session(['/image a boat', '/file shot.png last ./last', 'compare']);
    const content = chats()[0]![0]!.content;
    expect(imageUrls(content)).toEqual([dataUrl(SHOT), dataUrl(MADE)]);
    expect(typeof content === 'string' ? content : content[0]!.text).toBe('compare\n\n```./last\nnotes called last\n```');
  });

  it('with no image made yet says so, attaches nothing and sends nothing', async () => {
    const stderr = await session(['/file last', '/file']);
    expect(stderr).toContain('/file last: no image made with /image yet; nothing attached\n/image <what to draw> makes one; /file <path> attaches any picture');
    expect(stderr).toContain('(no files attached; /file <path...> attaches some)');
    expect(server().requests).toEqual([]);
  });

  it('after --continue, is the newest image of the conversation resumed', async () => {
    server().script(picture, answer('A1'));
    await session(['/image a lighthouse', 'hello']);
    server().script(answer('A lighthouse.'));
    await session(['/file last', 'and this picture?'], { continueLatest: true });
    expect(imageUrls(chats()[1]!.at(-1)!.content)).toEqual([dataUrl(MADE)]);
  });

  it('after /clear, is still the image this session made', async () => {
    server().script(picture, answer('ok'));
    await session(['/image a kite', '/clear', '/file last', 'what is it?']);
    expect(imageUrls(chats()[0]![0]!.content)).toEqual([dataUrl(MADE)]);
  });

  it('says so when the image made was moved away since', async () => {
    server().script(picture);
    await session(['/image a fox']);
    // Removed between two sessions: the conversation's newest image is gone.
    rmSync(join(work, 'a-fox.png'));
    const again = await session(['/file last'], { continueLatest: true });
    expect(again).toContain(`/file last: the last image made, ${join(work, 'a-fox.png')}, is no longer there; nothing attached\n/file <path> attaches a picture where it is now`);
  });
});

describe('the images of a turn', () => {
  it('/history lists them by name, size and pixels, as svc sessions show does', async () => {
    server().script(answer('A1'));
    const stderr = await session(['/file shot.png', 'what is it?', '/history']);
    expect(stderr).toContain(`[you] what is it? [image shot.png, ${SHOT.length} B, 4×2]\n`);
    const shown = await runSvc(['sessions', 'show', 'talk'], sandbox);
    expect(shown.stdout).toContain(`[user]\nwhat is it?\n[image shot.png, ${SHOT.length} B, 4×2]\n`);
  });

  it('a message not sent keeps its images: /history names them, /retry sends them', async () => {
    server().script(reply.json(500, { error: { message: 'overloaded' } }), answer('a grey square'));
    const stderr = await session(['/file shot.png', 'what is it?', '/history', '/retry']);
    expect(stderr).toContain(`[you] what is it? [image shot.png, ${SHOT.length} B, 4×2] [not sent: /retry sends it]\n`);
    expect(imageUrls(chats()[1]![0]!.content)).toEqual([dataUrl(SHOT)]);
    expect(store().read('talk').turns[0]!.images?.map((image) => image.name)).toEqual(['shot.png']);
  });

  it('/retry after a reply asks again with the same images, in a later session too', async () => {
    server().script(answer('A1'), answer('A2'));
    await session(['/file shot.png', 'what is it?', '/retry']);
    expect(imageUrls(chats()[1]![0]!.content)).toEqual([dataUrl(SHOT)]);
    server().script(answer('A3'));
    await session(['/retry'], { continueLatest: true });
    expect(chats()[2]).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, { type: 'image_url', image_url: { url: dataUrl(SHOT) } }] }]);
    expect(store().read('talk').turns.map((turn) => [turn.assistant, turn.images?.length])).toEqual([['A3', 1]]);
  });

  it('/rewind shows the image of the turn it drops, and the next request no longer carries it', async () => {
    server().script(answer('A1'), answer('A2'), answer('A3'));
    const stderr = await session(['first', '/file shot.png', 'what is it?', '/rewind', 'and now?']);
    expect(stderr).toContain(`this turn goes:\n  2. [you] what is it? [image shot.png, ${SHOT.length} B, 4×2]\n`);
    const last = chats().at(-1)!;
    expect(last).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'and now?' },
    ]);
    expect(JSON.stringify(last)).not.toContain('image_url');
  });

  it('/fork: the fork refers to the same kept image, neither file holds base64, and the fork sends it on', async () => {
    server().script(answer('A1'), answer('A2'));
    await session(['/file shot.png', 'what is it?', '/fork', 'go on']);
    const conversations = store();
    const [original, fork] = [conversations.read('talk'), conversations.read('talk-fork')];
    const ref = original.turns[0]!.images![0]!;
    expect(fork.turns[0]!.images).toEqual([ref]);
    expect(readdirSync(join(conversations.dataDir, 'images'))).toEqual([`${ref.sha256}.png`]);
    const base64 = SHOT.toString('base64');
    for (const name of ['talk', 'talk-fork']) expect(readFileSync(conversations.pathOf(name), 'utf8')).not.toContain(base64.slice(0, 40));
    expect(imageUrls(chats()[1]![0]!.content)).toEqual([dataUrl(SHOT)]);
    expect(chats()[1]!.at(-1)).toEqual({ role: 'user', content: 'go on' });
  });

  it('a fork resumed later reads the image back from where it is kept', async () => {
    server().script(answer('A1'));
    await session(['/file shot.png', 'what is it?', '/fork split']);
    server().script(answer('A2'));
    await session(['again?'], { name: 'split' });
    expect(imageUrls(chats()[1]![0]!.content)).toEqual([dataUrl(SHOT)]);
  });
});

describe('svc sessions export, with images in the messages', () => {
  /** "talk": a turn with shot.png and an address image, a turn with words only. */
  async function imageConversation(): Promise<string> {
    server().script(answer('A grey square.'), answer('Bye.'));
    await session(['/file shot.png https://example.com/cat(1).png', 'what are they?', 'thanks']);
    const ref = store().read('talk').turns[0]!.images![0]!;
    return keptImagePath(store().dataDir, ref.sha256!, ref.ext!);
  }

  it('Markdown links the kept file by its absolute path, and an address image by its address', async () => {
    const kept = await imageConversation();
    const result = await runSvc(['sessions', 'export', 'talk'], sandbox, { cwd: work });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`## User (turn 1)\n\nwhat are they?\n\n![shot.png](${kept})\n\n![https://example.com/cat(1).png](https://example.com/cat%281%29.png)\n`);
    expect(result.stdout).not.toContain(SHOT.toString('base64').slice(0, 40));
  });

  it('Markdown with --with-images copies the kept file under the name it was attached by', async () => {
    const kept = await imageConversation();
    const result = await runSvc(['sessions', 'export', 'talk', '-o', 'share/talk.md', '--with-images', 'share/images'], sandbox, { cwd: work });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(work, 'share', 'talk.md'), 'utf8')).toContain('![shot.png](images/shot.png)\n');
    expect(readFileSync(join(work, 'share', 'images', 'shot.png')).equals(readFileSync(kept))).toBe(true);
    expect(result.stderr).toContain('copied 1 image to share/images');
  });

  it('HTML shows the kept image inline, alt its name; an address image is a link, never loaded', async () => {
    await imageConversation();
    const result = await runSvc(['sessions', 'export', 'talk', '--format', 'html'], sandbox, { cwd: work });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`<img src="${dataUrl(SHOT)}" width="4" height="2" alt="shot.png"><figcaption>[image shot.png, ${SHOT.length} B, 4×2]</figcaption>`);
    expect(result.stdout).toContain('<a href="https://example.com/cat(1).png" rel="noopener noreferrer">[image: https://example.com/cat(1).png]</a>');
    expect(result.stdout).not.toContain('<img src="https:');
  });

  it('a kept file that is gone is a note in both, never a failed export', async () => {
    const kept = await imageConversation();
    rmSync(kept);
    const md = await runSvc(['sessions', 'export', 'talk'], sandbox, { cwd: work });
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toContain('what are they?\n\n*(the kept file of the image shot.png is gone)*\n');
    const html = await runSvc(['sessions', 'export', 'talk', '--format', 'html'], sandbox, { cwd: work });
    expect(html.exitCode).toBe(0);
    expect(html.stdout).toContain('<p class="meta">(the image shot.png: its kept file is gone)</p>');
    expect(html.stdout).toContain('Bye.');
  });

  it('an image name is text in the HTML, never markup', async () => {
    const name = '<img src=x onerror=alert(1)>".png';
    writeFileSync(join(work, name), SHOT);
    server().script(answer('ok'));
    await session([`/file '${name}'`, 'look']);
    const html = await runSvc(['sessions', 'export', 'talk', '--format', 'html'], sandbox, { cwd: work });
    expect(html.stdout).not.toContain('<img src=x');
    expect(html.stdout).toContain('alt="&lt;img src=x onerror=alert(1)&gt;&quot;.png"');
    expect(existsSync(join(work, name))).toBe(true);
  });
});
