/**
 * svc loads undici module by module (src/api/undici-parts.ts). A plain request needs only
 * `dispatch` (src/api/exchange.ts); a proxy's dispatcher needs the helpers undici's index puts on
 * every dispatcher (ProxyAgent opens its tunnel with `connect()`), and loadEnvHttpProxyAgent
 * repeats that set-up. If a new undici version adds to it, this fails, instead of a proxy tunnel
 * failing for a user. Plain node processes on the built code (dist/), so each starts with a fresh undici.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const LIST = "JSON.stringify(Object.getOwnPropertyNames(Dispatcher.prototype).sort())";

async function dispatcherMethods(setup: string): Promise<string[]> {
  const script = `${setup}\nconst { default: Dispatcher } = await import('undici/lib/dispatcher/dispatcher.js');\nprocess.stdout.write(${LIST});`;
  const result = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(result.stdout) as string[];
}

describe('undici, part by part', () => {
  it('gives a proxy\'s dispatcher the same methods as undici\'s index does', async () => {
    const viaIndex = await dispatcherMethods("await import('undici');");
    const viaProxyLoader = await dispatcherMethods("await (await import('./dist/api/undici-parts.js')).loadEnvHttpProxyAgent();");
    expect(viaIndex).toEqual(expect.arrayContaining(['request', 'connect', 'stream', 'pipeline', 'upgrade']));
    expect(viaProxyLoader).toEqual(viaIndex);
  });

  it('without a proxy, those helpers are not loaded: svc sends through dispatch() alone', async () => {
    const plain = await dispatcherMethods("await import('./dist/api/undici-parts.js');");
    expect(plain).toContain('dispatch');
    expect(plain).not.toContain('request');
    expect(plain).not.toContain('connect');
  });
});
