/**
 * The bench's preview case (issue 13) runs on its own (`--only preview`, one quick round) and
 * reports what each preview adds to `svc image`; `--only` never writes over RESULTS.md.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('bench/run.mjs --quick --only preview', () => {
  it('measures every preview against --preview none, and only that case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-preview-'));
    const out = join(dir, 'results.md');
    const results = join(root, 'bench', 'RESULTS.md');
    const before = statSync(results).mtimeMs;
    try {
      const result = await execa(process.execPath, ['bench/run.mjs', '--quick', '--only', 'preview', '--out', out], { cwd: root, reject: false, timeout: 120_000 });
      expect(result.exitCode, result.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(text).toContain('## Preview of a 1-megapixel image');
      expect(text).not.toContain('## Startup');
      for (const name of ['png, half blocks', 'png, kitty', 'png, iTerm2', 'png, sixel', 'jpeg, kitty', 'webp, kitty']) {
        expect(text).toMatch(new RegExp(`\\| ${name} \\| -?[\\d.]+ \\| -?[\\d.]+ \\| -?[\\d.]+ \\|`));
      }
      expect(statSync(results).mtimeMs).toBe(before);
      const refused = await execa(process.execPath, ['bench/run.mjs', '--only', 'nothing'], { cwd: root, reject: false });
      expect(refused.exitCode).not.toBe(0);
      expect(refused.stderr).toContain('--only takes one of startup, chat, stream, image, metadata, reader, first-token, render, search, batch, emulator-draw, preview');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
