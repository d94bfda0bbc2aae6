/**
 * `svc sessions search` and `svc sessions export` (issue 15, items 11 and 12), on conversation
 * files written as svc writes them, with chosen times so the order is known.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const conversationsDir = () => join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');

interface TurnSpec {
  user: string;
  assistant: string;
  at: string;
  model?: string;
  interrupted?: boolean;
}

/** A conversation file as svc writes it: a start record, then the records given. */
function save(name: string, turns: TurnSpec[], extra: { system?: string; lines?: string[] } = {}): string {
  mkdirSync(conversationsDir(), { recursive: true });
  const created = turns[0]?.at ?? '2025-01-01T00:00:00.000Z';
  const records: unknown[] = [{ type: 'start', v: 1, name, created }];
  if (extra.system) records.push({ type: 'system', content: extra.system, at: created });
  for (const turn of turns) records.push({ type: 'turn', ...turn });
  const path = join(conversationsDir(), `${name}.jsonl`);
  writeFileSync(path, [...records.map((record) => JSON.stringify(record)), ...(extra.lines ?? [])].join('\n') + '\n', { mode: 0o600 });
  return path;
}

const run = (args: string[], options: { stdoutIsTTY?: boolean } = {}) => runSvc(args, sandbox, options);

describe('svc sessions search', () => {
  beforeEach(() => {
    save('old', [{ user: 'What is a RATE LIMIT?', assistant: 'A cap on requests.', at: '2025-01-01T10:00:00.000Z', model: 'svc-pro' }]);
    save('new', [
      { user: 'first line\nwhy the rate limit here\nlast line', assistant: 'Because the Rate limit is 60 a minute.', at: '2025-03-01T09:30:00.000Z' },
    ]);
    save('other', [{ user: 'hello', assistant: 'hi', at: '2025-06-01T00:00:00.000Z' }]);
  });

  it('on a terminal: a table of the conversations that contain the text, any case, newest first, each row followed by its matching lines with who said them', async () => {
    const result = await run(['sessions', 'search', 'rate', 'limit'], { stdoutIsTTY: true });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      'NAME  CHANGED           MATCHES\n' +
        'new   2025-03-01 09:30        2\n  user: why the rate limit here\n  assistant: Because the Rate limit is 60 a minute.\n' +
        'old   2025-01-01 10:00        1\n  user: What is a RATE LIMIT?\n',
    );
  });

  it('in a pipe: every matching line whole, NAME:TURN:ROLE: first, as grep -n gives it', async () => {
    save('sys', [{ user: 'rate limit?', assistant: 'no', at: '2025-04-01T00:00:00.000Z' }, { user: 'again', assistant: 'a rate limit', at: '2025-04-02T00:00:00.000Z' }], { system: 'Mind the rate limit.' });
    const result = await run(['sessions', 'search', 'rate', 'limit']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      'sys:0:system: Mind the rate limit.\nsys:1:user: rate limit?\nsys:2:assistant: a rate limit\n' +
        'new:1:user: why the rate limit here\nnew:1:assistant: Because the Rate limit is 60 a minute.\n' +
        'old:1:user: What is a RATE LIMIT?\n',
    );
  });

  it('highlights each match on a terminal (bold red, as grep), only the match, and never with NO_COLOR', async () => {
    const env = { ...sandbox.env };
    delete env.NO_COLOR;
    const colour = await runSvc(['sessions', 'search', 'rate'], { ...sandbox, env }, { stdoutIsTTY: true });
    expect(colour.stdout).toContain('  user: What is a \u001b[1;31mRATE\u001b[22;39m LIMIT?\n');
    expect(colour.stdout).toContain('  assistant: Because the \u001b[1;31mRate\u001b[22;39m limit is 60 a minute.\n');
    const none = await run(['sessions', 'search', 'rate'], { stdoutIsTTY: true });
    expect(none.stdout).not.toContain('\u001b');
  });

  it('--json gives every match with its turn, role, whole line and where the text starts', async () => {
    const result = await run(['sessions', 'search', '--json', 'RATE LIMIT']);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        name: 'new',
        updated: '2025-03-01T09:30:00.000Z',
        turns: 1,
        matches: [
          { turn: 1, role: 'user', line: 'why the rate limit here', index: 8 },
          { turn: 1, role: 'assistant', line: 'Because the Rate limit is 60 a minute.', index: 12 },
        ],
      },
      { name: 'old', updated: '2025-01-01T10:00:00.000Z', turns: 1, matches: [{ turn: 1, role: 'user', line: 'What is a RATE LIMIT?', index: 10 }] },
    ]);
  });

  it('nothing found: exit 1 (as grep) with a note on stderr; no text at all: exit 2', async () => {
    const none = await run(['sessions', 'search', 'quantum']);
    expect(none.exitCode).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe('no saved conversation contains "quantum"\n');
    expect((await run(['sessions', 'search', '  '])).exitCode).toBe(2);
  });

  it('finds the system message, text with quotes and backslashes, and text a hand-edited file holds as \\u escapes', async () => {
    save('sys', [{ user: 'x', assistant: 'y', at: '2025-02-01T00:00:00.000Z' }], { system: 'Answer "in C:\\dos" style' });
    // "Rate" written as \u0052ate, as another JSON writer might.
    writeFileSync(join(conversationsDir(), 'escaped.jsonl'), '{"type":"start","v":1,"name":"escaped","created":"2025-01-05T00:00:00.000Z"}\n{"type":"turn","user":"\\u0052ate me","assistant":"ok","at":"2025-01-05T00:00:00.000Z"}\n');
    expect((await run(['sessions', 'search', '"in c:\\dos"'])).stdout).toBe('sys:0:system: Answer "in C:\\dos" style\n');
    expect((await run(['sessions', 'search', 'rATE ME'])).stdout).toBe('escaped:1:user: Rate me\n');
  });

  it('shows a long line around the match, and at most three lines per conversation', async () => {
    const long = `${'a'.repeat(300)} needle ${'b'.repeat(300)}`;
    save('long', [1, 2, 3, 4, 5].map((n) => ({ user: n === 1 ? long : `needle ${n}`, assistant: '', at: `2025-07-0${n}T00:00:00.000Z` })));
    const lines = (await run(['sessions', 'search', 'needle'], { stdoutIsTTY: true })).stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['NAME  CHANGED           MATCHES', 'long  2025-07-05 00:00        5']);
    expect(lines[2]).toMatch(/^ {2}user: …a+ needle b+…$/);
    expect(lines[2]!.length).toBeLessThan(200);
    expect(lines.slice(3)).toEqual(['  user: needle 2', '  user: needle 3', '  … 2 more (svc sessions show long)', '']);
  });

  it('neutralises escape sequences on a terminal and gives them exactly to a pipe', async () => {
    save('evil', [{ user: 'title \u001b]0;pwned\u0007 here', assistant: '', at: '2025-08-01T00:00:00.000Z' }]);
    const tty = await run(['sessions', 'search', 'pwned'], { stdoutIsTTY: true });
    expect(tty.stdout).not.toContain('\u001b');
    expect(tty.stdout).toContain('title ␛]0;pwned␇ here');
    expect((await run(['sessions', 'search', 'pwned'])).stdout).toContain('title \u001b]0;pwned\u0007 here');
  });

  it('keeps a line with bytes that are not UTF-8 (as �) and says so, as reading the conversation does', async () => {
    const path = join(conversationsDir(), 'latin1.jsonl');
    const turn = Buffer.concat([Buffer.from('{"type":"turn","user":"caf'), Buffer.from([0xe9]), Buffer.from(' rate limit","assistant":"ok","at":"2025-09-02T00:00:00.000Z"}\n')]);
    writeFileSync(path, Buffer.concat([Buffer.from('{"type":"start","v":1,"name":"latin1","created":"2025-09-02T00:00:00.000Z"}\n'), turn]));
    const result = await run(['sessions', 'search', 'café']);
    expect(result.exitCode).toBe(1);
    const found = await run(['sessions', 'search', 'caf\uFFFD rate']);
    expect(found.stdout).toBe('latin1:1:user: caf\uFFFD rate limit\n');
    expect(found.stderr).toBe(`svc: ${path}: line 2 has bytes that are not UTF-8, kept as �; the rest is kept\n`);
  });

  it('skips a damaged line of a matching conversation and says so once, without losing the others', async () => {
    const path = save('damaged', [{ user: 'rate limit again', assistant: 'ok', at: '2025-09-01T00:00:00.000Z' }], { lines: ['{"type":"turn","user":"rate limit cut'] });
    const result = await run(['sessions', 'search', 'rate limit']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n').map((line) => line.split(':')[0])).toEqual(['damaged', 'new', 'new', 'old', '']);
    expect(result.stderr).toBe(`svc: ${path}: line 3 skipped (not complete JSON); the rest is kept\n`);
  });
});

