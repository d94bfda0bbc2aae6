/**
 * An image the service answered as a URL (`data[n].url`) rather than as `b64_json`: fetched
 * (client.get: same timeout, retries and proxies, the key only to the service's own origin) and
 * written to the same kind of sink as a decoded image, bounded in size. A `data:` URL carries
 * the image itself and is decoded in place.
 */
import { describeBytes } from '../../core/byte-size.js';
import { MalformedResponseError } from '../../core/errors.js';
import type { ApiClient } from '../client.js';
import { MAX_IMAGE_DOWNLOAD_BYTES } from '../limits.js';
import type { BlobSink } from './blob-scanner.js';

const DATA_URL = /^data:([^,;]*)(;[^,]*)?,/i;

function fromDataUrl(url: string, sink: BlobSink): void {
  const head = DATA_URL.exec(url);
  if (!head) throw new MalformedResponseError('the service gave an image as a data: URL svc cannot read');
  const payload = url.slice(head[0].length);
  const bytes = /;base64/i.test(head[2] ?? '') ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'latin1');
  sink.write(bytes);
  sink.end();
}

/** Fetch `url` into `sink`; the sink is ended on success, left to its owner to discard on failure. */
export async function downloadImage(client: ApiClient, url: string, sink: BlobSink, signal?: AbortSignal): Promise<void> {
  if (url.slice(0, 5).toLowerCase() === 'data:') return fromDataUrl(url, sink);
  const response = await client.get(url, signal);
  let received = 0;
  try {
    for await (const piece of response.body) {
      received += piece.length;
      if (received > MAX_IMAGE_DOWNLOAD_BYTES) {
        throw new MalformedResponseError(`the image at ${response.url} is larger than ${describeBytes(MAX_IMAGE_DOWNLOAD_BYTES)}, far beyond any real one; stopped reading`);
      }
      sink.write(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    }
  } catch (error) {
    response.discard();
    throw error;
  }
  if (received === 0) throw new MalformedResponseError(`the image at ${response.url} is empty`);
  sink.end();
}
