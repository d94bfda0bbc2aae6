/**
 * /file and /role in the interactive session, driven in-process (a scripted line reader, the real
 * session loop) against the strict scripted server: files go with the next message only, /history
 * shows them as name and size, refusals attach nothing and send nothing, /role applies a role.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/commands/chat/interactive/line-reader.js';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import type { SessionReader } from '../../src/commands/chat/interactive/session-state.js';
import { splitPaths } from '../../src/commands/chat/interactive/attach.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import type { ChatPlan } from '../../src/commands/chat/options.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { roleToUse } from '../../src/roles/fill-role.js';
import { testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

/** Typed lines, one after another, then Ctrl-D. */
function typed(lines: string[]): SessionReader {
  const queue = [...lines];
  return {
    read: async (): Promise<ReadResult> => {
      const text = queue.shift();
      return text === undefined ? { kind: 'eof' } : { kind: 'line', text };
    },
    whileBusy: () => () => {},
    lend: () => () => {},
    cancel() {},
    close() {},
  };
}

const context = useScriptedServer();
let sandbox: Sandbox;
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const sent = () => context.server.requests.map((request) => JSON.parse(request.body) as Record<string, unknown> & { messages: Array<{ role: string; content: string }> });

beforeEach(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: context.server.baseUrl, SVC_API_KEY: 'session-files-key-0123', SVC_MAX_RETRIES: '0' });
  mkdirSync(join(sandbox.home, 'src'));
  writeFileSync(join(sandbox.home, 'src', 'a.ts'), 'const a = 1;\n');
  writeFileSync(join(sandbox.home, 'my notes.md'), 'x'.repeat(2048));
});
afterEach(() => sandbox.cleanup());

async function session(lines: string[], options: { role?: string; plan?: Partial<ChatPlan> } = {}): Promise<{ stderr: string; store: ConversationStore }> {
  const { io, stderr } = testIO({ env: sandbox.env, cwd: sandbox.home });
  const factory = createFactory(io);
  const plan: ChatPlan = {
    words: [], fields: {}, system: undefined, stream: true, json: false, usage: false, stdin: false, interactive: true,
    conversation: { continueLatest: false, sessionName: 'talk', save: true }, settings: {}, ...options.plan,
  };
  const role = roleToUse(sandbox.env, options.role, {});
  try {
    const settings = await factory.settings(plan.settings);
    const client = await factory.apiClient(settings);
    const store = await factory.conversationStore();
    const conversation = openConversation(store, plan.conversation);
    const signal = new AbortController().signal;
    await runSession({
      plan, role, client, store, session: conversation, model: chatModel(settings, conversation, role), reader: typed(lines), terminal: { fd: -1 },
      context: { factory, signal, interrupts: new InterruptRouter(() => {}) },
    });
  } finally {
    await factory.dispose();
  }
  return { stderr: stderr.text(), store: new ConversationStore(sandbox.env) };
}

