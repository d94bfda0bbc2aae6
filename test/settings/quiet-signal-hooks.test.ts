/**
 * conf (through atomically → when-exit) re-sends SIGINT to the process after any handler ran,
 * which would end svc's interactive session on the first Ctrl-C. importWithoutSignalHooks
 * removes those hooks; this shows both.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Handles SIGINT itself, raises one, and reports how many arrived within 300 ms.
const script = (load: string) => `
  let count = 0;
  process.on('SIGINT', () => { count += 1; });
  ${load}
  process.kill(process.pid, 'SIGINT');
  setTimeout(() => { console.log(count); process.exit(0); }, 300);
`;

async function sigintsSeen(load: string): Promise<string> {
  const result = await execa(process.execPath, ['--input-type=module', '-e', script(load)], { cwd: root, reject: false, timeout: 10_000 });
  return result.stdout.trim();
}

describe('signal hooks of conf', () => {
  it('a plain import of conf makes one Ctrl-C arrive twice', async () => {
    expect(await sigintsSeen(`await import('conf');`)).toBe('2');
  });

  it('importWithoutSignalHooks leaves exactly the one', async () => {
    expect(await sigintsSeen(`const { importWithoutSignalHooks } = await import('./dist/settings/store.js'); await importWithoutSignalHooks(() => import('conf'));`)).toBe('1');
  });
});
