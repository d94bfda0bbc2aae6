/**
 * http:// to another machine sends the bearer key in clear text over the network; loopback is
 * fine (the emulator, a local proxy).
 */
export function sendsKeyInClear(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
  return !loopback;
}
