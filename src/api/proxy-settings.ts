/**
 * The proxy variables, read as undici reads them (the lowercase name first; an empty value means
 * none) from the environment svc was given, and checked before any request: a value without a
 * scheme (`proxy.corp:3128`, as curl takes it) is an http:// proxy, and one that is no address at
 * all is exit 2 naming the variable, not an "unexpected error" from deep in undici. The value is
 * never printed: a proxy URL may carry a password.
 */
import { UsageError } from '../core/errors.js';

export interface Proxy {
  /** The URL handed to undici. */
  url: string;
  /** The proxy as shown in messages: scheme, host and port, no credentials. */
  shown: string;
  /** The variable it came from (`HTTPS_PROXY`, `http_proxy`...). */
  variable: string;
}

export interface ProxySettings {
  http: Proxy | undefined;
  https: Proxy | undefined;
  noProxy: string;
}

type Env = Record<string, string | undefined>;

function proxyFrom(env: Env, lower: string, upper: string): Proxy | undefined {
  const variable = env[lower] !== undefined ? lower : upper;
  const raw = (env[variable] ?? '').trim();
  if (raw === '') return undefined;
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${variable} is not a proxy address svc can read`, { hint: `set it like http://proxy.example:3128, or unset it` });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`${variable} names a ${parsed.protocol.slice(0, -1)} proxy; svc speaks to http and https proxies`, { hint: 'set it like http://proxy.example:3128, or unset it' });
  }
  return { url, shown: `${parsed.protocol}//${parsed.host}`, variable };
}

/** As undici's EnvHttpProxyAgent has them: https requests use the http proxy when no https one is set. */
export function readProxySettings(env: Env): ProxySettings {
  const http = proxyFrom(env, 'http_proxy', 'HTTP_PROXY');
  return { http, https: proxyFrom(env, 'https_proxy', 'HTTPS_PROXY') ?? http, noProxy: env.no_proxy ?? env.NO_PROXY ?? '' };
}

/**
 * Whether NO_PROXY sends `host` (and port) direct, by undici's rules: the value `*` for every
 * host, else entries split by commas or spaces, a name matching itself and its subdomains (a
 * leading `.` or `*.` dropped), and the port too when the entry gives one.
 */
function bypasses(noProxy: string, host: string, port: string): boolean {
  if (noProxy === '*') return true;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (entry === '') continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    if (parsed && Number(parsed[2]) !== Number(port)) continue;
    const wanted = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (host === wanted || host.endsWith(`.${wanted}`)) return true;
  }
  return false;
}

/** The proxy a request to `url` goes through, or undefined when it goes direct. */
export function proxyFor(settings: ProxySettings, url: string): Proxy | undefined {
  const target = new URL(url);
  const proxy = target.protocol === 'https:' ? settings.https : settings.http;
  if (proxy === undefined) return undefined;
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return bypasses(settings.noProxy, target.hostname.toLowerCase(), port) ? undefined : proxy;
}
