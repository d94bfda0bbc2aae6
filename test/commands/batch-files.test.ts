/**
 * svc batch's files, read and written in-process: the lines of a regular file read synchronously
 * (the same lines as the stream reader, across the megabyte reads, even inside a character), the
 * requests the check keeps for sending when the input is small (and not when it is large), and
 * the results file, whose lines finished in one turn go out in one write, each write() resolving
 * only once its line is in the file, a failure reaching every line of that write.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect } from '../helpers/collect.js';
import { checkInput, openInput, readEntries, type Entry } from '../../src/commands/batch/input.js';
import { fileLines, readLines } from '../../src/commands/batch/lines.js';
import { fileSink } from '../../src/commands/batch/output.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-files-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

describe('fileLines', () => {
  it('gives the same lines as the stream reader: CRLF, blank lines, the last line without a newline', async () => {
    const path = join(dir, 'in.jsonl');
    const bytes = Buffer.from('{"a":"é"}\r\nsecond\n\nlast');
    writeFileSync(path, bytes);
    const sync = [...fileLines(path)];
    expect(sync).toEqual([
      { number: 1, text: '{"a":"é"}' },
      { number: 2, text: 'second' },
      { number: 3, text: '' },
      { number: 4, text: 'last' },
    ]);
    expect(sync).toEqual(await collect(readLines([bytes])));
  });

  it('joins a line cut by the megabyte read, even inside a character', () => {
    const path = join(dir, 'big.jsonl');
    const first = 'a'.repeat(MiB - 1); // its "é" starts on the read's last byte
    writeFileSync(path, `${first}é tail\nnext\n`);
    const lines = [...fileLines(path)];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({ number: 1, text: `${first}é tail` });
    expect(lines[1]).toEqual({ number: 2, text: 'next' });
  });

  it('reports a line longer than the bound without holding it, and goes on', () => {
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, `short\n${'x'.repeat(60)}\nok\n`);
    expect([...fileLines(path, 40)]).toEqual([{ number: 1, text: 'short' }, { number: 2, tooLong: true }, { number: 3, text: 'ok' }]);
  });

  it('a reader that stops early closes the file', () => {
    const path = join(dir, 'in.jsonl');
    writeFileSync(path, 'one\ntwo\nthree\n');
    const lines = fileLines(path);
    expect(lines.next().value).toEqual({ number: 1, text: 'one' });
    lines.return(undefined);
    expect(lines.next().done).toBe(true);
  });
});

describe('checkInput keeps the requests of a small input', () => {
  const defaults = { chat: { model: 'svc-pro', system: undefined, fields: {} }, image: { model: 'svc-image', aspect: undefined, format: undefined, seed: undefined, negative: undefined } };
  const io = { cwd: '/', env: {}, stdinKind: 'other' } as unknown as Parameters<typeof openInput>[0];
  const line = (id: string, text: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: text }] } });

  it('small: the requests, in order, as the second pass would read them', async () => {
    const path = join(dir, 'small.jsonl');
    writeFileSync(path, `${line('a', 'one')}\n\n${line('b', 'two')}\n`);
    const source = openInput(io, path, 'requests');
    const checked = await checkInput(source, defaults, new Map());
    const reread = [...(readEntries(source, defaults) as Iterable<Entry>)].map((entry) => ('request' in entry ? entry.request : entry));
    expect(checked.total).toBe(2);
    expect(checked.requests).toEqual(reread);
    expect(checked.requests?.map((request) => request.customId)).toEqual(['a', 'b']);
    expect(checked.requests?.[0]?.body.model).toBe('svc-pro');
  });

  it('a file over 1 MiB: none kept (it is read again), every line still counted', async () => {
    const path = join(dir, 'large.jsonl');
    const filler = 'x'.repeat(64 * 1024);
    writeFileSync(path, `${Array.from({ length: 20 }, (_, i) => line(`r${i}`, filler)).join('\n')}\n`);
    const checked = await checkInput(openInput(io, path, 'requests'), defaults, new Map());
    expect(checked.total).toBe(20);
    expect(checked.requests).toBeUndefined();
  });
});

describe('fileSink', () => {
  it('writes the records finished in one turn together, in order, each write resolving once its line is in the file', async () => {
    const path = join(dir, 'out.jsonl');
    const sink = fileSink(path, 'out.jsonl');
    const written = [sink.write({ n: 1 }), sink.write({ n: 2 }), sink.write({ n: 3 })];
    expect(readFileSync(path, 'utf8')).toBe('');
    await written[0];
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    await Promise.all(written);
    await sink.write({ n: 4 });
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n');
    sink.close();
  });

  it('starts on a fresh line after a line cut by a crash', async () => {
    const path = join(dir, 'out.jsonl');
    writeFileSync(path, '{"n":1}\n{"cut');
    const sink = fileSink(path, 'out.jsonl');
    await Promise.all([sink.write({ n: 2 }), sink.write({ n: 3 })]);
    sink.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"cut\n{"n":2}\n{"n":3}\n');
  });

  it('a write that fails rejects every line it held, with the file named', async () => {
    const sink = fileSink('/dev/full', 'full.jsonl');
    const results = await Promise.allSettled([sink.write({ n: 1 }), sink.write({ n: 2 })]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/^cannot write full\.jsonl: /);
    sink.close();
  });

  it('close() writes what is still waiting', () => {
    const path = join(dir, 'out.jsonl');
    const sink = fileSink(path, 'out.jsonl');
    void sink.write({ n: 1 });
    sink.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n');
  });
});
