import { readFileSync } from 'node:fs';

/** Set by the bundler (scripts/bundle.mjs); absent when running the tsc output in tests. */
declare const SVC_VERSION: string | undefined;

/** svc's own version: inlined in the bundle, else read from package.json above src/core/ and dist/core/. */
export const version: string =
  typeof SVC_VERSION === 'string'
    ? SVC_VERSION
    : (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Sent with every request so the service can tell svc's traffic apart. */
export const userAgent = `svc/${version}`;
