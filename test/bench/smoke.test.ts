/**
 * The benchmark harness runs (one iteration, small sizes) so it cannot rot. Nothing here is
 * about time: the budgets are checked by `npm run bench` (bench/RESULTS.md). What is checked is
 * that every case ran every contender and measured something: each table row has numbers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const number = String.raw`\d+(?:\.\d+)?`;

/** The text of the section under `## heading`, up to the next `## `. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}`);
  expect(start, `section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The contenders of a `### title` table in `text`, each checked to have a median, min, max and ratio. */
function contenders(text: string, title: string, unit: string): string[] {
  const start = text.indexOf(`### ${title}`);
  expect(start, `table "${title}"`).toBeGreaterThanOrEqual(0);
  const rows = text.slice(start).split('\n\n')[1]!.split('\n').slice(2).filter(Boolean);
  const row = new RegExp(String.raw`^\| (.+?) \| ${number} ${unit} \| ${number} \| ${number} \| ${number} \|$`);
  return rows.map((line) => {
    const match = row.exec(line);
    expect(match, line).not.toBeNull();
    return match![1]!;
  });
}

describe('bench/run.mjs --quick', () => {
  it('runs every case with every contender, and reports every budget with a measurement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-smoke-'));
    const out = join(dir, 'results.md');
    try {
      const result = await execa(process.execPath, ['bench/run.mjs', '--quick', '--out', out], { cwd: fileURLToPath(new URL('../..', import.meta.url)), reject: false, timeout: 120_000 });
      expect(result.exitCode, result.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(contenders(section(text, 'Startup'), 'wall time', 'ms')).toEqual(['node -e 0', 'svc --version', 'svc --help']);
      expect(contenders(section(text, 'One-shot chat, not streamed'), 'wall time', 'ms')).toEqual(['svc chat --no-stream', 'openai package', 'curl']);
      expect(contenders(section(text, 'Stream of 2000 chunks'), 'wall time', 'ms')).toEqual(['svc chat', 'openai package', 'curl -sN', 'node:http copy']);
      const image = section(text, 'Image of 3 MiB');
      expect(contenders(image, 'wall time', 'ms')).toEqual(['svc image', 'svc image --no-metadata', 'openai package + Buffer.from']);
      expect(contenders(image, 'peak memory (max RSS)', 'MiB')).toEqual(['svc image', 'svc image --no-metadata', 'openai package + Buffer.from']);
      expect(contenders(section(text, 'Writing the provenance into a saved image'), 'time', 'ms')).toEqual(['write the record into a 3.0 MiB png']);
      const reading = section(text, 'Reading a 3 MiB image answer');
      expect(contenders(reading, 'wall time', 'ms')).toEqual(["svc's scanner", 'stream-json', 'JSON.parse + Buffer.from']);
      expect(contenders(reading, 'peak memory (max RSS)', 'MiB')).toEqual(["svc's scanner", 'stream-json', 'JSON.parse + Buffer.from']);
      expect(contenders(section(text, 'Time to first token'), 'added latency', 'ms')).toEqual(['svc chat', 'curl -sN']);
      const render = section(text, 'Rendering Markdown on a terminal');
      expect(contenders(render, 'First token on a terminal: from the chunk leaving the server (held 300 ms) to its text on the terminal (ms)', 'ms')).toEqual(['svc chat', 'svc chat --raw']);
      expect(contenders(render, 'A stream of 2000 chunks onto a terminal: whole process, start to exit (ms)', 'ms')).toEqual(['svc chat', 'svc chat --raw']);
      expect(render).toMatch(new RegExp(String.raw`\| terminal-renderer chunk: [^|]+ \| ${number} \|`));
      expect(contenders(render, 'The renderer module alone: a first token, push() to write() (ms)', 'ms')).toEqual(['render', 'raw']);
      expect(contenders(render, 'The renderer module alone: 2000 pieces, the pushes (ms)', 'ms')).toEqual(['render', 'raw']);
      expect(contenders(section(text, 'Searching and listing 500 saved conversations'), 'wall time', 'ms')).toEqual([
        'node -e 0',
        'svc sessions search (1% match)',
        'svc sessions search (every one matches)',
        'grep -rilF (1% match)',
        'svc sessions list',
        'svc sessions list (no cache yet)',
        'svc sessions list -n 20',
        'svc sessions search -n 20 (every one matches)',
        'svc sessions search -n 20 (1% match)',
      ]);
      expect(contenders(section(text, 'Batch of 200 chat requests'), 'wall time', 'ms')).toEqual(['svc batch', 'node:http client']);
      expect(contenders(section(text, 'Batch memory'), 'peak memory (max RSS)', 'MiB')).toEqual(['svc batch, 120 requests', 'svc batch, 1200 requests']);
      expect(contenders(section(text, 'The emulator drawing a megapixel'), 'wall time', 'ms')).toEqual(['drawScene 1024×1024']);
      expect(section(text, 'How cost grows')).toMatch(new RegExp(String.raw`\| 2000 \| ${number} \| ${number} \| ${number} \|`));
      const budgets = section(text, 'Budgets').split('\n').filter((line) => /^\| (?!budget|---)/.test(line));
      // A measurement that is a difference ("added over raw") can come out below zero in a single
      // quick iteration on a busy machine: a sign is still a measurement.
      const budgetRow = new RegExp(String.raw`^\| (.+?) \| -?${number} \| ${number} \| (met|\*\*not met\*\*) \|$`);
      expect(budgets.map((line) => budgetRow.exec(line)?.[1])).toEqual([
        'startup: svc --version / node -e 0',
        'startup: svc --help / node -e 0',
        'stream 2000: svc / node:http copy',
        'stream 2000: svc / openai package',
        'image 3 MiB memory: svc / openai',
        'image 3 MiB time: svc / openai',
        'metadata: write the record into a 3 MiB PNG (ms)',
        'first token: svc added latency (ms)',
        'render: first token on a terminal, svc chat over svc chat --raw (ms)',
        'render: 2000 chunks onto a terminal, svc chat / svc chat --raw',
        'search 500 conversations, 1% match / node -e 0',
        'search 500 conversations, every one matches / node -e 0',
        'list 500 conversations / node -e 0',
        'list -n 20 of 500 conversations / node -e 0',
        'search -n 20 of 500 conversations, every one matches / node -e 0',
        'batch 200: svc / node:http client',
        'batch memory: 3600 / 1200 requests (flat)',
        'batch memory: 1200 requests (MiB)',
        'emulator: draw a 1024×1024 scene (ms)',
        ...['png, half blocks', 'png, kitty', 'png, iTerm2', 'png, sixel', 'jpeg, kitty', 'webp, kitty'].flatMap((preview) => [`preview ${preview}: added ms`, `preview ${preview}: added MiB`]),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
