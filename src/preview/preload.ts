/**
 * Loading what a preview will need while the image is being generated: the modules, and for JPEG
 * and WebP the WebAssembly decoder, compiled then rather than on the preview's clock (the way the
 * chat reply's renderer loads while the request is in flight). Only what the format and the
 * terminal call for is loaded. Nothing here can fail the command: a load that fails now is tried
 * again, and reported, by the preview itself.
 */
import type { ImageFormat } from '../api/images/formats.js';
import { decide, type PreviewChoice } from './choose.js';

type Env = Record<string, string | undefined>;

const ignore = (): void => {};

const nothing = (): void => {};

/**
 * Start loading a preview of a `format` image, drawn as `choice` says in the terminal `env`
 * describes; `probe` false where the terminal will not be asked (the chat session). Returns what
 * to call once the answer is in: it stops the warm-up (warm-up.ts) at its next step if it is still running.
 */
export function preloadPreview(choice: PreviewChoice, format: ImageFormat, env: Env, probe = true): () => void {
  if (choice === 'none') return nothing;
  import('./show.js').catch(ignore);
  if (format === 'png') import('../images/png-rgb.js').catch(ignore);
  else import('../images/decode-wasm.js').then((wasm) => wasm.preloadDecoder(format), ignore);
  // The protocol as far as it is known before the terminal is asked; sixel when it is to be asked.
  const decision = decide(choice, env, probe);
  if (decision.kind === 'none') return nothing;
  const protocol = decision.kind === 'probe' ? 'sixel' : decision.protocol;
  const encoders = {
    blocks: () => import('./encoders/blocks.js'),
    kitty: () => import('./encoders/kitty.js'),
    iterm: () => import('./encoders/iterm.js'),
    sixel: () => import('./encoders/sixel.js'),
  };
  encoders[protocol]().catch(ignore);
  const control = { stopped: false };
  import('./warm-up.js').then((warm) => warm.warmUp(protocol, control), ignore);
  return () => {
    control.stopped = true;
  };
}
