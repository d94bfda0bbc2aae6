/**
 * Finding old conversations (issue 24, item 5): -n, --since, --model and --json on
 * `svc sessions list` and `search`, and the saveOneShots setting that keeps one-shot answers out
 * of the history. In-process, on conversation files written as svc writes them (file times set
 * to their last record, so "newest" is known), and against a scripted service for the chats.
 */
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { parseSince } from '../../src/conversations/filter.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'filters-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

const dir = () => join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
const run = (args: string[], env: Record<string, string> = {}) => runSvc(args, { ...sandbox, env: { ...sandbox.env, ...env } });
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A conversation file whose turns were answered by `model`, last changed at `at`; `damaged` adds a cut last line. */
function save(name: string, user: string, at: string, options: { model?: string; damaged?: boolean } = {}): string {
  mkdirSync(dir(), { recursive: true });
  const records = [
    { type: 'start', v: 1, name, created: at },
    { type: 'turn', user, assistant: 'ok', at, ...(options.model ? { model: options.model } : {}) },
  ];
  const path = join(dir(), `${name}.jsonl`);
  writeFileSync(path, `${records.map((record) => JSON.stringify(record)).join('\n')}\n${options.damaged ? '{"type":"turn","user":"cut\n' : ''}`);
  const seconds = Date.parse(at) / 1000;
  utimesSync(path, seconds, seconds);
  return path;
}

const names = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(/[\t:]/)[0]);

