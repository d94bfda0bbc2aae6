/**
 * Conversation files damaged the ways real files get damaged (a cut last line, power-loss NULs,
 * a hand edit, another program's file, a folder in the way) cost only the damaged lines: named
 * once on stderr, never a reason to lose the next turn or to hide the other conversations.
 */
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationSession } from '../../src/conversations/session.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { SvcError, UsageError } from '../../src/core/errors.js';
import { appendJsonLine, readJsonLines } from '../../src/storage/jsonl-file.js';

let home: string;
let env: Record<string, string>;
let warnings: string[];
let store: ConversationStore;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-damaged-'));
  env = { HOME: home, XDG_DATA_HOME: join(home, 'data') };
  warnings = [];
  store = new ConversationStore(env, { warn: (line) => warnings.push(line) });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const turn = (user: string, assistant = 'ok') => ({ user, assistant });
const users = (name: string) => store.read(name).turns.map((t) => t.user);

/** A conversation `name` with turns `said`, its file's time set `ageSeconds` ago. */
function saved(name: string, said: string[], ageSeconds = 0): string {
  const session = ConversationSession.fresh(store, name);
  for (const user of said) session.addTurn(turn(user));
  const when = new Date(Date.now() - ageSeconds * 1000);
  utimesSync(store.pathOf(name), when, when);
  return store.pathOf(name);
}

describe('a last line cut mid-record', () => {
  it('the next turn is appended on a fresh line and kept; only the cut line is skipped and named once', () => {
    const path = saved('cut', ['before']);
    appendFileSync(path, '{"type":"turn","user":"half of a tu');
    ConversationSession.resume(store, 'cut', true).addTurn(turn('after'));
    warnings.length = 0;
    expect(users('cut')).toEqual(['before', 'after']);
    expect(warnings).toEqual([`svc: ${path}: line 3 skipped (not complete JSON); the rest is kept`]);
  });

  it('NUL bytes left by a power loss are one damaged line, and the next turn still lands', () => {
    const path = saved('nul', ['before']);
    appendFileSync(path, Buffer.alloc(300));
    ConversationSession.resume(store, 'nul', true).addTurn(turn('after'));
    expect(users('nul')).toEqual(['before', 'after']);
  });

  it('a cut line in the middle costs that line only', () => {
    const path = saved('middle', ['one']);
    appendFileSync(path, '{"type":"turn","us\n');
    ConversationSession.resume(store, 'middle', true).addTurn(turn('three'));
    expect(users('middle')).toEqual(['one', 'three']);
    expect(warnings.at(-1)).toContain('line 3 skipped');
  });
});

describe('lines that are JSON but not records', () => {
  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['an array', '["turn"]'],
    ['a string', '"hello"'],
    ['a start with "created": 5', '{"type":"start","v":1,"name":"x","created":5}'],
    ['a turn with "user": 42', '{"type":"turn","user":42,"assistant":"a","at":"2026-01-01T00:00:00Z"}'],
    ['a turn with a number for "at"', '{"type":"turn","user":"u","assistant":"a","at":5}'],
    ['a turn with usage of strings', '{"type":"turn","user":"u","assistant":"a","at":"t","usage":{"prompt_tokens":"1","completion_tokens":1,"total_tokens":2}}'],
    ['a system with "content": 7', '{"type":"system","content":7,"at":"t"}'],
    ['a record type svc does not know', '{"type":"branch","at":"t"}'],
  ])('%s is skipped with a warning naming file and line; listing and reading still work', (_what, line) => {
    const path = saved('bad', ['kept one']);
    appendFileSync(path, `${line}\n`);
    saved('good', ['other conversation'], 60);
    ConversationSession.resume(store, 'bad', true).addTurn(turn('kept two'));
    warnings.length = 0;
    const listed = store.list();
    expect(listed.map((s) => [s.name, s.turns]).sort()).toEqual([
      ['bad', 2],
      ['good', 1],
    ]);
    expect(warnings).toEqual([`svc: ${path}: line 3 skipped (not a conversation record); the rest is kept`]);
    expect(users('bad')).toEqual(['kept one', 'kept two']);
  });
});

