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

/** The line of conversation n in a listing's stdout. */
const lineOf = (stdout: string, n: number) => stdout.split('\n').find((line) => line.startsWith(`${name(n)}\t`));

describe('sessions list keeps what it saw for the next listing', () => {
  it('a file that has not changed is not read again; one that has is', async () => {
    saveAll();
    const first = await list();
    expect(first.exitCode).toBe(0);
    expect(lineOf(first.stdout, 3)).toMatch(/\t1\tquestion 3$/);
    expect(existsSync(cachePath())).toBe(true);

    // The same bytes count, time and inode, other words: only the cache can still say "question 3".
    const path = join(dir(), `${name(3)}.jsonl`);
    const before = statSync(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('question 3', 'QUESTION 3'));
    utimesSync(path, before.atime, before.mtime);
    expect(statSync(path).ino).toBe(before.ino);
    expect(lineOf((await list()).stdout, 3)).toMatch(/\tquestion 3$/);

    // A new turn (svc appends): the file is read again, both turns counted.
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

  it('a row that is not what svc writes is read as missing: the file is read again', async () => {
    saveAll();
    const expected = (await list()).stdout;
    const text = readFileSync(cachePath(), 'utf8');
    // Rows for c03 and c04 with the right file keys but wrong shapes: a token count that is text, a row cut short.
    const edited = text
      .split('\n')
      .map((line) => {
        if (line.startsWith(`${name(3)}\t`)) return line.replace(/\[2,3,5\]/, '["2",3,5]').replace(/question 3/, 'not from the file');
        if (line.startsWith(`${name(4)}\t`)) return line.slice(0, line.lastIndexOf(',["svc-pro"]')) + ']';
        return line;
      })
      .join('\n');
    expect(edited).not.toBe(text);
    writeFileSync(cachePath(), edited);
    expect((await list()).stdout).toBe(expected);
    expect((await list(['--usage'])).exitCode).toBe(0);
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
