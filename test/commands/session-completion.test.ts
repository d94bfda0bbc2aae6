/**
 * Tab completion in the session (complete-line.ts): a table over a temp folder holding files,
 * a folder, a hidden file, a name with a space, and a user role beside the built-in ones.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { completeSessionLine, currentPathWord } from '../../src/commands/chat/interactive/complete-line.js';
import { helpText } from '../../src/commands/chat/interactive/slash-commands.js';

const root = mkdtempSync(join(tmpdir(), 'svc-complete-'));
const cwd = join(root, 'work');
const home = join(root, 'home');
for (const dir of [cwd, join(cwd, 'docs'), join(cwd, 'my dir'), home, join(home, 'pics'), join(root, 'config', 'svc', 'roles')]) mkdirSync(dir, { recursive: true });
for (const file of ['notes.md', 'notes.txt', '.hidden', 'my file.txt', 'docs/guide.md', 'my dir/inner.md']) writeFileSync(join(cwd, file), 'x');
writeFileSync(join(home, 'todo.md'), 'x');
writeFileSync(join(root, 'config', 'svc', 'roles', 'poet.md'), 'You write poems.\n');
const context = { cwd, env: { HOME: home, XDG_CONFIG_HOME: join(root, 'config') } };
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('completeSessionLine', () => {
  it.each([
    // Command names, at the start of a slash line.
    ['/ima', [['/image '], '/ima']],
    ['/h', [['/help ', '/history '], '/h']],
    ['/zz', [[], '/zz']],
    // A plain message, or a message escaped with //, gets nothing (line-reader.ts inserts a Tab).
    ['hello', [[], 'hello']],
    ['//ima', [[], '//ima']],
    // /image: options for a word starting with "-", values after --aspect / --format.
    ['/image --asp', [['--aspect '], '--asp']],
    ['/image a cat -', [['--aspect ', '--format ', '--seed ', '--negative ', '-o '], '-']],
    ['/image --aspect 16', [['16:9 '], '16']],
    ['/image --aspect ', [['1:1 ', '16:9 ', '9:16 ', '4:3 ', '3:4 ', '21:9 '], '']],
    ['/image --format we', [['webp '], 'we']],
    ['/image --format=j', [['--format=jpeg '], '--format=j']],
    ['/image a cat', [[], 'cat']],
    ['/image --seed 4', [[], '4']],
    ['/image -o no', [['notes.md ', 'notes.txt '], 'no']],
    // -o has no escapes (image-args.ts): a name with a space is offered only inside quotes.
    ['/image -o my', [[], 'my']],
    ['/image -o "my', [['"my dir/', '"my file.txt" '], '"my']],
    // /file: files end the word, folders go on with "/", hidden names only for a ".".
    ['/file no', [['notes.md ', 'notes.txt '], 'no']],
    ['/file notes.m', [['notes.md '], 'notes.m']],
    ['/file do', [['docs/'], 'do']],
    ['/file docs/', [['docs/guide.md '], 'docs/']],
    ['/file ', [['docs/', 'my\\ dir/', 'my\\ file.txt ', 'notes.md ', 'notes.txt '], '']],
    ['/file .h', [['.hidden '], '.h']],
    ['/file my', [['my\\ dir/', 'my\\ file.txt '], 'my']],
    ['/file my\\ f', [['my\\ file.txt '], 'my\\ f']],
    ['/file my\\ dir/', [['my\\ dir/inner.md '], 'my\\ dir/']],
    ['/file "my f', [['"my file.txt" '], '"my f']],
    ['/file notes.md do', [['docs/'], 'do']],
    ['/file ~', [['~/'], '~']],
    ['/file ~/', [['~/pics/', '~/todo.md '], '~/']],
    ['/file ~/to', [['~/todo.md '], '~/to']],
    ['/file nowhere/x', [[], 'nowhere/x']],
    // /file's words once a letter of them is typed: last (any word, before the files that match) and clear (alone).
    ['/file l', [['last '], 'l']],
    ['/file c', [['clear '], 'c']],
    ['/file notes.md l', [['last '], 'l']],
    ['/file notes.md c', [[], 'c']],
    ['/file "l', [[], '"l']],
    // /role: built-in and user roles.
    ['/role ', [['commit ', 'explain ', 'poet ', 'shell ', 'translate '], '']],
    ['/role p', [['poet '], 'p']],
    ['/role poet x', [[], 'poet x']],
    // Commands without arguments to complete.
    ['/model gp', [[], 'gp']],
  ])('%j', (line, expected) => {
    expect(completeSessionLine(line, context)).toEqual(expected);
  });
});

describe('currentPathWord', () => {
  it.each([
    ['a b', { typed: 'b', value: 'b', quote: undefined }],
    ['a\\ b', { typed: 'a\\ b', value: 'a b', quote: undefined }],
    ['x "a b', { typed: '"a b', value: 'a b', quote: '"' }],
    ['a ', { typed: '', value: '', quote: undefined }],
  ])('%j', (arg, expected) => {
    expect(currentPathWord(arg)).toEqual(expected);
  });
});

it('/help says what Tab completes', () => {
  expect(helpText()).toContain('Tab               completes commands, /image options, /file paths and last, /role names');
});
