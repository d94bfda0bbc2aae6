/**
 * The JPEG and WebP decoders of @jsquash (Squoosh's codecs compiled to WebAssembly: mozjpeg and
 * libwebp). As with the emulator's WebP encoder (src/emulator/images/webp.ts), the packages would
 * load their .wasm with `fetch`, which fails under Node, so each module is compiled here from the
 * file in node_modules and handed to `init`, once per process.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Pixels } from './pixels.js';

/** The one function of the WebAssembly global used here; the DOM lib that types it is not loaded. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

type Decode = (bytes: ArrayBuffer) => Promise<{ data: Uint8ClampedArray; width: number; height: number }>;

/** What each package's `decode.js` exports, typed here: its own types give `init` only an options parameter. */
interface DecodeModule {
  init(module: object, overrides: { print(text: string): void; printErr(text: string): void }): Promise<unknown>;
  default: Decode;
}

const CODECS = {
  jpeg: { module: () => import('@jsquash/jpeg/decode.js'), wasm: '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm' },
  webp: { module: () => import('@jsquash/webp/decode.js'), wasm: '@jsquash/webp/codec/dec/webp_dec.wasm' },
} as const;

export type WasmFormat = keyof typeof CODECS;

const loading = new Map<WasmFormat, Promise<Decode>>();

async function loadDecoder(format: WasmFormat): Promise<Decode> {
  const require = createRequire(import.meta.url);
  const codec = (await CODECS[format].module()) as unknown as DecodeModule;
  const compiled = await WebAssembly.compile(await readFile(require.resolve(CODECS[format].wasm)));
  // libjpeg prints its warnings ("Premature end of JPEG file") straight to stderr: svc says what
  // went wrong itself, in one line, so the codecs' own output is dropped.
  const quiet = () => {};
  await codec.init(compiled, { print: quiet, printErr: quiet });
  return codec.default;
}

function decoder(format: WasmFormat): Promise<Decode> {
  let pending = loading.get(format);
  if (!pending) {
    // A failed load is forgotten, so a later preview (in a chat session) tries again.
    pending = loadDecoder(format).catch((error: unknown) => {
      loading.delete(format);
      throw error;
    });
    loading.set(format, pending);
  }
  return pending;
}

/** Start compiling `format`'s decoder now (while the image is generated); a failure is left for the decode to report. */
export function preloadDecoder(format: WasmFormat): void {
  decoder(format).catch(() => {});
}

/** RGBA pixels of a JPEG (baseline or progressive) or WebP (lossy or lossless, with alpha) file. */
export async function decodeWithWasm(format: WasmFormat, bytes: Uint8Array): Promise<Pixels> {
  const decode = await decoder(format);
  // The codecs want an ArrayBuffer of exactly the file: a Buffer may be a view into a larger pool.
  const exact = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const image = await decode(exact);
  return { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
}
