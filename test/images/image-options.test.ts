import { describe, expect, it } from 'vitest';
import { freshPaths, numbered, slugFromPrompt } from '../../src/images/file-names.js';
import { parseImageOptions, type RawImageOptions } from '../../src/commands/image-options.js';
import { UsageError } from '../../src/core/errors.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const raw = (overrides: Partial<RawImageOptions>): RawImageOptions => ({ words: ['a', 'fox'], ...overrides });

describe('parseImageOptions', () => {
  it('maps the flags', () => {
    expect(parseImageOptions(raw({ aspect: '16:9', format: 'webp', seed: '42', negative: ' people ' }))).toMatchObject({
      prompt: 'a fox',
      aspect: '16:9',
      format: 'webp',
      seed: 42,
      negative: 'people',
      output: { kind: 'auto' },
    });
  });

  it.each([
    [{ output: 'x.jpg' }, 'jpeg'],
    [{ output: 'x.JPEG' }, 'jpeg'],
    [{ output: 'x.webp' }, 'webp'],
    [{ output: 'x' }, 'png'],
    [{ output: 'x', format: 'jpg' }, 'jpeg'],
    [{ output: '-' }, 'png'],
    [{}, 'png'],
  ])('%j → format %s', (overrides, format) => {
    expect(parseImageOptions(raw(overrides)).format).toBe(format);
  });

  it.each([
    [{ words: [] }, 'no prompt'],
    [{ aspect: '2:1' }, '1:1, 16:9, 9:16, 4:3, 3:4, 21:9'],
    [{ format: 'gif' }, 'png, jpeg, webp'],
    [{ seed: '1.5' }, '--seed'],
    [{ seed: '-1' }, '--seed'],
    [{ seed: '4294967296' }, '--seed'],
    [{ negative: ' ' }, '--negative'],
    [{ output: 'x.png', format: 'jpeg' }, 'says png but --format says jpeg'],
    [{ output: 'x.gif' }, 'not an image extension'],
    [{ output: '-', json: true }, 'both want stdout'],
  ])('%j is a usage error mentioning %s', (overrides, words) => {
    expect(() => parseImageOptions(raw(overrides as Partial<RawImageOptions>))).toThrow(UsageError);
    expect(() => parseImageOptions(raw(overrides as Partial<RawImageOptions>))).toThrow(words);
  });
});

describe('file names', () => {
  it.each([
    ['A lighthouse at dusk', 'a-lighthouse-at-dusk'],
    ['../../etc/passwd', 'etc-passwd'],
    ['/absolute/path', 'absolute-path'],
    ['Crème brûlée, façade', 'creme-brulee-facade'],
    ['\u001b[31mred\u0007', '31mred'],
    ['CON', 'con-image'],
    ['日本の庭', 'image'],
    ['word '.repeat(40), Array(9).fill('word').join('-')],
    ['x'.repeat(100), 'x'.repeat(48)],
  ])('%j → %s', (prompt, slug) => {
    expect(slugFromPrompt(prompt)).toBe(slug);
  });

  it('numbers several images', () => {
    expect(numbered('/d/out.png', 1)).toEqual(['/d/out.png']);
    expect(numbered('/d/out.png', 3)).toEqual(['/d/out-1.png', '/d/out-2.png', '/d/out-3.png']);
  });

  it('never picks a name that exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-names-'));
    try {
      expect(freshPaths(dir, 'a fox', 'png', 1)).toEqual([join(dir, 'a-fox.png')]);
      writeFileSync(join(dir, 'a-fox.png'), 'x');
      writeFileSync(join(dir, 'a-fox-2.png'), 'x');
      expect(freshPaths(dir, 'a fox', 'png', 1)).toEqual([join(dir, 'a-fox-3.png')]);
      expect(freshPaths(dir, 'a fox', 'jpeg', 2)).toEqual([join(dir, 'a-fox-1.jpg'), join(dir, 'a-fox-2.jpg')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
