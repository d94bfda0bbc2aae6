/**
 * A test-only HTTP server on 127.0.0.1 for the faults the emulator cannot produce: each request
 * is answered by the next handler in the script (the last one repeats), and every request is
 * recorded with its headers and body.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export interface ScriptedServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replace the script. */
  script(...handlers: Handler[]): void;
  close(): Promise<void>;
}

export async function startScriptedServer(...handlers: Handler[]): Promise<ScriptedServer> {
  let queue = handlers;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const handler = queue.length > 1 ? queue.shift()! : queue[0];
    if (!handler) {
      res.writeHead(500).end('no handler');
      return;
    }
    await handler(req, res, body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    script(...next) {
      queue = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Common answers. */
export const reply = {
  json:
    (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
    (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    },
  text:
    (status: number, text: string, contentType = 'text/plain', headers: Record<string, string> = {}): Handler =>
    (_req, res) => {
      res.writeHead(status, { 'content-type': contentType, ...headers }).end(text);
    },
  /** An SSE body written piece by piece, optionally ending by cutting the connection. */
  sse:
    (pieces: string[], options: { cut?: boolean; delayMs?: number } = {}): Handler =>
    async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of pieces) {
        res.write(piece);
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      }
      if (options.cut) res.socket?.destroy();
      else res.end();
    },
  /** Close the connection without any answer. */
  reset: (): Handler => (req) => {
    req.socket.destroy();
  },
  /** Headers, then nothing (until the server closes). */
  silentAfterHeaders: (): Handler => (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
  },
  /** No answer at all. */
  silent: (): Handler => () => {},
};

/** An OpenAI-style chunk carrying `content` (and optionally a finish reason). */
export function chunk(content: string | undefined, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  const delta = content === undefined ? {} : { content };
  return `data: ${JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}
