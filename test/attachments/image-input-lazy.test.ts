/**
 * An image that goes as it is loads no codec: the decoders, the scaler, the encoders and omggif
 * are imported only when a picture has to be scaled (or, for omggif, when a GIF is looked at).
 * Checked by what the module imported.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import jpegJs from 'jpeg-js';
import { prepareImage } from '../../src/attachments/image-input.js';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('../../src/images/decode.js', async (importOriginal) => {
  loaded.add('decode');
  return importOriginal();
});
vi.mock('../../src/images/scale.js', async (importOriginal) => {
  loaded.add('scale');
  return importOriginal();
});
vi.mock('@jsquash/jpeg/encode.js', async (importOriginal) => {
  loaded.add('jpeg encoder');
  return importOriginal();
});
vi.mock('@jsquash/webp/encode.js', async (importOriginal) => {
  loaded.add('webp encoder');
  return importOriginal();
});
vi.mock('omggif', async (importOriginal) => {
  loaded.add('omggif');
  return importOriginal();
});

describe('what an attached image loads', () => {
  it('nothing for pictures within the limit; the decoder, the scaler and its own encoder for one over it', async () => {
    const rgba = new Uint8Array(64 * 48 * 4).fill(200);
    const png = pngFile(64, 48, false, deflateSync(subFilteredRows(rgba, 64, 48, false)));
    // Made with jpeg-js, so that the encoder svc loads is loaded by svc alone.
    const small = jpegJs.encode({ data: rgba, width: 64, height: 48 }, 85).data;
    const big = jpegJs.encode({ data: new Uint8Array(2100 * 10 * 4).fill(90), width: 2100, height: 10 }, 85).data;

    expect((await prepareImage(png, { name: 'a.png' })).bytes.equals(png)).toBe(true);
    expect((await prepareImage(small, { name: 'a.jpg' })).bytes.equals(small)).toBe(true);
    expect([...loaded]).toEqual([]);

    expect((await prepareImage(big, { name: 'b.jpg' })).width).toBe(2048);
    expect([...loaded].sort()).toEqual(['decode', 'jpeg encoder', 'scale']);
  });
});
