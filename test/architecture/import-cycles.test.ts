/**
 * The house has no loop: no module of src/ (nor of the emulator package's src/) reaches itself
 * through its imports, counting type-only imports and lazy `import()` too (a loop of types still
 * ties two rooms together). And the session takes nothing from the one-shot command: what both
 * use lives in modules of its own.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMULATOR, importGraph, relativeImports } from './import-graph.js';

/** The strongly connected parts with more than one module, or one that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('imports in src/', () => {
  const graph = new Map([...importGraph()].map(([file, info]) => [file, info.imports]));

  it('finds every kind of import (the check can fail)', () => {
    expect(relativeImports("import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nconst d = await import('./d.js');\nimport './e.js';\nBuffer.from('./f.js');")).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js']);
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']], ['c.ts', ['a.ts']]]))).toEqual([['a.ts', 'b.ts']]);
    // Every module named resolves to a file of src/: a missed rename would hide an edge.
    const missing = [...graph.values()].flat().filter((target) => !graph.has(target));
    expect(missing).toEqual([]);
  });

  it('form no loop', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('form no loop in the emulator package either', () => {
    const emulator = new Map([...importGraph(join(EMULATOR, 'src'))].map(([file, info]) => [file, info.imports]));
    expect(emulator.size).toBeGreaterThan(40);
    expect([...emulator.values()].flat().filter((target) => !emulator.has(target))).toEqual([]);
    expect(cycles(emulator)).toEqual([]);
  });

  it('leave one-shot.ts to the one-shot command: the session imports nothing from it', () => {
    const importers = [...graph].filter(([, targets]) => targets.includes('commands/chat/one-shot.ts')).map(([file]) => file);
    expect(importers).toEqual(['commands/chat/start.ts']);
  });
});
