import { readFileSync } from 'node:fs';

/** svc's own version, from package.json (one level above both src/ and dist/). */
export const version: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Sent with every request so the service can tell svc's traffic apart. */
export const userAgent = `svc/${version}`;
