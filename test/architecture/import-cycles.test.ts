/**
 * The house has no loop: no module of src/ reaches itself through its imports, counting type-only
 * imports and lazy `import()` too (a loop of types still ties two rooms together). And the session
 * takes nothing from the one-shot command: what both use lives in modules of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative module a file names: `import … from`, `export … from`, `import(…)`, types included. */
function relativeImports(text: string): string[] {
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  return [...new Set(specifiers)];
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = relativeImports(readFileSync(file, 'utf8')).map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    graph.set(relative(SRC, file), targets.map((target) => relative(SRC, target)));
  }
  return graph;
}

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
  const graph = importGraph();

  it('finds every kind of import (the check can fail)', () => {
    expect(relativeImports("import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nconst d = await import('./d.js');")).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']], ['c.ts', ['a.ts']]]))).toEqual([['a.ts', 'b.ts']]);
    // Every module named resolves to a file of src/: a missed rename would hide an edge.
    const missing = [...graph.values()].flat().filter((target) => !graph.has(target));
    expect(missing).toEqual([]);
  });

  it('form no loop', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('leave one-shot.ts to the one-shot command: the session imports nothing from it', () => {
    const importers = [...graph].filter(([, targets]) => targets.includes('commands/chat/one-shot.ts')).map(([file]) => file);
    expect(importers).toEqual(['commands/chat/run.ts']);
  });
});
