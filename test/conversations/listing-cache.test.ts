/**
 * The listing cache (src/conversations/listing-cache.ts): `svc sessions list` keeps what it saw
 * of each file and reads again only the files that changed. In-process, on conversation files
 * written as svc writes them; more than the 32 a listing reads before it opens the cache.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const COUNT = 40;
const dir = () => join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
const cachePath = () => join(sandbox.env.XDG_CACHE_HOME!, 'svc', 'conversation-list.jsonl');
const list = (args: string[] = [], env: Record<string, string> = {}) => runSvc(['sessions', 'list', ...args], { ...sandbox, env: { ...sandbox.env, ...env } });
const name = (n: number) => `c${String(n).padStart(2, '0')}`;
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

function turn(user: string, n: number, model = 'svc-pro'): string {
  return `${JSON.stringify({ type: 'turn', user, assistant: 'ok', model, usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 }, at: at(n) })}\n`;
}

/** Conversation n: one turn asking "question n", its file time set to its record's (newest last). */
function save(n: number, user = `question ${n}`): string {
  const path = join(dir(), `${name(n)}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ type: 'start', v: 1, name: name(n), created: at(n) })}\n${turn(user, n)}`);
  const seconds = Date.parse(at(n)) / 1000;
  utimesSync(path, seconds, seconds);
  return path;
}

function saveAll(): void {
  mkdirSync(dir(), { recursive: true });
  for (let n = 0; n < COUNT; n++) save(n);
}

/**
 * Change conversation n's file, keeping its time: it stays among the oldest, which a listing of
 * COUNT takes from the cache (the newest 32 are read directly).
 */
function rewrite(n: number, change: (text: string) => string): void {
  const path = join(dir(), `${name(n)}.jsonl`);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
  const seconds = Date.parse(at(n)) / 1000;
  utimesSync(path, seconds, seconds);
}

/** Change the cache's row of conversation n (its file keys kept). */
function editRow(n: number, change: (row: string) => string): void {
  const text = readFileSync(cachePath(), 'utf8');
  const edited = text.split('\n').map((line) => (line.startsWith(`${name(n)}\t`) ? change(line) : line)).join('\n');
  expect(edited).not.toBe(text);
  writeFileSync(cachePath(), edited);
}

/** The line of conversation n in a listing's stdout. */
const lineOf = (stdout: string, n: number) => stdout.split('\n').find((line) => line.startsWith(`${name(n)}\t`));