describe('svc sessions export', () => {
  beforeEach(() => {
    save(
      'work',
      [
        { user: 'Explain **SSE**', assistant: 'Server-sent events are...\n\n- one\n- two', at: '2025-03-01T09:30:12.000Z', model: 'svc-pro' },
        { user: 'and then?', assistant: 'It was cut', at: '2025-03-01T09:31:00.000Z', model: 'svc-mini', interrupted: true },
      ],
      { system: 'Be brief.' },
    );
  });

  it('Markdown: a title, then a heading per message with the role, and for a reply the model and the time', async () => {
    const result = await run(['sessions', 'export', 'work']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        '# work\n',
        '2 turns, started 2025-03-01 09:30 UTC, last changed 2025-03-01 09:31 UTC.\n',
        '## System\n',
        'Be brief.\n',
        '## User (turn 1)\n',
        'Explain **SSE**\n',
        '## Assistant (svc-pro, 2025-03-01 09:30 UTC)\n',
        'Server-sent events are...\n\n- one\n- two\n',
        '## User (turn 2)\n',
        'and then?\n',
        '## Assistant (svc-mini, 2025-03-01 09:31 UTC, interrupted)\n',
        'It was cut\n',
      ].join('\n'),
    );
  });

  it('--format json: the messages array as the service expects it (the same as sessions show --json)', async () => {
    const result = await run(['sessions', 'export', 'work', '--format', 'json']);
    expect(JSON.parse(result.stdout)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Explain **SSE**' },
      { role: 'assistant', content: 'Server-sent events are...\n\n- one\n- two' },
      { role: 'user', content: 'and then?' },
      { role: 'assistant', content: 'It was cut' },
    ]);
    expect(result.stdout).toBe((await run(['sessions', 'show', 'work', '--json'])).stdout);
    expect((await run(['sessions', 'export', 'work', '--format', 'pdf'])).exitCode).toBe(2);
  });

  it('-o writes the file (the format from its extension), keeps an existing one without --force, replaces it with --force', async () => {
    const out = join(sandbox.home, 'work.json');
    const first = await run(['sessions', 'export', 'work', '-o', out]);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toBe(`svc: exported "work" (2 turns, JSON) to ${out}\n`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(5);
    writeFileSync(out, 'mine');
    const refused = await run(['sessions', 'export', 'work', '-o', out]);
    // Found before anything is written: a usage error, as for svc image (issue 21, item 10).
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${out} already exists; it was kept`);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect((await run(['sessions', 'export', 'work', '-o', out, '--force'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(5);
    expect(readdirSync(sandbox.home).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('-o a folder writes <name>.<format> in it; a missing folder writes nothing and says so', async () => {
    const folder = join(sandbox.home, 'notes');
    mkdirSync(folder);
    expect((await run(['sessions', 'export', 'work', '-o', folder])).exitCode).toBe(0);
    expect(readFileSync(join(folder, 'work.md'), 'utf8')).toMatch(/^# work\n/);
    const missing = await run(['sessions', 'export', 'work', '-o', join(sandbox.home, 'nowhere', 'x.md')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`the folder ${join(sandbox.home, 'nowhere')} does not exist`);
    // A trailing slash names a folder even where there is none: refused, never a file of that name.
    const slashed = await run(['sessions', 'export', 'work', '-o', 'newdir/']);
    expect(slashed.exitCode).toBe(2);
    expect(slashed.stderr).toContain(`the folder ${join(sandbox.home, 'newdir')} does not exist`);
    expect(existsSync(join(sandbox.home, 'newdir'))).toBe(false);
    expect(readdirSync(folder)).toEqual(['work.md']);
  });

  it('--force never replaces a pipe or a device with the export: exit 2, the pipe kept', async () => {
    execFileSync('mkfifo', [join(sandbox.home, 'export-pipe')]);
    const result = await run(['sessions', 'export', 'work', '-o', 'export-pipe', '--force']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is not a file (a device, a pipe or a socket); --force replaces only files, and nothing was written');
    expect(lstatSync(join(sandbox.home, 'export-pipe')).isFIFO()).toBe(true);
  });

  it('neutralises model text on a terminal; a file gets it exactly', async () => {
    save('evil', [{ user: 'x', assistant: 'bad \u001b[2J reply', at: '2025-08-01T00:00:00.000Z' }]);
    expect((await run(['sessions', 'export', 'evil'], { stdoutIsTTY: true })).stdout).toContain('bad ␛[2J reply');
    const out = join(sandbox.home, 'evil.md');
    await run(['sessions', 'export', 'evil', '-o', out]);
    expect(readFileSync(out, 'utf8')).toContain('bad \u001b[2J reply');
  });

  it('an unknown conversation is exit 2 and writes nothing', async () => {
    const out = join(sandbox.home, 'none.md');
    const result = await run(['sessions', 'export', 'nope', '-o', out]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no saved conversation named "nope"');
    expect(readdirSync(sandbox.home)).not.toContain('none.md');
  });
});
