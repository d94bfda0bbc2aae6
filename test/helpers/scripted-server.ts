/**
 * A test-only HTTP server on 127.0.0.1 for the faults the emulator cannot produce: each request
 * is answered by the next handler of the script, once, and every request is recorded with its
 * headers and body.
 *
 * A script is a promise about what svc will send, so it is checked both ways (gh's httpmock
 * "unmatched stubs" rule): a handler nothing used, and a request that found no handler, fail
 * the test (`assertAllUsed()`, run after each test by `useScriptedServer()`, and by `script()`
 * before it replaces a script). A handler answers more than one request only when wrapped in
 * `reply.repeat()`, and then it must still answer at least one.
 *
 * GET /v1/models is the exception: svc asks it once per service to choose a chat model when none
 * is set, and `svc auth login` asks it to check a key. Unless the next handler is marked for it
 * (`reply.modelList(handler)`), it is answered 404 (a service without a model list, as svc then
 * behaves as before) and recorded in `modelListAsks`, not in `requests`, so a script stays the
 * chats and images a test is about. A test about keys going where they should looks at both.
 *
 * GET /props (llama-server's, at the root: svc reads a model's context window there before a
 * send that follows earlier turns) is the same: answered 404 and recorded in `propsAsks` unless
 * the next handler is marked for it (`reply.props(handler)`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

/** An answer, with a label for the failure message when it goes unused. */
export type Handler = Answer & { label?: string; repeats?: boolean; modelList?: boolean; props?: boolean };

export interface ScriptedServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The GETs of /v1/models answered 404 by the server itself (no handler was marked for them). */
  modelListAsks: RecordedRequest[];
  /** The GETs of /props answered 404 by the server itself (no handler was marked for them). */
  propsAsks: RecordedRequest[];
  /** Replace the script; throws if the one it replaces was not used up. */
  script(...handlers: Handler[]): void;
  /** Throws, listing them, if a handler was never used or a request found no handler. */
  assertAllUsed(): void;
  /** Forget the script, the recorded requests and the unanswered ones (without checking). */
  reset(): void;
  /** Stop the server; throws like assertAllUsed() if the script was not used up. */
  close(): Promise<void>;
  /**
   * Connections made to the server since the last reset: how many in all, and the most open at
   * once (a client's connection pool, seen from the server).
   */
  connections(): { total: number; most: number };
}

interface Step {
  handler: Handler;
  used: number;
}

const labelOf = (handler: Handler): string => handler.label ?? (handler.name || 'a custom handler');