describe('sessions list keeps what it saw for the next listing', () => {
  it('a file that has not changed is not read again; one that has is, even with its time set back', async () => {
    saveAll();
    const first = await list();
    expect(first.exitCode).toBe(0);
    expect(lineOf(first.stdout, 3)).toMatch(/\t1\tquestion 3$/);
    // Only the cache can say this: the file is not read while its row stands.
    editRow(3, (row) => row.replace('question 3', 'from the cache'));
    expect(lineOf((await list()).stdout, 3)).toMatch(/\tfrom the cache$/);

    // Rewritten in place, the same size, its time set back (touch -r, rsync --inplace): still seen.
    const path = join(dir(), `${name(3)}.jsonl`);
    const before = statSync(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('question 3', 'QUESTION 3'));
    utimesSync(path, before.atime, before.mtime);
    expect([statSync(path).ino, statSync(path).size, statSync(path).mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
    expect(lineOf((await list()).stdout, 3)).toMatch(/\tQUESTION 3$/);

    // A chmod: read again too (so a file made unreadable is reported, as without the cache).
    editRow(3, (row) => row.replace('QUESTION 3', 'from the cache'));
    chmodSync(path, 0o640);
    expect(lineOf((await list()).stdout, 3)).toMatch(/\tQUESTION 3$/);

    // A new turn (svc appends): both turns counted.
    appendFileSync(path, turn('a second one', 50));
    expect(lineOf((await list()).stdout, 3)).toMatch(/\t2\tQUESTION 3$/);
  });

  it('lists what it would list without a cache, as plain lines, --json and --usage, with filters', async () => {
    saveAll();
    save(7, `a line of ${'x'.repeat(250)}\nand a second line`);
    const withoutCache = async (args: string[]) => {
      rmSync(cachePath(), { force: true });
      return (await list(args)).stdout;
    };
    for (const args of [[], ['--json'], ['--usage'], ['--json', '--usage'], ['--model', 'svc-pro', '-n', '35'], ['--since', at(30)]]) {
      const fresh = await withoutCache(args);
      expect(existsSync(cachePath()), args.join(' ')).toBe(true);
      expect((await list(args)).stdout, args.join(' ')).toBe(fresh);
    }
    const json = JSON.parse((await list(['--json', '--usage'])).stdout) as Array<{ name: string; first: string; usage: { total_tokens: number } }>;
    const seventh = json.find((row) => row.name === name(7))!;
    expect(seventh.first).toHaveLength(200);
    expect(seventh.first.endsWith('…')).toBe(true);
    expect(seventh.usage.total_tokens).toBe(5);
  });

  it('a conversation deleted or added since is left out or listed', async () => {
    saveAll();
    await list();
    rmSync(join(dir(), `${name(5)}.jsonl`));
    save(60, 'a new one');
    const { stdout } = await list();
    expect(lineOf(stdout, 5)).toBeUndefined();
    expect(lineOf(stdout, 60)).toMatch(/\ta new one$/);
    expect(readFileSync(cachePath(), 'utf8')).not.toContain(`${name(5)}\t`);
  });

  it('is owner-only, in an owner-only folder: it holds the first line of every conversation', async () => {
    saveAll();
    await list();
    expect(statSync(cachePath()).mode & 0o777).toBe(0o600);
    expect(statSync(join(sandbox.env.XDG_CACHE_HOME!, 'svc')).mode & 0o777).toBe(0o700);
  });

  it('a file with damaged lines is reported by every listing, not only the first', async () => {
    saveAll();
    appendFileSync(join(dir(), `${name(2)}.jsonl`), '{"type":"turn","user":"cut\n');
    for (let run = 0; run < 2; run++) {
      const result = await list();
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain(`${name(2)}.jsonl`);
      expect(lineOf(result.stdout, 2)).toMatch(/\tquestion 2$/);
    }
  });
});

describe('what the cache keeps is what the files say', () => {
  it('models named like object fields keep their tokens (--usage), with and without the cache', async () => {
    saveAll();
    rewrite(2, (text) => text + turn('two', 2, '__proto__') + turn('three', 2, 'constructor') + turn('four', 2, 'toString'));
    const uncached = (await list(['--usage'])).stdout;
    expect(lineOf(uncached, 2)).toMatch(/\t4\t20\tquestion 2$/);
    const json = (await list(['--json', '--usage'])).stdout;
    expect(JSON.parse(json).find((row: { name: string }) => row.name === name(2)).usage.total_tokens).toBe(20);
    // Cached now: the same, and the row of a __proto__ model is as good as any other.
    editRow(2, (row) => row.replace('question 2', 'from the cache'));
    expect(lineOf((await list(['--usage'])).stdout, 2)).toMatch(/\t4\t20\tfrom the cache$/);
    expect(lineOf((await list(['--model', '__proto__'])).stdout, 2)).toMatch(/\tfrom the cache$/);
  });

  it('--model finds a model another tool wrote as org\\/m1, whether its row is cached or not', async () => {
    saveAll();
    rewrite(4, (text) => text.replace('"model":"svc-pro"', '"model":"org\\/m1"'));
    const names = async () => (await list(['--model', 'org/m1'])).stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0]);
    expect(await names()).toEqual([name(4)]);
    await list();
    editRow(4, (row) => row.replace('question 4', 'from the cache'));
    expect(await names()).toEqual([name(4)]);
    expect(lineOf((await list(['--model', 'org/m1'])).stdout, 4)).toMatch(/\tfrom the cache$/);
  });

  it('a filter that passes a file over unread leaves its row alone', async () => {
    saveAll();
    await list();
    const before = readFileSync(cachePath(), 'utf8');
    const result = await list(['--model', 'svc-other']);
    expect(result.stdout).toBe('');
    expect(readFileSync(cachePath(), 'utf8')).toBe(before);
  });

  it('sessions delete takes the conversation out of the cache too', async () => {
    saveAll();
    await list();
    expect(readFileSync(cachePath(), 'utf8')).toContain('question 5');
    expect((await runSvc(['sessions', 'delete', name(5)], sandbox)).exitCode).toBe(0);
    expect(readFileSync(cachePath(), 'utf8')).not.toContain('question 5');
  });

  it('a listing of a few files still drops the rows of conversations removed since', async () => {
    saveAll();
    await list();
    for (let n = 0; n < 30; n++) rmSync(join(dir(), `${name(n)}.jsonl`));
    expect((await list()).stdout.trim().split('\n')).toHaveLength(COUNT - 30);
    const cached = readFileSync(cachePath(), 'utf8');
    expect(cached).not.toContain('question 29');
    expect(cached).toContain('question 39');
  });

  it('a time in a record is cleaned for the terminal, as the first line is', async () => {
    saveAll();
    // Written as JSON writes it: an escape sequence inside the record's times (first listing: read
    // from the file; second: from the cache).
    rewrite(6, (text) => text.replaceAll(JSON.stringify(at(6)), JSON.stringify('2026-01-01\u001b]0;x\u0007')));
    for (let run = 0; run < 2; run++) {
      const result = await runSvc(['sessions', 'list'], sandbox, { stdoutIsTTY: true });
      expect(result.stdout).toMatch(new RegExp(`^${name(6)} +2026-01-01␛\\]0;x␇ `, 'm'));
      expect(result.stdout).not.toContain('\u001b]0;');
    }
  });
});

