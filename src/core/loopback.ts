/**
 * Whether a host name or address stays on this machine. Used where it matters who else can reach
 * something: the key sent over plain http://, the emulator listening beyond loopback.
 */

/** True for localhost, *.localhost (RFC 6761), 127.0.0.0/8 and ::1, bracketed or not. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * http:// to another machine sends the bearer key in clear text over the network; loopback is
 * fine (the emulator, a local proxy).
 */
export function sendsKeyInClear(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}