export async function startScriptedServer(...handlers: Handler[]): Promise<ScriptedServer> {
  let steps: Step[] = [];
  const requests: RecordedRequest[] = [];
  const modelListAsks: RecordedRequest[] = [];
  const propsAsks: RecordedRequest[] = [];
  const unanswered: string[] = [];
  const sockets = new Set<Socket>();
  const seen = { total: 0, most: 0 };

  function load(next: Handler[]): void {
    const repeated = next.findIndex((handler) => handler.repeats);
    if (repeated !== -1 && repeated !== next.length - 1) throw new Error('scripted server: only the last handler can repeat');
    steps = next.map((handler) => ({ handler, used: 0 }));
  }

  function problems(): string[] {
    const unused = steps.filter((step) => step.used === 0).map((step) => labelOf(step.handler));
    return [
      ...(unused.length > 0 ? [`scripted answers never used: ${unused.join(', ')}`] : []),
      ...(unanswered.length > 0 ? [`requests with no scripted answer: ${unanswered.join(', ')}`] : []),
    ];
  }

  function assertAllUsed(): void {
    const found = problems();
    if (found.length > 0) throw new Error(`scripted server: ${found.join('; ')}`);
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    const step = steps.find((candidate) => candidate.used === 0 || candidate.handler.repeats);
    if (req.method === 'GET' && /\/v1\/models$/.test(req.url ?? '') && step?.handler.modelList !== true) {
      modelListAsks.push(recorded);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
      return;
    }
    if (req.method === 'GET' && /\/props(\?|$)/.test(req.url ?? '') && step?.handler.props !== true) {
      propsAsks.push(recorded);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
      return;
    }
    requests.push(recorded);
    if (!step) {
      unanswered.push(`${req.method} ${req.url}`);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('no scripted answer');
      return;
    }
    step.used += 1;
    await step.handler(req, res, body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    seen.total += 1;
    seen.most = Math.max(seen.most, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  load(handlers);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    modelListAsks,
    propsAsks,
    script(...next) {
      assertAllUsed();
      load(next);
    },
    assertAllUsed,
    reset() {
      steps = [];
      requests.length = 0;
      modelListAsks.length = 0;
      propsAsks.length = 0;
      unanswered.length = 0;
      seen.total = 0;
      seen.most = sockets.size;
    },
    connections: () => ({ ...seen }),
    async close() {
      await new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      assertAllUsed();
    },
  };
}

/**
 * A scripted server for the whole test file: started before its tests, checked and emptied after
 * each (so an unused answer fails the test that scripted it), stopped after them all.
 */
export function useScriptedServer(): { readonly server: ScriptedServer } {
  const context = {} as { server: ScriptedServer };
  beforeAll(async () => {
    context.server = await startScriptedServer();
  });
  afterEach(() => {
    try {
      context.server.assertAllUsed();
    } finally {
      context.server.reset();
    }
  });
  afterAll(async () => {
    await context.server?.close();
  });
  return context;
}

const labelled = (label: string, answer: Answer): Handler => Object.assign(answer, { label });

/** Common answers. */
export const reply = {
  json: (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
    labelled(`json ${status}`, (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    }),
  text: (status: number, text: string, contentType = 'text/plain', headers: Record<string, string> = {}): Handler =>
    labelled(`text ${status}`, (_req, res) => {
      res.writeHead(status, { 'content-type': contentType, ...headers }).end(text);
    }),
  /**
   * An SSE body written piece by piece, optionally ending by cutting the connection. The cut
   * comes after the last piece has been handed to the socket, so the client reads every piece
   * and then the reset, whatever the timing. `gapMs` paces the pieces, for tests about slow
   * bodies (it is the subject of those tests, never a way to order events).
   */
  sse: (pieces: string[], options: { cut?: boolean; gapMs?: number } = {}): Handler =>
    labelled(`sse of ${pieces.length} piece(s)${options.cut ? ', cut' : ''}`, async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [index, piece] of pieces.entries()) {
        if (index > 0 && options.gapMs) await new Promise((resolve) => setTimeout(resolve, options.gapMs));
        // Resolves on an error too: the client has gone, which some tests do on purpose.
        await new Promise<void>((resolve) => res.write(piece, () => resolve()));
      }
      if (options.cut) res.socket?.destroy();
      else res.end();
    }),
  /** Close the connection without any answer. */
  reset: (): Handler =>
    labelled('reset', (req) => {
      req.socket.destroy();
    }),
  /** Headers, then nothing (until the server closes). */
  silentAfterHeaders: (): Handler =>
    labelled('headers, then silence', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    }),
  /** No answer at all. */
  silent: (): Handler => labelled('silence', () => {}),
  /** `handler` as the answer to svc's GET /v1/models (otherwise answered 404 by the server itself). */
  modelList: (handler: Handler): Handler => {
    const marked: Handler = (req, res, body) => handler(req, res, body);
    return Object.assign(marked, { label: `${labelOf(handler)}, for GET /v1/models`, modelList: true, ...(handler.repeats ? { repeats: true } : {}) });
  },
  /** `handler` as the answer to svc's GET /props (otherwise answered 404 by the server itself). */
  props: (handler: Handler): Handler => {
    const marked: Handler = (req, res, body) => handler(req, res, body);
    return Object.assign(marked, { label: `${labelOf(handler)}, for GET /props`, props: true });
  },
  /** `handler` for this and every later request of the script (it must still answer one). */
  repeat: (handler: Handler): Handler => {
    const repeated: Handler = (req, res, body) => handler(req, res, body);
    return Object.assign(repeated, { label: `${labelOf(handler)}, repeated`, repeats: true });
  },
};

/** An OpenAI-style chunk carrying `content` (and optionally a finish reason). */
export function chunk(content: string | undefined, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  const delta = content === undefined ? {} : { content };
  return `data: ${JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}
