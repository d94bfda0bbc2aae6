/**
 * svc loads undici module by module (src/api/undici-parts.ts) and repeats the one thing undici's
 * index does on load that matters: putting request/stream/connect/... on every dispatcher. If a
 * new undici version adds to that, this fails, instead of a proxy tunnel failing for a user.
 * Plain node processes on the built code (dist/), so each starts with a fresh undici.
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
  it('gives every dispatcher the same methods as undici\'s index does', async () => {
    const viaIndex = await dispatcherMethods("await import('undici');");
    const viaParts = await dispatcherMethods("await import('./dist/api/undici-parts.js');");
    expect(viaIndex).toEqual(expect.arrayContaining(['request', 'connect', 'stream', 'pipeline', 'upgrade']));
    expect(viaParts).toEqual(viaIndex);
  });

  it('without the parts module, those methods are missing (so the test above can fail)', async () => {
    const bare = await dispatcherMethods('');
    expect(bare).not.toContain('request');
    expect(bare).not.toContain('connect');
  });
});
