/**
 * The emulator: a local implementation of the service (svc's docs/service-api.md) on `node:http`,
 * for trying svc offline, for scripts' tests and for this project's tests. `svc emulator` wraps it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBlacklist } from './core/blacklist.js';
import { chatCompletionsRoute } from './chat-route.js';
import { imageGenerationsRoute } from './images-route.js';
import { listModelsRoute, retrieveModelRoute } from './core/models-route.js';
import { apiFaults, type Faults } from './extras/faults.js';
import { ServedImages, servedImagesRoute } from './extras/openai/served-files.js';
import { Cassette } from './extras/cassette/cassette.js';
import { recordingRoutes, replayingRoutes } from './extras/cassette/routes.js';
import { createRequestHandler, type Route } from './core/router.js';
import { HEALTH_PATH, healthRoutes } from './core/health-route.js';

/** How to start the emulator. */
export interface EmulatorOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0, a free port chosen by the system. */
  port?: number;
  /** Accepted bearer keys; when none are given one random key `emu-` + 24 hex digits is made. */
  apiKeys?: string[];
  /** Terms added to the built-in blacklist. */
  blockTerms?: string[];
  /** Delay between streamed tokens in milliseconds; default 0. */
  delayMs?: number;
  /** Chat model ids to serve beyond the built-in ones (listed by /v1/models too). */
  models?: string[];
  /** Failures, cut streams and latency to inject (extras/faults.ts). */
  faults?: Partial<Faults>;
  /** Forward every request to a real server and keep the exchanges (extras/cassette/). */
  record?: { upstream: string; dir: string };
  /** Answer every request from a cassette only; `timing` replays the pauses of streams. */
  replay?: { dir: string; timing: boolean };
  /**
   * Take message content as a string only, as the service's own API and text-only servers do:
   * content parts (`text`, `image_url`) are a 400 naming `content`. Default false: images are read.
   */
  textOnly?: boolean;
  /**
   * Every chat model's context window in tokens (their `context_length`): a chat request whose
   * prompt (with its `max_tokens`) does not fit is refused as OpenAI refuses it. Default: none,
   * never refused for length.
   */
  contextLength?: number;
}

/** A listening emulator. */
export interface RunningEmulator {
  /** Base URL without a trailing slash and without `/v1`, e.g. `http://127.0.0.1:43123`. */
  baseUrl: string;
  /** Where a script waits for it: answers 200 without a key once listening (core/health-route.ts). */
  healthUrl: string;
  /** The keys it accepts. */
  apiKeys: string[];
  /** How many requests are being answered right now (tests and rehearsals of concurrency). */
  inFlight(): number;
  /** Stops listening, ends open streams and connections; resolves when closed. Safe to call twice. */
  close(): Promise<void>;
}

/** The endpoints served. */
const ROUTES: readonly Route[] = [chatCompletionsRoute, imageGenerationsRoute, listModelsRoute, retrieveModelRoute];

/** A host as it goes in a URL: IPv6 literals are bracketed (RFC 3986 §3.2.2). */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function checkOptions(port: number, delayMs: number, contextLength: number | undefined): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be an integer from 0 to 65535; got ${port}`);
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`delayMs must be a number of at least 0; got ${delayMs}`);
  if (contextLength !== undefined && (!Number.isSafeInteger(contextLength) || contextLength < 1)) throw new RangeError(`contextLength must be an integer of at least 1; got ${contextLength}`);
}

/**
 * Starts the emulator and resolves once it is listening.
 *
 * @example
 * const emu = await startEmulator();
 * const client = new OpenAI({ baseURL: `${emu.baseUrl}/v1`, apiKey: emu.apiKeys[0] });
 * await emu.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { host = '127.0.0.1', port = 0, delayMs = 0 } = options;
  checkOptions(port, delayMs, options.contextLength);
  const given = (options.apiKeys ?? []).filter((key) => key.trim() !== '');
  const apiKeys = given.length > 0 ? given : [`emu-${randomBytes(12).toString('hex')}`];
  const active = new Set<AbortController>();
  const images = new ServedImages();
  const config = {
    apiKeys, blacklist: createBlacklist(options.blockTerms), delayMs, extraModels: options.models ?? [], faults: apiFaults(options.faults), images,
    textOnly: options.textOnly === true, contextLength: options.contextLength,
  };
  // The readiness probe first: recording or replaying, it is answered here, never passed on.
  const served = options.record
    ? recordingRoutes(options.record.upstream, new Cassette(options.record.dir))
    : options.replay
      ? replayingRoutes(new Cassette(options.replay.dir), options.replay.timing)
      : [...ROUTES, servedImagesRoute(images)];
  const routes = [...healthRoutes, ...served];
  const server = createServer(createRequestHandler(routes, config, active));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      for (const controller of active) controller.abort();
      server.close((error) => (error ? reject(error) : resolve()));
      // Idle keep-alive sockets would otherwise hold close() open for seconds.
      server.closeAllConnections();
    });
    return closing;
  };
  const baseUrl = `http://${urlHost(host)}:${address.port}`;
  return { baseUrl, healthUrl: `${baseUrl}${HEALTH_PATH}`, apiKeys: [...apiKeys], inFlight: () => active.size, close };
}
