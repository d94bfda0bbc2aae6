/**
 * The one way an answer's images become files (images/save-generation.ts), on its own: the
 * format check, the provenance, the names all or none, and the temporary files gone however it
 * ends. The callers' side (svc image, svc batch) is test/commands/image-save-failures.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageGeneration, ImageRequest } from '../../src/api/images/generate.js';
import { MalformedResponseError } from '../../src/core/errors.js';
import { readImageFacts } from '../../src/images/metadata-reader.js';
import { namedTarget, saveGeneration, temporaryFiles } from '../../src/images/save-generation.js';
import { jpeg, png } from '../helpers/fake-images.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-test-save-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const REQUEST: ImageRequest = { prompt: 'a red fox', model: 'svc-vision', output_format: 'png', aspect_ratio: '16:9' };
const PNG = Buffer.concat([png(64, 36), Buffer.from('the rest of the image')]);

/** An answer whose images streamed into svc's temporary files in `dir`, as generateImages leaves them. */
function answer(images: Buffer[], options: { provenance?: boolean } = {}): ImageGeneration {
  const open = temporaryFiles(dir, options.provenance ? REQUEST : undefined);
  const files = images.map((bytes) => {
    const file = open();
    file.write(bytes);
    file.end();
    return file;
  });
  return {
    created: 1,
    images: files.map((file, index) => ({ revisedPrompt: `revised ${index + 1}`, file })),
    usage: undefined,
    status: 200,
    requestId: undefined,
    answer: { data: files.map(() => ({ b64_json: 'placeholder' })) },
  };
}

const paths = (...names: string[]) => () => names.map((name) => join(dir, name));

describe('saveGeneration', () => {
  it('gives every image its name and its provenance, and leaves no temporary file', async () => {
    const result = answer([PNG, PNG], { provenance: true });
    expect(readdirSync(dir)).toHaveLength(2); // the two temporary files, before
    const saved = await saveGeneration(result, REQUEST, { to: { paths: paths('fox-1.png', 'fox-2.png') }, provenance: { warn: () => {}, seeds: [7, 8] } });
    expect(readdirSync(dir).sort()).toEqual(['fox-1.png', 'fox-2.png']);
    expect(saved.map(({ path, revisedPrompt, size }) => ({ path, revisedPrompt, size }))).toEqual([
      { path: join(dir, 'fox-1.png'), revisedPrompt: 'revised 1', size: { width: 64, height: 36 } },
      { path: join(dir, 'fox-2.png'), revisedPrompt: 'revised 2', size: { width: 64, height: 36 } },
    ]);
    const record = readImageFacts(join(dir, 'fox-2.png')).record;
    expect(record).toMatchObject({ prompt: 'a red fox', model: 'svc-vision', seed: 8, aspectRatio: '16:9', format: 'png', revisedPrompt: 'revised 2' });
    expect(saved[1]!.bytes).toBe(readFileSync(join(dir, 'fox-2.png')).length);
  });

  it('without provenance the files are the bytes as sent', async () => {
    await saveGeneration(answer([PNG]), REQUEST, { to: { paths: paths('fox.png') } });
    expect(readFileSync(join(dir, 'fox.png')).equals(PNG)).toBe(true);
  });

  it('an image of another format than asked: none is saved, no temporary file is left', async () => {
    const result = answer([PNG, jpeg(8, 8)], { provenance: true });
    const saving = saveGeneration(result, REQUEST, { to: { paths: paths('fox-1.png', 'fox-2.png') }, provenance: { warn: () => {} } });
    await expect(saving).rejects.toThrow(MalformedResponseError);
    await expect(saving).rejects.toThrow('image 2 the service sent is jpeg, not the png asked for; nothing was written');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a name taken by the time the images are saved: none is saved, that file is kept, no temporary file is left', async () => {
    writeFileSync(join(dir, 'fox-2.png'), 'theirs');
    const result = answer([PNG, PNG], { provenance: true });
    await expect(saveGeneration(result, REQUEST, { to: { paths: paths('fox-1.png', 'fox-2.png') }, provenance: { warn: () => {} } })).rejects.toThrow(
      `${join(dir, 'fox-2.png')} already exists; it was kept, and none of the 2 images was saved`,
    );
    expect(readdirSync(dir)).toEqual(['fox-2.png']);
    expect(readFileSync(join(dir, 'fox-2.png'), 'utf8')).toBe('theirs');
  });

  it('names are asked for only once the images are checked', async () => {
    let asked = 0;
    const saving = saveGeneration(answer([jpeg(8, 8)]), REQUEST, { to: { paths: () => [join(dir, `fox-${++asked}.png`)] } });
    await expect(saving).rejects.toThrow('not the png asked for');
    expect(asked).toBe(0);
  });

  it('to a stream: the one image as sent, and no temporary file left; several images are refused, as is a wrong format', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    expect(await saveGeneration(answer([PNG]), REQUEST, { to: { stream: out } })).toEqual([]);
    expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
    await expect(saveGeneration(answer([PNG, PNG]), REQUEST, { to: { stream: out } })).rejects.toThrow('-o - writes one image, and the service sent 2');
    await expect(saveGeneration(answer([jpeg(8, 8)]), REQUEST, { to: { stream: out } })).rejects.toThrow('is jpeg, not the png asked for');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('namedTarget', () => {
  it('names images after the caller’s name with the format’s extension, numbered when there are several', () => {
    const target = namedTarget(dir, 'row-7', 'jpeg');
    expect(target.path).toBe(join(dir, 'row-7.jpg'));
    expect(target.taken).toBe(false);
    expect(target.paths(1)).toEqual([join(dir, 'row-7.jpg')]);
    expect(target.paths(2)).toEqual([join(dir, 'row-7-1.jpg'), join(dir, 'row-7-2.jpg')]);
  });

  it('a link pointing nowhere takes the name too', () => {
    symlinkSync(join(dir, 'nowhere'), join(dir, 'row-7.png'));
    expect(namedTarget(dir, 'row-7', 'png').taken).toBe(true);
  });
});
