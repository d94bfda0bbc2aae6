/**
 * The parts of undici svc uses, loaded module by module instead of through undici's index.
 *
 * Why: the index also loads fetch, WebSocket, EventSource, cookies, mocks and caches, and one of
 * those reaches for a Node global that loads Node's own bundled copy of undici as well. Measured
 * again for issue 22 (one-shot chat against the emulator, whole process, medians of 15
 * alternating): 125 ms with the parts, 160 ms through the index. svc needs only a dispatcher
 * (and its `request` method).
 *
 * These paths are undici's internals, not its public API: package.json takes patch releases
 * only (~7.30), and test/api/undici-parts checks that the dispatchers get the same methods as
 * through the index. On an upgrade, read undici's index.js for new set-up done on load.
 */
import './baseline-wasm.js';
import api from 'undici/lib/api/index.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';

// What undici's index does on load: the request/stream/connect/... methods live on every
// dispatcher. ProxyAgent relies on it too (it opens its tunnel with `client.connect()`).
Object.assign(DispatcherClass.prototype, api);

export { Agent };

/** The proxy-aware dispatcher, loaded only when a proxy is set (it brings ProxyAgent and its SOCKS code). */
export async function loadEnvHttpProxyAgent(): Promise<typeof import('undici').EnvHttpProxyAgent> {
  return (await import('undici/lib/dispatcher/env-http-proxy-agent.js')).default;
}

