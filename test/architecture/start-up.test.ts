/**
 * What every command loads before it runs. program.ts imports each command module at once
 * (commander needs every declaration for --help and shell completion), so whatever those modules
 * import at once, every command loads: commander, the flag helpers, the base layers. A command's
 * own work (the HTTP client, the session, the renderer, the emulator, the prompts, an editor)
 * comes through the `await import()` of its run function. Type-only imports load nothing.
 */
import { describe, expect, it } from 'vitest';
import { importGraph, loadedSpecifiers, type ModuleInfo } from './import-graph.js';

/** Node's modules nearly every command loads anyway (the bundle's shared chunk allows the same: scripts/bundle.mjs CHEAP_BUILTINS). */
const CHEAP_NODE = new Set(['fs', 'path', 'os', 'url', 'events', 'util', 'stream', 'buffer', 'process', 'string_decoder'].map((name) => `node:${name}`));
/** commander, and the table of character widths that wrapping and tables read. */
const START_UP_PACKAGES = new Set(['@commander-js/extra-typings', 'get-east-asian-width']);

/** The modules `entry` loads at once, and what of Node and of packages they load beyond the cheap ones and START_UP_PACKAGES. */
function costly(graph: Map<string, ModuleInfo>, entry: string): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const info = graph.get(file)!;
    for (const name of [...info.nodeModules.filter((name) => !CHEAP_NODE.has(name)), ...info.packages.filter((name) => !START_UP_PACKAGES.has(name))]) found.push(`${file} → ${name}`);
    info.imports.forEach(visit);
  };
  visit(entry);
  return found;
}

describe('start-up', () => {
  it('tells what loads at once from what loads later (the check can fail)', () => {
    expect(loadedSpecifiers("import { a } from './a.js';\nimport type { B } from './b.js';\nimport { type C, type D } from './c.js';\nimport { type E, f } from './e.js';\nexport { g } from './g.js';\nconst h = await import('./h.js');\nimport './i.js';")).toEqual(['./a.js', './e.js', './g.js', './i.js']);
    const toy = new Map<string, ModuleInfo>([
      ['program.ts', { imports: ['commands/x.ts'], nodeModules: [], packages: ['@commander-js/extra-typings'] }],
      ['commands/x.ts', { imports: ['terminal/editor.ts'], nodeModules: ['node:path'], packages: [] }],
      ['terminal/editor.ts', { imports: [], nodeModules: ['node:child_process'], packages: [] }],
    ]);
    expect(costly(toy, 'program.ts')).toEqual(['terminal/editor.ts → node:child_process']);
  });

  it('the program loads no package but commander, and none of Node\'s costly modules, before a command runs', () => {
    const graph = importGraph(undefined, { loading: true });
    expect(graph.get('program.ts')!.imports).toContain('commands/chat/chat.ts');
    expect(costly(graph, 'main.ts')).toEqual([]);
  });
});
