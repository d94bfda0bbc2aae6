/**
 * The parts of undici svc uses, loaded module by module instead of through undici's index.
 *
 * Why: the index also loads fetch, WebSocket, EventSource, cookies, mocks and caches, and one of
 * those reaches for a Node global that loads Node's own bundled copy of undici as well, a cost
 * every request command would pay at start-up (bench/README.md, "undici loaded part by part").
 * svc needs only a dispatcher and
 * its `dispatch` method (exchange.ts); the request/stream/connect/... helpers undici's index puts
 * on every dispatcher are loaded only for a proxy, which needs one of them.
 *
 * These paths are undici's internals, not its public API: package.json takes patch releases
 * only (~7.30), and test/api/undici-parts checks that a proxy's dispatcher gets the same methods
 * as through the index. On an upgrade, read undici's index.js for new set-up done on load.
 */
import './baseline-wasm.js';
import Agent from 'undici/lib/dispatcher/agent.js';

export { Agent };

/**
 * The proxy-aware dispatcher, loaded only when a proxy is set (it brings ProxyAgent and its SOCKS
 * code). ProxyAgent opens its tunnel with `client.connect()`, one of the helpers undici's index
 * puts on every dispatcher: that set-up is done here, as the index does it.
 */
export async function loadEnvHttpProxyAgent(): Promise<typeof import('undici').EnvHttpProxyAgent> {
  const [{ default: api }, { default: DispatcherClass }, { default: EnvHttpProxyAgent }] = await Promise.all([
    import('undici/lib/api/index.js'),
    import('undici/lib/dispatcher/dispatcher.js'),
    import('undici/lib/dispatcher/env-http-proxy-agent.js'),
  ]);
  Object.assign(DispatcherClass.prototype, api);
  return EnvHttpProxyAgent;
}
