/**
 * The import graph of a source folder (svc's src/, or the emulator package's src/ or test/), read
 * from the source text: every relative module a file names (`import … from`, `export … from`,
 * `import(…)`, types included), as paths relative to that folder, and every package and `node:`
 * module it names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The top of the repository. */
export const ROOT = resolve(import.meta.dirname, '../..');
export const SRC = join(ROOT, 'src');
/** The emulator, a package of its own (npm workspaces). */
export const EMULATOR = join(ROOT, 'packages/emulator');
/** The name svc imports it by. */
export const EMULATOR_PACKAGE = '@svc/emulator';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `… from '…'` (not `Buffer.from('…')`), `import('…')`, and a bare `import '…'`: the specifier is the first group that matched. */
const SPECIFIER = /(?<![.\w])from\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'|^\s*import\s+'([^']+)'/gm;

/** Every module a file names, as written. */
function specifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/**
 * `import … from '…'` and `export … from '…'` that load the module when the file loads (not
 * `import type`, not a list of types only), and a bare `import '…'`; never `import(…)`.
 */
const LOADING = /^\s*(?:import|export)\s+(?!type\b)([\w\s{},*$]*?)\s*from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm;

/** Every module that loads with the file (see LOADING), as written. */
export function loadedSpecifiers(text: string): string[] {
  const typesOnly = (clause: string): boolean => /^\{[^}]*\}$/.test(clause.trim()) && clause.trim().slice(1, -1).split(',').every((item) => /^\s*(type\s|$)/.test(item));
  return [...new Set([...text.matchAll(LOADING)].filter((match) => match[3] !== undefined || !typesOnly(match[1]!)).map((match) => (match[2] ?? match[3])!))];
}

/** Every relative module a file names: `import … from`, `export … from`, `import(…)`, types included. */
export function relativeImports(text: string): string[] {
  return [...new Set(specifiers(text).filter((specifier) => /^\.{1,2}\//.test(specifier)))];
}

/** Every `node:` module a file names. */
export function nodeImports(text: string): string[] {
  return [...new Set(specifiers(text).filter((specifier) => specifier.startsWith('node:')))];
}

/** A package name, with a path inside it or not (`vitest/config`, `@svc/emulator/images`); not words in a string that follow "from". */
const PACKAGE = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]+)?$/;

/** Every package a file names (`vitest`, `@svc/emulator/images`), as written. */
export function packageImports(text: string): string[] {
  return [...new Set(specifiers(text).filter((specifier) => PACKAGE.test(specifier)))];
}

/** The package a specifier names: `@svc/emulator/images` → `@svc/emulator`, `vitest/config` → `vitest`. */
export function packageName(specifier: string): string {
  return specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

export interface ModuleInfo {
  /** Relative modules it imports, as paths relative to the folder read (`.ts`; `../` when outside it). */
  imports: string[];
  /** Node's own modules it imports (`node:fs`). */
  nodeModules: string[];
  /** Packages it imports, as written. */
  packages: string[];
}

/**
 * Folder-relative path → what that module imports, for every module under `folder` (svc's src/
 * by default). `loading`: only what loads with the module (see LOADING), as start-up sees it.
 */
export function importGraph(folder = SRC, { loading = false } = {}): Map<string, ModuleInfo> {
  const graph = new Map<string, ModuleInfo>();
  for (const file of sourceFiles(folder)) {
    const full = readFileSync(file, 'utf8');
    // Only the loading statements' specifiers, kept in the shape the finders below read.
    const text = loading ? loadedSpecifiers(full).map((specifier) => `import '${specifier}';`).join('\n') : full;
    const targets = relativeImports(text).map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    graph.set(relative(folder, file).split('\\').join('/'), {
      imports: targets.map((target) => relative(folder, target).split('\\').join('/')),
      nodeModules: nodeImports(text),
      packages: packageImports(text),
    });
  }
  return graph;
}
