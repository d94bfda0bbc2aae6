/**
 * Bearer authentication (docs/service-api.md, "Authentication"): `Authorization: Bearer <API_KEY>`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { EmulatorError } from './errors.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Throws a 401 unless the request carries one of `keys` as a bearer token.
 *
 * The auth scheme is matched case-insensitively (RFC 9110 §11.1). Keys are compared through their
 * SHA-256 digests with `timingSafeEqual`, so neither length nor content leaks through timing —
 * cheap, and the emulator may be reachable by others when bound to a public interface. The
 * presented key is never put in a message: error text ends up in logs.
 */
export function checkBearer(req: IncomingMessage, keys: readonly string[]): void {
  const header = req.headers.authorization ?? '';
  const match = /^bearer[ \t]+(\S.*?)[ \t]*$/i.exec(header);
  const token = match?.[1];
  if (token === undefined) {
    throw new EmulatorError(
      401,
      "You didn't provide an API key. Send it in the Authorization header as 'Authorization: Bearer <API_KEY>'.",
      { code: 'missing_api_key' },
    );
  }
  const presented = digest(token);
  const accepted = keys.some((key) => timingSafeEqual(presented, digest(key)));
  if (!accepted) {
    throw new EmulatorError(
      401,
      'Incorrect API key provided. Use one of the keys the emulator printed when it started.',
      { code: 'invalid_api_key' },
    );
  }
}
