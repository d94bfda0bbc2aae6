/**
 * Routing: a table of routes, and the request handler that runs every request through the same
 * steps — request id, path (404), method (405), the faults asked for (an API request only:
 * {@link ApiFaults}), bearer auth (401), JSON body (400/413), then the route — and turns anything
 * thrown into an error response in the OpenAI shape.
 *
 * New endpoints are added by appending a {@link Route} to the table in src/server.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from './auth.js';
import type { Blacklist } from './blacklist.js';
import { EmulatorError, internalError } from './errors.js';
import { newRequestId, readJsonBody, sendError } from './http.js';

/**
 * What is done to API requests on purpose, for testing a client: nothing unless the emulator was
 * started with faults (extras/faults.ts makes one from `--fail`, `--latency` and `--cut-after`).
 */
export interface ApiFaults {
  /** Before API request `number` (from 1) is served: waits if it must, then the error it must answer, if any. */
  before(number: number, signal: AbortSignal): Promise<EmulatorError | undefined>;
  /** Chat streams end, cut without `[DONE]`, after this many chunks. */
  cutAfter: number | undefined;
}

export const NO_FAULTS: ApiFaults = { before: async () => undefined, cutAfter: undefined };

/** What every route may use: the accepted keys, the blacklist, the streaming delay, the models, what chat takes. */
export interface EmulatorConfig {
  apiKeys: readonly string[];
  blacklist: Blacklist;
  delayMs: number;
  /** Chat model ids served beyond the built-in ones (`svc emulator --model NAME`). */
  extraModels: readonly string[];
  /** Injected failures, cuts and latency; none by default. */
  faults: ApiFaults;
  /** Images answered as URLs, kept to be served for a while (extras/openai/served-files.ts); returns the path. */
  images: { add(bytes: Buffer, format: 'png' | 'jpeg' | 'webp'): string };
  /** Message content as a string only, as a text-only server takes it: content parts are refused. */
  textOnly: boolean;
  /** The context window every chat model has, in tokens: requests that do not fit are refused. None: never refused for length. */
  contextLength: number | undefined;
}

/** Everything a route handler gets for one request; `body` is the parsed JSON, not yet validated. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  body: unknown;
  config: EmulatorConfig;
  /** Aborts when the client disconnects or the emulator closes: stop work, write nothing more. */
  signal: AbortSignal;
  /** The parts of the path a pattern route captured (`/v1/models/{id}` → [id]). */
  params: string[];
}

/**
 * One endpoint: a path (exact, or a pattern whose groups become `params`) and method, and its
 * handler (authenticated; with a JSON body unless `body` is 'none', as for a GET).
 */
export interface Route {
  method: string;
  path: string | RegExp;
  body?: 'json' | 'none';
  /** false: served without the key (the emulator's image links, which are their own credential). */
  auth?: boolean;
  /**
   * An API request (chat, images, models): only these are numbered for `--fail` and held by
   * `--latency`, so a readiness probe, an image link or a stray path never takes a fault meant for
   * the client under test. A function decides by the path, for routes that serve any path.
   */
  api?: boolean | ((path: string) => boolean);
  handle(context: RouteContext): Promise<void> | void;
}

/** The groups of `path` when `route` serves it, else undefined. */
function pathMatch(route: Route, path: string): string[] | undefined {
  if (typeof route.path === 'string') return route.path === path ? [] : undefined;
  const found = route.path.exec(path);
  return found ? found.slice(1).map((part) => decodeURIComponent(part)) : undefined;
}

/** Finds the route for a request, or throws the 404 / 405 it deserves. */
function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; params: string[] } {
  const onPath = routes.filter((route) => pathMatch(route, path) !== undefined);
  if (onPath.length === 0) {
    throw new EmulatorError(404, `Invalid URL (${method} ${path})`, { code: 'unknown_url' });
  }
  const route = onPath.find((r) => r.method === method);
  if (route === undefined) {
    const allow = onPath.map((r) => r.method).join(', ');
    throw new EmulatorError(405, `Method ${method} is not allowed on ${path}; use ${allow}.`, {
      code: 'method_not_allowed',
      headers: { Allow: allow },
    });
  }
  return { route, params: pathMatch(route, path) ?? [] };
}

/** The route a request goes to, or the 404 / 405 it gets. */
type Found = { route: Route; params: string[] } | EmulatorError;

function findRoute(routes: readonly Route[], method: string, path: string): Found {
  try {
    return matchRoute(routes, method, path);
  } catch (error) {
    // Anything else (a path with a malformed %-escape) must not escape the listener: it answers 500.
    return error instanceof EmulatorError ? error : internalError();
  }
}

function isApiRequest(found: Found, path: string): boolean {
  if (found instanceof EmulatorError) return false;
  const { api } = found.route;
  return typeof api === 'function' ? api(path) : api === true;
}

/**
 * A `node:http` request listener serving `routes`. `active` receives one AbortController per
 * request in flight, so closing the emulator can stop open streams.
 */
export function createRequestHandler(routes: readonly Route[], config: EmulatorConfig, active: Set<AbortController>) {
  // API requests are numbered as they arrive, for `--fail N:STATUS`; no other request counts.
  let apiRequests = 0;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const found = findRoute(routes, method, path);
    const number = isApiRequest(found, path) ? (apiRequests += 1) : undefined;
    const controller = new AbortController();
    active.add(controller);
    res.once('close', () => {
      controller.abort();
      active.delete(controller);
    });
    // A client that resets the connection makes these streams emit 'error'; unhandled, that would
    // crash the process. Aborting is all there is to do.
    req.on('error', () => controller.abort());
    res.on('error', () => controller.abort());
    // serve() handles its own errors; this catch is the last guard so nothing can escape as an
    // unhandled rejection, which would take the whole process down.
    serve(req, res, found, config, controller.signal, number).catch(() => res.destroy());
  };
}

/** `number`: the request's place among API requests ({@link ApiFaults}), undefined for any other request. */
async function serve(req: IncomingMessage, res: ServerResponse, found: Found, config: EmulatorConfig, signal: AbortSignal, number: number | undefined): Promise<void> {
  const requestId = newRequestId();
  res.setHeader('x-request-id', requestId);
  try {
    if (found instanceof EmulatorError) throw found;
    if (number !== undefined) {
      const injected = await config.faults.before(number, signal);
      if (injected) {
        req.resume();
        throw injected;
      }
    }
    const { route, params } = found;
    if (route.auth !== false) checkBearer(req, config.apiKeys);
    let body: unknown;
    if (route.body === 'none') req.resume();
    else body = await readJsonBody(req);
    await route.handle({ req, res, requestId, body, config, signal, params });
  } catch (error) {
    if (signal.aborted && res.destroyed) return;
    if (res.headersSent) {
      // Mid-stream there is no way to send an error response; cutting the connection tells the
      // client the reply is incomplete.
      res.destroy();
      return;
    }
    sendError(res, error instanceof EmulatorError ? error : internalError());
  }
}
