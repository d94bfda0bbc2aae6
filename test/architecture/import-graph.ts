/**
 * The import graph of src/, read from the source text: every relative module a file names
 * (`import … from`, `export … from`, `import(…)`, types included), as paths relative to src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative module a file names: `import … from`, `export … from`, `import(…)`, types included. */
export function relativeImports(text: string): string[] {
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  return [...new Set(specifiers)];
}

/** Every `node:` module a file names. */
export function nodeImports(text: string): string[] {
  return [...new Set([...text.matchAll(/\b(?:from|import)\s*\(?\s*'(node:[^']+)'/g)].map((match) => match[1]!))];
}

export interface ModuleInfo {
  /** Relative modules it imports, as paths relative to src/ (`.ts`). */
  imports: string[];
  /** Node's own modules it imports (`node:fs`). */
  nodeModules: string[];
}

/** src/-relative path → what that module imports. */
export function importGraph(): Map<string, ModuleInfo> {
  const graph = new Map<string, ModuleInfo>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = relativeImports(text).map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    graph.set(relative(SRC, file).split('\\').join('/'), {
      imports: targets.map((target) => relative(SRC, target).split('\\').join('/')),
      nodeModules: nodeImports(text),
    });
  }
  return graph;
}
