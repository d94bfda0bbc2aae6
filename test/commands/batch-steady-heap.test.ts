/**
 * src/commands/batch/send.ts (keepHeapSteady) sets two V8 flags when a batch starts. V8 flags are not an
 * API: should a Node upgrade drop one, setting it prints "unrecognized flag" and does nothing.
 * This fails first.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe("a batch's steady heap", () => {
  it("are flags this Node's V8 knows", async () => {
    const { stdout } = await execa(process.execPath, ['--v8-options'], { cwd: root });
    expect(stdout).toMatch(/^\s*--heap-growing-percent\b/m);
    expect(stdout).toMatch(/^\s*--semi-space-growth-factor\b/m);
  });

  // The young generation's size after many short-lived objects with a steady number alive, as a
  // batch's requests in flight are: V8 grows it many times over unless the batch keeps it steady.
  const churn = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { keepHeapSteady } = await import('./dist/commands/batch/send.js');
    if (process.argv.includes('steady')) keepHeapSteady();
    const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    const start = young();
    let live = [];
    for (let i = 0; i < 400000; i++) {
      live.push({ i, text: 'request ' + i, parts: [i, i + 1] });
      if (live.length > 40000) live = live.slice(20000);
    }
    process.stdout.write(JSON.stringify({ start, end: young() }));`;
  const youngGrowth = async (steady: boolean): Promise<number> => {
    const { stdout } = await execa(process.execPath, ['--input-type=module', '-e', churn, ...(steady ? ['steady'] : [])], { cwd: root });
    const { start, end } = JSON.parse(stdout) as { start: number; end: number };
    return end / start;
  };

  it('keeps the young generation near its start size where V8 would grow it many times over', async () => {
    const [plain, steady] = await Promise.all([youngGrowth(false), youngGrowth(true)]);
    expect(plain).toBeGreaterThanOrEqual(8);
    expect(steady).toBeLessThanOrEqual(4);
  });

  it('is set without a word on stderr', async () => {
    const script = "const { keepHeapSteady } = await import('./dist/commands/batch/send.js'); keepHeapSteady(); process.stdout.write('set');";
    const result = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    expect(result.stdout).toBe('set');
    expect(result.stderr).toBe('');
  });

  it('a flag V8 does not know says so on stderr (so the check above can fail)', async () => {
    const result = await execa(process.execPath, ['-e', "require('node:v8').setFlagsFromString('--svc-no-such-flag')"], { cwd: root });
    expect(result.stderr).toContain('unrecognized flag');
  });
});
