/**
 * Images kept once under their content hash (src/storage/image-store.ts): owner-only, the same
 * bytes twice one file, read back checked; a missing, damaged or unnamable file an
 * ImageStoreError naming it, never a crash.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/core/errors.js';
import { imagesDir, ImageStoreError, keepImage, keptImagePath, readKeptImage } from '../../src/storage/image-store.js';

let data: string;

beforeEach(() => {
  data = join(mkdtempSync(join(tmpdir(), 'svc-images-')), 'svc');
});
afterEach(() => {
  const root = join(data, '..');
  // A test makes the folder read-only: give it back before removing it.
  if (statSync(imagesDir(data), { throwIfNoEntry: false })) chmodSync(imagesDir(data), 0o700);
  rmSync(root, { recursive: true, force: true });
});

const picture = Buffer.from('\x89PNG\r\n\x1a\n pretend picture bytes');
const sha = createHash('sha256').update(picture).digest('hex');

function thrown(run: () => unknown): ImageStoreError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ImageStoreError);
  expect((caught as ImageStoreError).exitCode).toBe(ExitCode.failure);
  return caught as ImageStoreError;
}

describe('keepImage', () => {
  it('writes images/<sha256>.<ext> in the data folder, owner-only, and says where', () => {
    const kept = keepImage(data, picture, 'png');
    expect(kept).toEqual({ sha256: sha, ext: 'png', path: join(data, 'images', `${sha}.png`), bytes: picture.length });
    expect(readFileSync(kept.path).equals(picture)).toBe(true);
    if (process.platform !== 'win32') {
      expect(statSync(kept.path).mode & 0o777).toBe(0o600);
      expect(statSync(imagesDir(data)).mode & 0o077).toBe(0);
    }
  });

  it('the same bytes twice are one file, not written again; other bytes another file', () => {
    const first = keepImage(data, picture, 'png');
    const written = statSync(first.path);
    const second = keepImage(data, Buffer.from(picture), 'png');
    expect(second).toEqual(first);
    expect(statSync(first.path).ino).toBe(written.ino);
    expect(statSync(first.path).mtimeMs).toBe(written.mtimeMs);
    keepImage(data, Buffer.from('other bytes'), 'jpg');
    expect(readdirSync(imagesDir(data)).sort()).toEqual([`${createHash('sha256').update('other bytes').digest('hex')}.jpg`, `${sha}.png`].sort());
  });

  it('a file of that name whose bytes were damaged is replaced with the right ones', () => {
    const { path } = keepImage(data, picture, 'png');
    writeFileSync(path, 'scribbled over');
    keepImage(data, picture, 'png');
    expect(readFileSync(path).equals(picture)).toBe(true);
    expect(readdirSync(imagesDir(data))).toEqual([`${sha}.png`]);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('a folder it cannot write to: an ImageStoreError naming the file, nothing left behind', () => {
    mkdirSync(imagesDir(data), { recursive: true });
    chmodSync(imagesDir(data), 0o500);
    const error = thrown(() => keepImage(data, picture, 'png'));
    expect(error.message).toBe(`cannot keep the image as ${join(data, 'images', `${sha}.png`)}: permission denied (EACCES)`);
  });

  it('a data folder that is a file: an ImageStoreError, not a crash', () => {
    mkdirSync(join(data, '..'), { recursive: true });
    writeFileSync(data, 'not a folder');
    const error = thrown(() => keepImage(data, picture, 'png'));
    expect(error.message).toMatch(/^cannot keep the image as .*\.png: a part of the path is not a folder \(ENOTDIR\)$/);
    rmSync(data);
  });
});

describe('readKeptImage', () => {
  it('gives back the bytes kept', () => {
    keepImage(data, picture, 'gif');
    expect(readKeptImage(data, sha, 'gif').equals(picture)).toBe(true);
  });

  it('a missing file: an ImageStoreError naming it, with what to do', () => {
    const error = thrown(() => readKeptImage(data, sha, 'png'));
    expect(error.message).toBe(`the kept image ${join(data, 'images', `${sha}.png`)} is missing`);
    expect(error.hint).toContain('attach the picture again');
  });

  it('a damaged file (its bytes no longer match its name): an ImageStoreError naming it', () => {
    const { path } = keepImage(data, picture, 'webp');
    writeFileSync(path, picture.subarray(0, 10));
    expect(thrown(() => readKeptImage(data, sha, 'webp')).message).toBe(`the kept image ${path} is damaged: its bytes do not match its name`);
  });

  it('a folder in its place: an ImageStoreError, not a crash', () => {
    mkdirSync(join(imagesDir(data), `${sha}.png`), { recursive: true });
    expect(thrown(() => readKeptImage(data, sha, 'png')).message).toBe(`cannot read the kept image ${join(data, 'images', `${sha}.png`)}: it is a folder (EISDIR)`);
  });

  it.each([
    ['../../etc/passwd', 'png'],
    [sha.toUpperCase(), 'png'],
    [sha.slice(1), 'png'],
    [sha, 'exe'],
    [sha, '../png'],
  ])('a name that is not a hash and a kept extension (%j, %j) never becomes a path', (hash, ext) => {
    expect(thrown(() => keptImagePath(data, hash, ext)).message).toMatch(/^not an image svc keeps: /);
    expect(thrown(() => readKeptImage(data, hash, ext)).message).toMatch(/^not an image svc keeps: /);
  });
});
