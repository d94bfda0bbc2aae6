/**
 * `svc chat -f` in-process against the strict scripted server (a request it was not scripted
 * for fails the test): files join the message in order, fenced; every refusal is exit 2 with
 * nothing sent; the conversation keeps the text as sent, so --continue sends it again exactly.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, MAX_TOTAL_BYTES } from '../../src/attachments/read.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const context = useScriptedServer();
let sandbox: Sandbox;
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const sent = () => context.server.requests.map((request) => (JSON.parse(request.body) as { messages: Array<{ role: string; content: string }> }).messages);
const put = (name: string, content: string | Buffer): void => {
  mkdirSync(join(sandbox.home, name, '..'), { recursive: true });
  writeFileSync(join(sandbox.home, name), content);
};

beforeEach(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: context.server.baseUrl, SVC_API_KEY: 'files-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterEach(() => sandbox.cleanup());

describe('files in the message', () => {
  it('come after the words and before stdin, in the order given, each fenced and labelled with its path', async () => {
    context.server.script(answer('ok'));
    put('notes.md', 'first\n');
    put('src/b.ts', 'const b = 2;\n');
    put('src/a.ts', 'const a = 1;');
    const result = await runSvc(['chat', '-f', 'notes.md', '-f', 'src/*.ts', 'review', 'these'], sandbox, { stdin: 'piped text\n' });
    expect(result.exitCode).toBe(0);
    expect(sent()).toEqual([[{ role: 'user', content: 'review these\n\n```notes.md\nfirst\n```\n\n```src/a.ts\nconst a = 1;\n```\n\n```src/b.ts\nconst b = 2;\n```\n\npiped text' }]]);
  });

  it('fences a file that holds fences with a longer fence, so it cannot break out', async () => {
    context.server.script(answer('ok'));
    put('readme.md', 'Run:\n```sh\nmake\n```\nand ```` too\n');
    await runSvc(['chat', '-f', 'readme.md', 'summarise'], sandbox);
    const content = sent()[0]![0]!.content;
    expect(content).toBe('summarise\n\n`````readme.md\nRun:\n```sh\nmake\n```\nand ```` too\n`````');
  });

  it('is a whole prompt on its own (no words, no stdin)', async () => {
    context.server.script(answer('ok'));
    put('q.txt', 'what is 2+2?');
    expect((await runSvc(['chat', '-f', 'q.txt'], sandbox)).exitCode).toBe(0);
    expect(sent()[0]![0]!.content).toBe('```q.txt\nwhat is 2+2?\n```');
  });

  it('attaches a file named twice (directly and by a glob) once', async () => {
    context.server.script(answer('ok'));
    put('a.txt', 'A');
    await runSvc(['chat', '-f', 'a.txt', '-f', '*.txt', 'go'], sandbox);
    expect(sent()[0]![0]!.content).toBe('go\n\n```a.txt\nA\n```');
  });

  it('says the total size on stderr on a terminal, and nothing in a script', async () => {
    context.server.script(answer('ok'), answer('ok'));
    put('a.txt', 'x'.repeat(1536));
    put('b.txt', 'y');
    // CI=true: no spinner (the captured stream is no real terminal for ora).
    const onTerminal = await runSvc(['chat', '-f', '*.txt', 'go'], sandbox, { stderrIsTTY: true, env: { CI: 'true' } });
    expect(onTerminal.stderr).toContain('svc: attached 2 files, 1.5 KiB\n');
    const inScript = await runSvc(['chat', '-f', '*.txt', 'go'], sandbox);
    expect(inScript.stderr).toBe('');
  });

  it('are kept in the conversation as sent: --continue sends them again exactly, and the turn knows where they are', async () => {
    context.server.script(answer('A1'), answer('A2'));
    put('log.txt', 'line 1\nline 2\n');
    await runSvc(['chat', '-f', 'log.txt', 'why?'], sandbox);
    await runSvc(['chat', '--continue', 'and then?'], sandbox);
    const first = 'why?\n\n```log.txt\nline 1\nline 2\n```';
    expect(sent()[1]).toEqual([{ role: 'user', content: first }, { role: 'assistant', content: 'A1' }, { role: 'user', content: 'and then?' }]);
    const store = new ConversationStore(sandbox.env);
    const [turn] = store.read(store.latest()!).turns;
    expect(turn!.files).toEqual([{ name: 'log.txt', bytes: 14, start: 6, end: first.length }]);
  });
});

describe('files refused: exit 2, naming the file, nothing sent', () => {
  // No answer is scripted: any request would fail the test (scripted-server.ts).
  it.each([
    ['a missing file', ['-f', 'gone.txt'], /^svc: error: -f gone\.txt: no such file; nothing was sent\n$/],
    ['a glob matching nothing', ['-f', 'src/*.rs'], /-f 'src\/\*\.rs' matched no file; nothing was sent/],
    ['a folder, with a hint to use a glob', ['-f', 'dir'], /-f dir is a folder; attach its files with a glob .*-f 'dir\/\*'/],
    ['a binary file (a NUL byte)', ['-f', 'image.bin'], /-f image\.bin is not a text file \(binary, or not UTF-8\); nothing was sent/],
    ['a file that is not UTF-8', ['-f', 'latin1.txt'], /-f latin1\.txt is not a text file/],
    ['a file over the size limit', ['-f', 'huge.log'], /-f huge\.log is larger than 1\.0 MiB, the most svc attaches from one file; nothing was sent/],
    ['files over the total limit together', ['-f', 'parts/*.txt'], /-f: the files come to more than 4\.0 MiB together \(at parts\/p4\.txt\); nothing was sent/],
    ['a good file beside a bad one', ['-f', 'ok.txt', '-f', 'gone.txt'], /-f gone\.txt: no such file/],
  ])('%s', async (_case, args, message) => {
    put('dir/inside.txt', 'x');
    put('image.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    put('latin1.txt', Buffer.from('caf\xe9', 'latin1'));
    put('huge.log', 'x'.repeat(MAX_FILE_BYTES + 1));
    put('ok.txt', 'fine');
    for (let index = 0; index < 5; index++) put(`parts/p${index}.txt`, 'p'.repeat(MAX_TOTAL_BYTES / 4 - 10));
    const result = await runSvc(['chat', ...args, 'question'], sandbox, { stdin: 'piped' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(context.server.requests).toEqual([]);
  });

  // Root reads any file: there is no unreadable file to show then.
  it.skipIf(process.getuid?.() === 0)('an unreadable file, named with the reason', async () => {
    put('secret.txt', 'x');
    const { chmodSync } = await import('node:fs');
    chmodSync(join(sandbox.home, 'secret.txt'), 0o000);
    const result = await runSvc(['chat', '-f', 'secret.txt', 'q'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('svc: error: -f secret.txt: cannot read it: permission denied (EACCES); nothing was sent\n');
  });
});
