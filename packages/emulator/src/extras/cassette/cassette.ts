/**
 * Cassettes: recorded exchanges with a real server, one plain JSON file each, readable in a diff
 * (`svc emulator --record URL --cassette DIR`, then `--replay DIR`). A request is matched on its
 * method, path and JSON body, with volatile fields (ones that change from run to run without
 * changing the answer) left out. The key never reaches a file: the Authorization header is not
 * kept, and any value equal to the key is replaced.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Body fields that vary between runs of the same client code and do not change the answer. */
const VOLATILE = new Set(['metadata', 'store', 'service_tier', 'prompt_cache_key', 'safety_identifier']);

export interface Exchange {
  request: { method: string; path: string; body: unknown };
  response: {
    status: number;
    /** The headers a client reads (content type, request id, retry advice). */
    headers: Record<string, string>;
    /** A whole body, as text; or the pieces of a stream, each with when it came (ms after the first byte). */
    body?: string;
    /** A whole body that is not UTF-8 text (an image file), as base64. */
    bodyBase64?: string;
    chunks?: Array<{ at: number; text: string }>;
  };
}

/** The body as matched: volatile fields left out, keys in a stable order. */
export function matchKey(method: string, path: string, body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.keys(value).filter((key) => !VOLATILE.has(key)).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
    }
    return value;
  };
  return JSON.stringify([method, path, canonical(body)]);
}

/**
 * Below this length a key is a test key ("pro", "k"), whose letters occur in ordinary text
 * ("svc-pro", "prompt_tokens"): only a value that is exactly the key is replaced then.
 */
const SECRET_LENGTH = 8;

/**
 * The exchange with the key taken out, as `[key]`: every value that is the key (a header, a body
 * field), and in the answer's text (a service that repeats the key in an error) every occurrence
 * of a key long enough to be a real secret, which ordinary text cannot contain by chance.
 */
export function withoutKey(exchange: Exchange, key: string | undefined): Exchange {
  if (!key) return exchange;
  const equal = (item: unknown): unknown => {
    if (item === key) return '[key]';
    if (Array.isArray(item)) return item.map(equal);
    if (item !== null && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([name, inner]) => [name, equal(inner)]));
    return item;
  };
  const text = (item: string): string => (item === key ? '[key]' : key.length >= SECRET_LENGTH ? item.split(key).join('[key]') : item);
  const { request, response } = exchange;
  return {
    request: { ...request, path: text(request.path), body: equal(request.body) },
    response: {
      ...response,
      headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, text(value)])),
      ...(response.body === undefined ? {} : { body: text(response.body) }),
      ...(response.chunks === undefined ? {} : { chunks: response.chunks.map((chunk) => ({ ...chunk, text: text(chunk.text) })) }),
    },
  };
}

/** Where exchanges are kept: `<dir>/<method>-<path>-<hash of the match key>.json`. */
export class Cassette {
  readonly dir: string;
  #loaded: Map<string, Exchange> | undefined;

  constructor(dir: string) {
    this.dir = dir;
  }

  #fileName(exchange: Exchange): string {
    const { method, path, body } = exchange.request;
    const slug = path.replace(/^\/+/, '').replace(/[^\w.-]+/g, '_').slice(0, 60);
    const hash = createHash('sha256').update(matchKey(method, path, body)).digest('hex').slice(0, 12);
    return `${method.toLowerCase()}-${slug}-${hash}.json`;
  }

  /** Write one exchange (whole or not at all); the same request again replaces its file. */
  save(exchange: Exchange, key: string | undefined): void {
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, this.#fileName(exchange));
    const temp = `${path}.${process.pid}.part`;
    writeFileSync(temp, `${JSON.stringify(withoutKey(exchange, key), null, 2)}\n`);
    renameSync(temp, path);
  }

  /** The files that could not be read as exchanges, with why (known once all() has run). */
  readonly damaged: string[] = [];

  /** Every exchange, by match key (read once). */
  all(): Map<string, Exchange> {
    if (this.#loaded) return this.#loaded;
    const loaded = new Map<string, Exchange>();
    let names: string[] = [];
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.json')).sort();
    } catch {
      // No cassette yet: nothing recorded.
    }
    for (const name of names) {
      try {
        const exchange = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as Exchange;
        loaded.set(matchKey(exchange.request.method, exchange.request.path, exchange.request.body), exchange);
      } catch (error) {
        // A damaged file is skipped, and named: the request it held is then "not recorded".
        this.damaged.push(`${name} (${error instanceof SyntaxError ? 'not valid JSON' : 'not an exchange'})`);
      }
    }
    this.#loaded = loaded;
    return loaded;
  }
}
