/**
 * http:// to another machine sends the bearer key in clear text over the network; loopback is
 * fine (the emulator, a local proxy).
 */
import { isLoopbackHost } from '../core/loopback.js';

export function sendsKeyInClear(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}
