/**
 * Images answered as URLs (`response_format: "url"`): kept in memory for a while and served at
 * `/v1/files/images/<id>.<ext>` without a key, as a real service's signed links are. A link
 * expires (404) after {@link URL_LIFETIME_MS}, or sooner when more than {@link MAX_KEPT} images
 * are kept, so a client's handling of an expired link can be tested too.
 */
import { randomBytes } from 'node:crypto';
import { EmulatorError } from '../../core/errors.js';
import type { Route } from '../../core/router.js';
import type { OutputFormat } from '../../core/images/sizes.js';

export const URL_LIFETIME_MS = 10 * 60 * 1000;
const MAX_KEPT = 32;
const MIME: Record<OutputFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

interface Kept {
  bytes: Buffer;
  format: OutputFormat;
  until: number;
}

export class ServedImages {
  readonly #kept = new Map<string, Kept>();

  /** Keep `bytes` and return the path they are served at. */
  add(bytes: Buffer, format: OutputFormat, now = Date.now()): string {
    for (const [id, kept] of this.#kept) if (kept.until <= now) this.#kept.delete(id);
    while (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    const id = randomBytes(12).toString('hex');
    this.#kept.set(id, { bytes, format, until: now + URL_LIFETIME_MS });
    return `/v1/files/images/${id}.${format === 'jpeg' ? 'jpg' : format}`;
  }

  get(id: string, now = Date.now()): Kept | undefined {
    const kept = this.#kept.get(id);
    if (kept && kept.until <= now) {
      this.#kept.delete(id);
      return undefined;
    }
    return kept;
  }
}

/** The route serving kept images (no key: the link itself is the credential). */
export function servedImagesRoute(images: ServedImages): Route {
  return {
    method: 'GET',
    path: /^\/v1\/files\/images\/([0-9a-f]{24})\.(?:png|jpg|webp)$/,
    body: 'none',
    auth: false,
    handle({ res, params }) {
      const kept = images.get(params[0] ?? '');
      if (!kept) throw new EmulatorError(404, 'This image link has expired or never existed.', { code: 'not_found' });
      res.writeHead(200, { 'Content-Type': MIME[kept.format], 'Content-Length': kept.bytes.length, 'Cache-Control': 'private, max-age=600' });
      res.end(kept.bytes);
    },
  };
}
