/**
 * One voice on stderr: svc's talk goes through the IO object's warn, note and say (terminal/io.ts),
 * which add the prefix and neutralise the text. The modules below draw on stderr instead of
 * talking (a live progress line, a reply's reasoning as it streams, the session's own screen,
 * commander's usage errors), each named with why; any other write to stderr by hand fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

const DRAWING = new Map<string, string>([
  ['commands/batch/progress.ts', 'the live progress line, redrawn in place, and the closing summary under it'],
  ['commands/chat/reply-writer.ts', "a reply's reasoning, streamed as it comes, dimmed"],
  ['commands/chat/interactive/session-state.ts', "the session's lines to the person at it, wrapped to the terminal, styled blocks (/help) drawn as they are"],
  ['commands/chat/interactive/history.ts', '/history rendered as Markdown on the terminal'],
  ['commands/chat/interactive/repl.ts', 'the blank line that ends an interrupted reply on the screen'],
  ['commands/chat/tool-turn.ts', "a tool call's and its result's dim lines, drawn between the replies of a tool loop"],
  ['program.ts', "commander's own usage errors, which it writes through this hook"],
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('stderr', () => {
  const writers = sources(src)
    .map((path) => relative(src, path).split('\\').join('/'))
    .filter((path) => !path.startsWith('terminal/'))
    .filter((path) => /\bstderr\.write\(/.test(readFileSync(join(src, path), 'utf8')));

  it('is written by hand only in terminal/ and the modules that draw on it', () => {
    expect(writers.filter((path) => !DRAWING.has(path))).toEqual([]);
  });

  it('lists no module that no longer draws on it', () => {
    expect([...DRAWING.keys()].filter((path) => !writers.includes(path))).toEqual([]);
  });
});
