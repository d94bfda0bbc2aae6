/**
 * The emulator as a recorder or a player. Recording, every request goes on to the real server
 * (the client's own Authorization passed through, never written), its answer comes back
 * unchanged (a stream piece by piece, as it arrives) and is kept in the cassette. Replaying,
 * every answer comes from the cassette: a stream in its recorded pieces (and, with timing, their
 * recorded pauses); a request never recorded is a 404 naming the cassette and the closest
 * recorded request.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmulatorError } from '../../core/errors.js';
import type { Route, RouteContext } from '../../core/router.js';
import { Cassette, matchKey, type Exchange } from './cassette.js';

/** Headers of the answer worth keeping and replaying. */
const KEPT_HEADERS = ['content-type', 'x-request-id', 'retry-after', 'retry-after-ms'];

const ANY_PATH = /^(\/.*)$/;

/** Recording or replaying, the service's own endpoints are the API requests faults apply to (core/router.ts). */
const isApiPath = (path: string): boolean => path.startsWith('/v1/');

function keptHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}

function bearerOf(req: IncomingMessage): string | undefined {
  const value = req.headers.authorization;
  return typeof value === 'string' && value.startsWith('Bearer ') ? value.slice(7) : undefined;
}

/** Text stays text in the cassette, readable in a diff; bytes that are not UTF-8 (a picture) go as base64, unchanged. */
function recordedBody(bytes: Buffer): { body: string } | { bodyBase64: string } {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { body: text } : { bodyBase64: bytes.toString('base64') };
}

/** Routes that forward everything to `upstream` and keep each exchange in `cassette`. */
export function recordingRoutes(upstream: string, cassette: Cassette): Route[] {
  const base = new URL(upstream);
  const handle = async ({ req, res, body, params, signal }: RouteContext): Promise<void> => {
    const path = params[0] ?? '/';
    const target = new URL(`${base.pathname.replace(/\/+$/, '')}${path}`, base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const key = bearerOf(req);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const forward = send(target, { method: req.method, headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), accept: req.headers.accept ?? '*/*' }, signal }, resolve);
      forward.on('error', reject);
      forward.end(payload);
    }).catch((error: unknown) => {
      throw new EmulatorError(502, `svc emulator could not reach ${upstream} to record: ${error instanceof Error ? error.message : String(error)}`, { type: 'server_error', code: 'upstream_unreachable' });
    });
    const headers = keptHeaders(answer.headers);
    res.writeHead(answer.statusCode ?? 502, headers);
    res.flushHeaders();
    const streaming = (headers['content-type'] ?? '').includes('event-stream');
    const started = Date.now();
    const chunks: Array<{ at: number; text: string }> = [];
    const pieces: Buffer[] = [];
    for await (const piece of answer as AsyncIterable<Buffer>) {
      res.write(piece);
      if (streaming) chunks.push({ at: Date.now() - started, text: piece.toString('utf8') });
      else pieces.push(piece);
    }
    res.end();
    const exchange: Exchange = {
      request: { method: req.method ?? 'POST', path, body: body ?? null },
      response: { status: answer.statusCode ?? 502, headers, ...(streaming ? { chunks } : recordedBody(Buffer.concat(pieces))) },
    };
    cassette.save(exchange, key);
  };
  return [
    { method: 'POST', path: ANY_PATH, auth: false, api: isApiPath, handle },
    { method: 'GET', path: ANY_PATH, body: 'none', auth: false, api: isApiPath, handle },
  ];
}

/** The recorded request nearest to `wanted` (same method and path first, then the longest shared start). */
function closest(cassette: Cassette, wanted: string): string | undefined {
  let best: { key: string; score: number } | undefined;
  for (const key of cassette.all().keys()) {
    let shared = 0;
    while (shared < key.length && shared < wanted.length && key[shared] === wanted[shared]) shared += 1;
    if (!best || shared > best.score) best = { key, score: shared };
  }
  return best?.key;
}

/** Routes that answer from `cassette` only; `timing` replays the recorded pauses of streams. */
export function replayingRoutes(cassette: Cassette, timing: boolean): Route[] {
  const handle = async ({ req, res, body, params, signal }: RouteContext): Promise<void> => {
    const path = params[0] ?? '/';
    const wanted = matchKey(req.method ?? 'POST', path, body ?? null);
    const exchange = cassette.all().get(wanted);
    if (!exchange) {
      const near = closest(cassette, wanted);
      const damaged = cassette.damaged.length === 0 ? '' : `; ${cassette.damaged.length} recorded file(s) could not be read: ${cassette.damaged.slice(0, 3).join(', ')}`;
      throw new EmulatorError(404, `No recording in ${cassette.dir} for ${req.method} ${path}${near ? `; the closest recorded request is ${near.slice(0, 300)}` : ' (the cassette is empty)'}${damaged}`, { code: 'not_recorded' });
    }
    const { response } = exchange;
    res.writeHead(response.status, response.headers);
    if (response.chunks === undefined) {
      res.end(response.bodyBase64 !== undefined ? Buffer.from(response.bodyBase64, 'base64') : (response.body ?? ''));
      return;
    }
    res.flushHeaders();
    let last = 0;
    for (const chunk of response.chunks) {
      if (timing && chunk.at > last) await sleep(chunk.at - last, undefined, { signal });
      last = chunk.at;
      if (signal.aborted) return;
      // Each recorded piece is its own write, so the client reads the same boundaries.
      await new Promise<void>((resolve) => res.write(chunk.text, () => resolve()));
    }
    res.end();
  };
  return [
    { method: 'POST', path: ANY_PATH, api: isApiPath, handle },
    { method: 'GET', path: ANY_PATH, body: 'none', api: isApiPath, handle },
  ];
}