describe('stray things in the conversations folder', () => {
  it('are left out of the listing and of --continue, whatever their age', () => {
    saved('real', ['the real one'], 3600);
    mkdirSync(join(store.dir, 'a-folder.jsonl'));
    writeFileSync(join(store.dir, 'my notes.jsonl'), '{"note":"mine"}\n');
    writeFileSync(join(store.dir, 'other-tool.jsonl'), '{"event":"x"}\n{"event":"y"}\n');
    writeFileSync(join(store.dir, 'empty.jsonl'), '');
    writeFileSync(join(store.dir, 'README.txt'), 'hello');
    symlinkSync(join(home, 'nowhere'), join(store.dir, 'dangling.jsonl'));
    expect(store.list().map((s) => s.name)).toEqual(['real']);
    expect(store.latest()).toBe('real');
    // The one with svc's naming and content that is not svc's is named, so nothing vanishes silently.
    expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining('other-tool.jsonl: no line in it is a conversation record; left out')]));
    expect(warnings.join('\n')).not.toContain('my notes');
  });

  it('--continue passes over a newest file that holds no record and takes the next', () => {
    saved('older', ['still here'], 3600);
    writeFileSync(join(store.dir, 'newest.jsonl'), 'garbage\n');
    expect(store.latest()).toBe('older');
  });

  it('a name that is a folder or a link to nothing is refused before anything is sent, never started afresh', () => {
    saved('seed', ['x']);
    mkdirSync(join(store.dir, 'dir.jsonl'));
    symlinkSync(join(home, 'nowhere'), join(store.dir, 'gone.jsonl'));
    expect(() => ConversationSession.resume(store, 'dir', true)).toThrow(/dir\.jsonl is a folder, not a saved conversation/);
    expect(() => ConversationSession.resume(store, 'gone', true)).toThrow(/gone\.jsonl is a symbolic link to nothing/);
    expect(() => store.checkWritable('dir')).toThrow(/it is a folder/);
  });

  it('a conversation that is a symbolic link to a file is read and added to through the link', () => {
    const elsewhere = join(home, 'kept-elsewhere.jsonl');
    saved('seed', ['x']);
    writeFileSync(elsewhere, readFileSync(store.pathOf('seed')));
    symlinkSync(elsewhere, join(store.dir, 'linked.jsonl'));
    ConversationSession.resume(store, 'linked', true).addTurn(turn('through the link'));
    expect(users('linked')).toEqual(['x', 'through the link']);
    expect(readFileSync(elsewhere, 'utf8')).toContain('through the link');
  });

  it('a conversations folder that is a file: listing says so; saving is refused before sending', () => {
    mkdirSync(join(home, 'data', 'svc'), { recursive: true });
    writeFileSync(store.dir, 'oops');
    expect(() => store.list()).toThrow(SvcError);
    expect(() => store.list()).toThrow(/cannot read the saved conversations in .*conversations/);
    expect(() => store.checkWritable('x')).toThrow(/cannot save conversations in .*conversations: it is a file, not a folder/);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable conversation is named with the reason, and the others are still listed', () => {
    const path = saved('locked', ['secret']);
    saved('open', ['fine'], 60);
    chmodSync(path, 0o000);
    expect(store.list().map((s) => s.name)).toEqual(['open']);
    expect(warnings.join('\n')).toContain('permission denied');
    expect(() => store.read('locked')).toThrow(/cannot read the conversation "locked".*permission denied/);
    expect(() => store.checkWritable('locked')).toThrow(/cannot save to .*locked\.jsonl: permission denied/);
  });

  it('a missing conversation is still a plain usage error', () => {
    expect(() => store.read('nope')).toThrow(UsageError);
  });
});

describe('JSON lines files', () => {
  let file: string;
  beforeEach(() => {
    file = join(home, 'lines.jsonl');
  });

  it('bytes that are not UTF-8 are kept as U+FFFD and reported, not a reason to drop the line', () => {
    writeFileSync(file, Buffer.concat([Buffer.from('"caf'), Buffer.from([0xe9]), Buffer.from('"\n"next"\n')]));
    const read = readJsonLines(file);
    expect(read.values.map((v) => v.value)).toEqual(['caf\uFFFD', 'next']);
    expect(read.problems).toEqual([{ line: 1, problem: 'bytes that are not UTF-8, kept as �', kept: true }]);
  });

  it('a line longer than the bound is skipped without being held in memory; the lines around it are read', () => {
    writeFileSync(file, `"before"\n"${'x'.repeat(5000)}"\n"after"\n${'y'.repeat(3000)}`);
    const read = readJsonLines(file, 1024);
    expect(read.values.map((v) => v.value)).toEqual(['before', 'after']);
    expect(read.problems).toEqual([
      { line: 2, problem: 'longer than 1024 bytes' },
      { line: 4, problem: 'longer than 1024 bytes' },
    ]);
  });

  it('lines split across read chunks and CRLF endings are read whole', () => {
    const values = Array.from({ length: 3000 }, (_, i) => `entry ${i} ${'z'.repeat(i % 900)}`);
    writeFileSync(file, values.map((v) => `${JSON.stringify(v)}\r\n`).join(''));
    expect(readJsonLines(file).values.map((v) => v.value)).toEqual(values);
  });

  it('an empty file has nothing in it and nothing wrong with it', () => {
    writeFileSync(file, '');
    expect(readJsonLines(file)).toEqual({ values: [], problems: [] });
  });

  it('appending starts a fresh line only when the last one was cut, and creates the file owner-only', () => {
    appendJsonLine(file, 'a');
    appendJsonLine(file, 'b');
    appendFileSync(file, '"c');
    appendJsonLine(file, 'd');
    expect(readFileSync(file, 'utf8')).toBe('"a"\n"b"\n"c\n"d"\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
