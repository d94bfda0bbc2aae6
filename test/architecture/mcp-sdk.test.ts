/**
 * The MCP SDK is loaded only when tools are used. From the source: no module outside src/tools/
 * names `@modelcontextprotocol/*`, and no module outside src/tools/ imports statically (a value
 * import, not `import type`) a module of src/tools/ that loads the SDK, however indirectly: such a
 * module is reached only through a dynamic import. From the built program: `svc --version`, a
 * chat, and the mcp commands that start no server load no bundle file holding the SDK, while
 * `svc mcp tools` does (the control that the check can see it).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { FILESYSTEM_SERVER } from '../helpers/mcp-servers.js';
import { svc } from '../helpers/run-svc.js';
import { importGraph, packageName, SRC } from './import-graph.js';

const SDK = '@modelcontextprotocol';
const FILES_PRELOAD = fileURLToPath(new URL('../helpers/report-loaded-files.cjs', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
/** A class only the SDK's client code defines. */
const SDK_MARK = 'StreamableHTTPClientTransport';

/** A value import (`import … from`, `export … from`, a bare `import '…'`), not a type-only one and not `import(…)`: the relative specifiers. */
function staticRelativeImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'(\.{1,2}\/[^']+)'|^\s*import\s+'(\.{1,2}\/[^']+)'/gm)) {
    if (match[2] === undefined) found.push((match[3] ?? match[4])!);
  }
  return found;
}

/** Each module of src/ (relative path) → the modules it imports statically, as src/-relative paths. */
function staticGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of importGraph().keys()) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const base = file.split('/').slice(0, -1);
    graph.set(
      file,
      staticRelativeImports(text).map((specifier) => {
        const parts = [...base];
        for (const part of specifier.replace(/\.js$/, '.ts').split('/')) {
          if (part === '..') parts.pop();
          else if (part !== '.') parts.push(part);
        }
        return parts.join('/');
      }),
    );
  }
  return graph;
}

/** The modules that load the SDK when they load: those that import it, and those that statically import one of them. */
function sdkLoaders(graph: Map<string, string[]>, namesSdk: (file: string) => boolean): Set<string> {
  const loaders = new Set([...graph.keys()].filter(namesSdk));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, imports] of graph) {
      if (!loaders.has(file) && imports.some((target) => loaders.has(target))) {
        loaders.add(file);
        grew = true;
      }
    }
  }
  return loaders;
}

describe('the MCP SDK in the source', () => {
  const modules = importGraph();
  const graph = staticGraph();
  const namesSdk = (file: string): boolean => {
    const text = readFileSync(join(SRC, file), 'utf8');
    // A value import of the SDK: `import type` alone loads nothing.
    return [...text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'(@modelcontextprotocol\/[^']+)'/gm)].some((match) => match[2] === undefined);
  };

  it('tells static imports from type-only and dynamic ones (the check can fail)', () => {
    expect(staticRelativeImports("import { a } from './a.js';\nimport type { B } from './b.js';\nexport { c } from '../c.js';\nconst d = await import('./d.js');\nimport './e.js';")).toEqual(['./a.js', '../c.js', './e.js']);
    const toy = new Map([
      ['commands/x.ts', ['tools/toolbox.ts']],
      ['tools/toolbox.ts', ['tools/connection.ts']],
      ['tools/connection.ts', []],
      ['tools/servers.ts', []],
    ]);
    expect([...sdkLoaders(toy, (file) => file === 'tools/connection.ts')].sort()).toEqual(['commands/x.ts', 'tools/connection.ts', 'tools/toolbox.ts']);
  });

  it('no module outside src/tools/ names the SDK', () => {
    const outside = [...modules].filter(([file, info]) => !file.startsWith('tools/') && info.packages.some((name) => packageName(name).startsWith(`${SDK}/`)));
    expect(outside.map(([file]) => file)).toEqual([]);
    // And inside, it is named (so the rule above guards something).
    expect([...modules].some(([file, info]) => file.startsWith('tools/') && info.packages.some((name) => name.startsWith(SDK)))).toBe(true);
  });

  it('no module outside src/tools/ loads it by a static import: only a dynamic import reaches it', () => {
    const loaders = sdkLoaders(graph, namesSdk);
    expect([...loaders].filter((file) => !file.startsWith('tools/'))).toEqual([]);
    expect(loaders.has('tools/toolbox.ts')).toBe(true);
    // What listing and editing servers use loads none of it.
    expect(loaders.has('tools/servers.ts')).toBe(false);
  });
});

describe('the MCP SDK in the built program', () => {
  const KEY = 'mcp-sdk-loading-key-0123456789';
  const setup = useEmulatorSandbox(KEY);

  /** The bundle files a run of `svc args` loaded that hold the SDK. */
  async function sdkFilesLoadedBy(args: string[]): Promise<string[]> {
    const list = join(setup.sandbox.home, 'files.txt');
    rmSync(list, { force: true });
    const env = { ...setup.sandbox.env, NODE_OPTIONS: `--require ${FILES_PRELOAD}`, SVC_TEST_FILES_OUT: list };
    const result = await svc(args, { ...setup.sandbox, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const files = [...new Set(readFileSync(list, 'utf8').split('\n').filter((url) => url.startsWith('file:')))].map((url) => fileURLToPath(url));
    return files.filter((path) => path.startsWith(BUNDLE) && readFileSync(path, 'utf8').includes(SDK_MARK));
  }

  it('the mark is in the bundle, so its absence below means something', () => {
    expect(readdirSync(BUNDLE).some((name) => name.endsWith('.cjs') && readFileSync(join(BUNDLE, name), 'utf8').includes(SDK_MARK))).toBe(true);
  });

  it('svc --version, a chat, and svc mcp add and list load none of it; svc mcp tools does', async () => {
    expect(await sdkFilesLoadedBy(['--version'])).toEqual([]);
    expect(await sdkFilesLoadedBy(['chat', '--no-save', 'hello'])).toEqual([]);
    expect(await sdkFilesLoadedBy(['mcp', 'add', 'files', '--', process.execPath, FILESYSTEM_SERVER, setup.sandbox.home])).toEqual([]);
    expect(await sdkFilesLoadedBy(['mcp', 'list'])).toEqual([]);
    expect(await sdkFilesLoadedBy(['mcp', 'tools', 'files'])).toHaveLength(1);
  });
});
