/**
 * Readying the preview's pixel loops while the image is being generated. svc previews once per
 * process, so its decoder, scaler and encoders would otherwise run on cold code: V8 interprets a
 * loop, then compiles it on a background thread while the loop goes on slowly, and for a
 * megapixel that start-up cost is about as large as the work itself (bench/README.md). Running the
 * same loops over a small made-up picture while svc waits for the service (seconds, usually)
 * leaves them compiled when the real picture arrives. It starts with the request (preload.ts),
 * not after a wait to see whether the service is quick: against a quick service a warm-up begun
 * late runs into the answer and delays it. The work is split by
 * `setImmediate` and stops at the next step once the answer is in, so the answer waits for one
 * step at most (a few milliseconds); nothing is written anywhere.
 */
import { deflateSync } from 'node:zlib';
import type { Protocol } from './choose.js';

/** Side of the made-up picture: rows enough for V8 to see the per-row functions as hot. */
const SIDE = 192;

/**
 * An 8-bit RGB PNG of `side` × `side` made-up bytes, its rows cycling through all five filter
 * types (so each branch of the unfiltering is exercised). Only what svc's own decoder reads is
 * written: the chunks' checksums are left 0.
 */
function madeUpPng(side: number): Buffer {
  const stride = side * 3 + 1;
  const raw = Buffer.alloc(stride * side);
  for (let y = 0, seed = 1; y < side; y += 1) {
    raw[y * stride] = y % 5;
    for (let i = 1; i < stride; i += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      raw[y * stride + i] = seed >> 23;
    }
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Detach one empty ArrayBuffer, now. V8 compiles typed-array loops on the promise that no
 * ArrayBuffer in the process has ever been detached, and throws all such code away the first time
 * one is; undici's HTTP parser (WebAssembly) does that when it grows its memory while reading a
 * large answer, which would discard the loops readied here just before the preview needs them.
 * Once any buffer has been detached, code is compiled with the check included and stays.
 */
function settleDetaching(): void {
  const buffer = new ArrayBuffer(0);
  structuredClone(buffer, { transfer: [buffer] });
}

/** Whether the warm-up is to stop (the answer is in): checked before each step. */
export interface WarmUpControl {
  stopped: boolean;
}

/**
 * Run the loops a `protocol` preview of a PNG will use over a made-up picture, a step per turn of
 * the event loop, until `control.stopped`. Never throws: a failure here is the preview's to meet
 * and report later.
 */
export async function warmUp(protocol: Protocol, control: WarmUpControl = { stopped: false }): Promise<void> {
  try {
    settleDetaching();
    const [{ decodeRgbPngRows }, { scaleDown }] = await Promise.all([import('../images/png-rgb.js'), import('../images/scale.js')]);
    await nextTurn();
    if (control.stopped) return;
    const rows = decodeRgbPngRows(madeUpPng(SIDE));
    if (!rows) return;
    await nextTurn();
    if (control.stopped) return;
    // About half the size: the three-tap reduction a megapixel takes into a terminal.
    const scaled = scaleDown(rows, Math.round(SIDE / 1.9), Math.round(SIDE / 1.9));
    await nextTurn();
    if (control.stopped) return;
    switch (protocol) {
      case 'sixel':
        (await import('./encoders/sixel.js')).sixelImage(scaled);
        break;
      case 'blocks':
        (await import('./encoders/blocks.js')).halfBlocks(scaled, 'truecolor');
        break;
      case 'kitty':
      case 'iterm':
        // Their work is zlib's (native) and base64: nothing to ready.
        break;
    }
  } catch {
    // Nothing to report: the preview itself will.
  }
}