describe('/file', () => {
  it('attaches files to the next message only, listed until it is sent; /history shows them as name and size', async () => {
    context.server.script(answer('A1'), answer('A2'));
    const { stderr, store } = await session(['/file src/*.ts "my notes.md"', '/file', 'look at these', 'and now?', '/history']);
    expect(stderr).toContain('with your next message: [file src/a.ts, 13 B] [file my notes.md, 2.0 KiB]');
    const first = `look at these\n\n\`\`\`src/a.ts\nconst a = 1;\n\`\`\`\n\n\`\`\`my notes.md\n${'x'.repeat(2048)}\n\`\`\``;
    expect(sent()[0]!.messages).toEqual([{ role: 'user', content: first }]);
    expect(sent()[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'and now?' });
    expect(stderr).toContain('[you] look at these\n\n[file src/a.ts, 13 B]\n\n[file my notes.md, 2.0 KiB]\n');
    expect(stderr).not.toContain('x'.repeat(100));
    expect(store.read('talk').turns[0]!.user).toBe(first);
  });

  it('takes an image as -f does: an image_url part after the words, sent again with later turns, kept by hash', async () => {
    context.server.script(answer('A1'), answer('A2'));
    const png = pngFile(4, 2, false, deflateSync(subFilteredRows(new Uint8Array(4 * 2 * 3).fill(200), 4, 2, false)));
    writeFileSync(join(sandbox.home, 'shot.png'), png);
    const { store } = await session(['/file shot.png', 'what is it?', 'and now?']);
    const url = `data:image/png;base64,${png.toString('base64')}`;
    const withImage = { role: 'user', content: [{ type: 'text', text: 'what is it?' }, { type: 'image_url', image_url: { url } }] };
    expect(sent()[0]!.messages).toEqual([withImage]);
    expect(sent()[1]!.messages).toEqual([withImage, { role: 'assistant', content: 'A1' }, { role: 'user', content: 'and now?' }]);
    expect(store.read('talk').turns[0]!.images).toEqual([{ name: 'shot.png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), ext: 'png', bytes: png.length, width: 4, height: 2 }]);
  });

  it('/file clear drops them; /file alone says when there are none', async () => {
    context.server.script(answer('A1'));
    const { stderr } = await session(['/file src/a.ts', '/file clear', '/file', 'plain question']);
    expect(stderr).toContain('(dropped 1 file)');
    expect(stderr).toContain('(no files attached; /file <path...> attaches some)');
    expect(sent()[0]!.messages).toEqual([{ role: 'user', content: 'plain question' }]);
  });

  it('a refused file attaches nothing of that command and sends nothing; the session goes on', async () => {
    writeFileSync(join(sandbox.home, 'bin.dat'), Buffer.from([1, 0, 2]));
    const { stderr } = await session(['/file src/a.ts bin.dat', '/file missing.txt', '/file src', '/file']);
    expect(stderr).toContain('/file bin.dat is not a text file (binary, or not UTF-8); nothing attached');
    expect(stderr).toContain('/file missing.txt: no such file; nothing attached');
    expect(stderr).toContain("/file src is a folder; attach its files with a glob (quoted, so svc expands it): /file 'src/*'");
    expect(stderr).toContain('(no files attached; /file <path...> attaches some)');
    expect(context.server.requests).toEqual([]);
  });

  it('/retry sends the files again, and the retried turn still shows them as files', async () => {
    context.server.script(reply.json(500, { error: { message: 'overloaded' } }), answer('at last'));
    const { stderr, store } = await session(['/file src/a.ts', 'why?', '/retry', '/history']);
    expect(sent()[1]!.messages).toEqual([{ role: 'user', content: 'why?\n\n```src/a.ts\nconst a = 1;\n```' }]);
    expect(stderr).toContain('[you] why?\n\n[file src/a.ts, 13 B]\n');
    expect(store.read('talk').turns[0]!.files).toEqual([{ name: 'src/a.ts', bytes: 13, start: 6, end: 34 }]);
  });

  it('splits paths as a shell would', () => {
    expect(splitPaths(`a.txt "my notes.md" 'x y' b\\ c.md`)).toEqual(['a.txt', 'my notes.md', 'x y', 'b c.md']);
  });
});

describe('roles in the session', () => {
  it('--role applies the system message and the defaults; /role switches, and flags beat the role', async () => {
    context.server.script(answer('A1'), answer('A2'));
    const { stderr } = await session(['first', '/role explain', 'second', '/role'], { role: 'shell', plan: { fields: { max_tokens: 30 } } });
    const [one, two] = sent();
    expect(one!.messages[0]!.content).toMatch(/^You turn a request into a shell command/);
    expect([one!.temperature, one!.max_tokens]).toEqual([0, 30]);
    expect(two!.messages[0]!.content).toMatch(/^You explain code/);
    expect(stderr).toContain('(role explain: its system message; temperature unless given as flags)');
    expect(stderr).toContain('role: explain');
  });

  it('/role with an unknown name lists the roles and changes nothing', async () => {
    context.server.script(answer('A1'));
    const { stderr } = await session(['/role nope', 'hello']);
    expect(stderr).toContain('no role named "nope"; roles: commit, explain, shell, translate');
    expect(sent()[0]!.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });
});
