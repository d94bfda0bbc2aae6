/**
 * What a chat loads. Start-up is a budget (bench/), and these are the two big savings a change
 * could silently undo: undici's parts are loaded one by one (its index drags in fetch, and with
 * it Node's own copy of undici), and its HTTP/2 code (node:http2, node:tls) loads only if a
 * server ever negotiates HTTP/2. Checked by what the process loaded, not by timing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { svc } from '../helpers/run-svc.js';

const KEY = 'lean-key-0123456789abcdef';
const PRELOAD = fileURLToPath(new URL('../helpers/report-loaded-modules.cjs', import.meta.url));

const setup = useEmulatorSandbox(KEY);

async function builtinsLoadedBy(args: string[]): Promise<string[]> {
  const out = join(setup.sandbox.home, 'modules.txt');
  const result = await svc(args, { ...setup.sandbox, env: { ...setup.sandbox.env, NODE_OPTIONS: `--require ${PRELOAD}`, SVC_TEST_MODULES_OUT: out } });
  expect(result.exitCode, result.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

describe('a streamed chat loads only what it uses', () => {
  it('uses undici for HTTP, without Node\'s bundled undici, HTTP/2 or TLS', async () => {
    const loaded = await builtinsLoadedBy(['chat', '--no-save', 'what loads?']);
    // The preload works and the request went over a socket: these must be there.
    expect(loaded).toContain('net');
    expect(loaded).toContain('http');
    expect(loaded).not.toContain('internal/deps/undici/undici');
    expect(loaded).not.toContain('http2');
    expect(loaded).not.toContain('tls');
  });
});
