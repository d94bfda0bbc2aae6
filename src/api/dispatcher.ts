/** The undici dispatcher every request goes through: proxies, connect timeout, connection bounds. */
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { readProxySettings } from './proxy-settings.js';

/**
 * The dispatcher for real runs: proxies from HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their
 * lowercase forms), and a connect timeout of 10 s (or the whole timeout when that is shorter).
 *
 * `connections` bounds the keep-alive connections to the service. Without it undici opens a new
 * connection whenever a request is dispatched before the previous one's connection is handed
 * back, which a worker that sends its next request as soon as it has read an answer always does:
 * 2 connections for one worker, 7 or 8 for four. A server with one slot per connection
 * (llama.cpp's server) then holds the extra ones waiting, and the batch crawls. svc batch sizes
 * it to --concurrency, so its requests reuse exactly that many connections.
 */
export async function createDispatcher(timeoutMs: number, connections?: number, env: Record<string, string | undefined> = process.env): Promise<Dispatcher> {
  // With a bound, an idle connection is also closed soon (0.3 s) rather than kept for the
  // server's whole keep-alive time: llama.cpp's server gives each open connection one of its few
  // HTTP threads, so connections left idle at the end of a batch kept the last requests waiting
  // about 3 s (the server's 5 s less undici's margin) for a thread.
  const bounded = connections === undefined ? {} : { connections, keepAliveTimeout: 300, keepAliveMaxTimeout: 300 };
  const options = { connect: { timeout: Math.min(10_000, timeoutMs) }, ...bounded };
  // Read as undici reads them, but from `env`, and handed over: undici would read process.env,
  // which an in-process run does not use (proxy-settings.ts).
  const proxies = readProxySettings(env);
  // With no proxy, EnvHttpProxyAgent sends every request through a plain Agent anyway, after
  // parsing its URL again and reading NO_PROXY: 2,000 times in a batch.
  if (!proxies.http && !proxies.https) return new Agent(options);
  return new EnvHttpProxyAgent({ ...options, httpProxy: proxies.http?.url ?? '', httpsProxy: proxies.https?.url ?? '', noProxy: proxies.noProxy });
}
