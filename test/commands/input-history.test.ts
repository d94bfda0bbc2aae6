/**
 * The input history (Up/Down across sessions) damaged the way conversation files get damaged:
 * only the damaged lines are lost, the next entry is never swallowed by a cut line, and a
 * history that cannot be used at all costs the Up key, never the session.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputHistory } from '../../src/conversations/input-history.js';

let home: string;
let env: Record<string, string>;
let file: string;
let warnings: string[];
const warn = (line: string) => warnings.push(line);

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-history-'));
  env = { HOME: home, XDG_STATE_HOME: join(home, 'state') };
  file = join(home, 'state', 'svc', 'input-history.jsonl');
  warnings = [];
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('input history', () => {
  it('an entry added after a cut last line is kept', () => {
    InputHistory.load(env, warn).add('first');
    appendFileSync(file, '"sec');
    InputHistory.load(env, warn).add('third');
    warnings.length = 0;
    expect(InputHistory.load(env, warn).entries).toEqual(['third', 'first']);
    expect(warnings).toEqual([`svc: ${file}: line 2 skipped (not complete JSON); the rest is kept`]);
  });

  it('lines that are not strings are skipped and named once', () => {
    mkdirSync(join(home, 'state', 'svc'), { recursive: true });
    writeFileSync(file, '"one"\n42\n{"x":1}\n"two"\n');
    expect(InputHistory.load(env, warn).entries).toEqual(['two', 'one']);
    expect(warnings).toEqual([`svc: ${file}: line 2 skipped (not a history entry), line 3 skipped (not a history entry); the rest is kept`]);
  });

  it('a folder where the file should be: said once, the session goes on with an in-memory history', () => {
    mkdirSync(file, { recursive: true });
    const history = InputHistory.load(env, warn);
    history.add('still works');
    expect(history.entries).toEqual(['still works']);
    expect(warnings).toEqual([`svc: ${file} is not a file; input history is not kept`]);
  });

  it('a FIFO where the file should be is never opened (it would block the session start)', async () => {
    mkdirSync(join(home, 'state', 'svc'), { recursive: true });
    await execa('mkfifo', [file]);
    expect(InputHistory.load(env, warn).entries).toEqual([]);
    expect(warnings).toEqual([`svc: ${file} is not a file; input history is not kept`]);
  });

  it('entries are written one JSON string per line', () => {
    const history = InputHistory.load(env, warn);
    history.add('a "quoted"\nmulti-line entry');
    expect(readFileSync(file, 'utf8')).toBe('"a \\"quoted\\"\\nmulti-line entry"\n');
  });
});