describe('the cache is only a copy', () => {
  it('a damaged cache is ignored and written afresh', async () => {
    saveAll();
    const expected = (await list()).stdout;
    writeFileSync(cachePath(), '{"v":1,"dir":"elsewhere"}\nc03\t[1,2,3]\n\u0000garbage');
    const result = await list();
    expect(result.stdout).toBe(expected);
    expect(result.stderr).toBe('');
    expect(readFileSync(cachePath(), 'utf8').split('\n')[0]).toBe(JSON.stringify({ v: 1, dir: dir() }));
  });

  it('damaged rows under the right header are read as missing', async () => {
    saveAll();
    const expected = (await list()).stdout;
    const header = readFileSync(cachePath(), 'utf8').split('\n')[0];
    writeFileSync(cachePath(), `${header}\nc03\t[1,2,3\nc04\tnot json\nno tab here\n\u0000\nc05\t${'['.repeat(100_000)}\n`);
    const result = await list();
    expect(result.stdout).toBe(expected);
    expect(result.stderr).toBe('');
  });

  it('a row that is not what svc writes is read as missing: the file is read again', async () => {
    saveAll();
    const expected = (await list()).stdout;
    const expectedUsage = (await list(['--usage'])).stdout;
    // The right file keys, wrong shapes: a turn count that is text (c03), a row cut short (c04),
    // a token count that is text (c05: only --usage reads the tokens, and then reads the file).
    editRow(3, (row) => row.replace(',1,"question 3"', ',"1","not from the file"'));
    editRow(4, (row) => row.slice(0, row.indexOf(',["svc-pro"]')) + ']');
    editRow(5, (row) => row.replace('question 5', 'from the cache').replace(/\[2,3,5\]\}/, '["2",3,5]}'));
    expect((await list()).stdout).toBe(expected.replace('question 5', 'from the cache'));
    expect((await list(['--usage'])).stdout).toBe(expectedUsage);
  });

  it('a cache that cannot be written costs nothing but speed', async () => {
    saveAll();
    // The cache folder is a file: nothing can be written under it.
    mkdirSync(sandbox.env.XDG_CACHE_HOME!, { recursive: true });
    writeFileSync(join(sandbox.env.XDG_CACHE_HOME!, 'svc'), 'not a folder');
    const result = await list();
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toHaveLength(COUNT);
  });

  // Root reads it all the same.
  it.skipIf(process.getuid?.() === 0)('a cache that cannot be read is written afresh', async () => {
    saveAll();
    const expected = (await list()).stdout;
    chmodSync(cachePath(), 0o000);
    expect((await list()).stdout).toBe(expected);
    expect(statSync(cachePath()).mode & 0o777).toBe(0o600);
  });
});