describe('sessions list: -n, --since, --model, --json', () => {
  beforeEach(() => {
    save('fresh', 'docker question', ago(1 * HOUR), { model: 'svc-mini' });
    save('recent', 'docker again', ago(30 * HOUR), { model: 'svc-pro' });
    save('old', 'docker long ago', ago(10 * 24 * HOUR), { model: 'svc-mini', damaged: true });
  });

  it('-n N lists the newest N and reads no other file (the damaged oldest one is never opened)', async () => {
    const result = await run(['sessions', 'list', '-n', '2']);
    expect(result.exitCode).toBe(0);
    expect(names(result.stdout)).toEqual(['fresh', 'recent']);
    expect(result.stderr).toBe('');
    // Without -n the listing does reach it, and says so: the check above can fail.
    expect((await run(['sessions', 'list'])).stderr).toContain('old.jsonl');
  });

  it('--since takes a duration back from now or a date, and keeps what changed since then', async () => {
    expect(names((await run(['sessions', 'list', '--since', '2h'])).stdout)).toEqual(['fresh']);
    expect(names((await run(['sessions', 'list', '--since', '2d'])).stdout)).toEqual(['fresh', 'recent']);
    expect(names((await run(['sessions', 'list', '--since', '2w'])).stdout)).toEqual(['fresh', 'recent', 'old']);
    const day = ago(5 * 24 * HOUR).slice(0, 10);
    expect(names((await run(['sessions', 'list', '--since', day])).stdout)).toEqual(['fresh', 'recent']);
  });

  it('--model keeps the conversations with a reply from that model; filters combine with -n and --json', async () => {
    expect(names((await run(['sessions', 'list', '--model', 'svc-mini'])).stdout)).toEqual(['fresh', 'old']);
    const json = await run(['sessions', 'list', '--model', 'svc-mini', '--since', '1w', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([{ name: 'fresh', updated: expect.any(String), turns: 1, first: 'docker question' }]);
    expect(JSON.parse((await run(['sessions', 'list', '-n', '1', '--json'])).stdout).map((row: { name: string }) => row.name)).toEqual(['fresh']);
  });

  it('nothing passes: an empty listing, exit 0, and stderr says what was asked', async () => {
    const result = await run(['sessions', 'list', '--model', 'svc-vision']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('no saved conversation that used svc-vision\n');
    expect((await run(['sessions', 'list', '--model', 'svc-vision', '--json'])).stdout).toBe('[]\n');
  });

  it.each([
    [['-n', '0'], '-n must be a whole number 1 or more; got "0"'],
    [['-n', 'ten'], '-n must be a whole number 1 or more; got "ten"'],
    [['--since', 'yesterday'], '--since must be a duration (30m, 12h, 2d, 1w) or a date (2026-11-01); got "yesterday"'],
    [['--since', '2026-13-45'], '--since must be a duration (30m, 12h, 2d, 1w) or a date (2026-11-01); got "2026-13-45"'],
    [['--model', 'a b'], '--model must be a model id without spaces; got "a b"'],
  ])('a bad value %j is exit 2 naming it, before any file is read', async (flags, message) => {
    for (const command of [['sessions', 'list'], ['sessions', 'search', 'docker']]) {
      const result = await run([...command, ...flags]);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
    }
  });
});

describe('sessions search: -n, --since, --model', () => {
  beforeEach(() => {
    save('fresh', 'docker question', ago(1 * HOUR), { model: 'svc-mini' });
    save('between', 'nothing here', ago(2 * HOUR), { model: 'svc-mini' });
    save('recent', 'docker again', ago(30 * HOUR), { model: 'svc-pro' });
    save('old', 'docker long ago', ago(10 * 24 * HOUR), { model: 'svc-mini', damaged: true });
  });

  it('-n N stops once N conversations matched, newest first: no file after is read', async () => {
    const result = await run(['sessions', 'search', '-n', '2', 'docker']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('fresh:1:user: docker question\nrecent:1:user: docker again\n');
    expect(result.stderr).toBe('');
    expect((await run(['sessions', 'search', 'docker'])).stderr).toContain('old.jsonl');
    const json = await run(['sessions', 'search', '-n', '1', '--json', 'docker']);
    expect(JSON.parse(json.stdout).map((hit: { name: string }) => hit.name)).toEqual(['fresh']);
    expect(json.stderr).toBe('');
  });

  it('--since and --model narrow the conversations searched', async () => {
    expect(names((await run(['sessions', 'search', '--since', '2d', 'docker'])).stdout)).toEqual(['fresh', 'recent']);
    expect(names((await run(['sessions', 'search', '--model', 'svc-mini', 'docker'])).stdout)).toEqual(['fresh', 'old']);
    const json = await run(['sessions', 'search', '--model', 'svc-pro', '--json', 'docker']);
    expect(JSON.parse(json.stdout)).toEqual([{ name: 'recent', updated: expect.any(String), turns: 1, matches: [{ turn: 1, role: 'user', line: 'docker again', index: 0 }] }]);
  });

  it('nothing left after the filters: exit 1, and the note says what was asked', async () => {
    const result = await run(['sessions', 'search', '--model', 'svc-pro', '--since', '2h', 'docker']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^no saved conversation changed since \d{4}-\d\d-\d\d \d\d:\d\d UTC, that used svc-pro contains "docker"\n$/);
  });
});

describe('--since values', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it.each([
    ['30m', '2026-11-25T11:30:00.000Z'],
    ['12h', '2026-11-25T00:00:00.000Z'],
    ['2d', '2026-11-23T12:00:00.000Z'],
    ['1w', '2026-11-18T12:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T09:30', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30:00+02:00', '2026-11-01T07:30:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseSince(text, '--since', now).toISOString()).toBe(iso);
  });
});

describe('the saveOneShots setting', () => {
  const saved = () => (existsSync(dir()) ? readdirSync(dir()).sort() : []);

  it('on (the default): a one-shot answer is saved', async () => {
    scripted.server.script(answer('kept'));
    expect((await run(['chat', 'question'])).exitCode).toBe(0);
    expect(saved()).toHaveLength(1);
  });

  it('off: a one-shot answer is not saved, but --session and --continue still are', async () => {
    scripted.server.script(answer('gone'), answer('A1'), answer('A2'));
    const env = { SVC_SAVE_ONE_SHOTS: 'off' };
    const oneShot = await run(['chat', 'question'], env);
    expect(oneShot.exitCode).toBe(0);
    expect(oneShot.stdout).toBe('gone\n');
    expect(saved()).toEqual([]);
    expect((await run(['chat', '--session', 'work', 'Q1'], env)).exitCode).toBe(0);
    expect((await run(['chat', '--continue', 'Q2'], env)).exitCode).toBe(0);
    expect(saved()).toEqual(['work.jsonl']);
    expect(new ConversationStore(sandbox.env).read('work').turns.map((turn) => turn.user)).toEqual(['Q1', 'Q2']);
  });

  it('is stored as "on" or "off" by svc config set (true/false, yes/no, 1/0 taken too); anything else is exit 2', async () => {
    expect((await run(['config', 'set', 'saveOneShots', 'false'])).exitCode).toBe(0);
    expect((await run(['config', 'get', 'saveOneShots'])).stdout).toBe('off\n');
    scripted.server.script(answer('not kept'));
    expect((await run(['chat', 'question'])).exitCode).toBe(0);
    expect(saved()).toEqual([]);
    expect((await run(['config', 'set', 'saveOneShots', 'yes'])).exitCode).toBe(0);
    expect((await run(['config', 'get', 'saveOneShots'])).stdout).toBe('on\n');
    const bad = await run(['config', 'set', 'saveOneShots', 'maybe']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('saveOneShots must be one of on, off, true, false, yes, no, 1, 0 (in any case); got "maybe"');
    const badEnv = await run(['chat', 'question'], { SVC_SAVE_ONE_SHOTS: 'sometimes' });
    expect(badEnv.exitCode).toBe(2);
    expect(badEnv.stderr).toContain('SVC_SAVE_ONE_SHOTS must be one of on, off, true, false, yes, no, 1, 0 (in any case); got "sometimes"');
  });
});
