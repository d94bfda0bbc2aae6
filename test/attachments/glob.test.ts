/** The small glob behind `-f 'src/*.ts'` and `/file`: the forms it knows and the shell habits it keeps. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandBraces, globFiles, hasGlobMagic, segmentRegExp } from '../../src/attachments/glob.js';

describe('expandBraces', () => {
  it.each([
    ['a.ts', ['a.ts']],
    ['src/*.{ts,md}', ['src/*.ts', 'src/*.md']],
    ['{a,b{c,d}}x', ['ax', 'bcx', 'bdx']],
    ['{x}.ts', ['{x}.ts']],
    ['{a,b', ['{a,b']],
  ])('%s → %j', (pattern, expected) => {
    expect(expandBraces(pattern)).toEqual(expected);
  });
});

describe('segmentRegExp', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', '.hidden.ts', false],
    ['.*', '.env', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(segmentRegExp(pattern).test(name)).toBe(expected);
  });

  it('knows which arguments are globs', () => {
    expect(['a.ts', 'src/*.ts', 'a?.md', '{a,b}', '[x]'].map(hasGlobMagic)).toEqual([false, true, true, true, true]);
  });
});

describe('globFiles', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-glob-'));
    for (const file of ['b.ts', 'a.ts', 'a.md', '.hidden.ts', 'src/x.ts', 'src/deep/y.ts', 'src/deep/z.md', '.git/config.ts', 'node/n.ts']) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), file);
    }
    // A link back to the top: `**` must not follow it (it would never end).
    symlinkSync(dir, join(dir, 'src', 'loop'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['*.ts', ['a.ts', 'b.ts']],
    ['*.{md,ts}', ['a.md', 'a.ts', 'b.ts']],
    ['src/**/*.ts', ['src/deep/y.ts', 'src/x.ts']],
    ['**/*.md', ['a.md', 'src/deep/z.md']],
    ['src/**', ['src/deep/y.ts', 'src/deep/z.md', 'src/x.ts']],
    ['*/*.ts', ['node/n.ts', 'src/x.ts']],
    ['.*.ts', ['.hidden.ts']],
    ['nothing/*.ts', []],
  ])('%s → %j (sorted, files only, hidden ones only when asked)', (pattern, expected) => {
    expect(globFiles(pattern, dir)).toEqual(expected);
  });

  it('keeps an absolute pattern absolute', () => {
    expect(globFiles(`${dir}/src/*.ts`, '/')).toEqual([`${dir}/src/x.ts`]);
  });
});
