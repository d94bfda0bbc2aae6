/**
 * The layers of src/, checked from the import graph. Each rule says which folders a folder may
 * import, and why; a failure names the rule, the module and what it imported.
 *
 *   root (main, program, factory, cli)  the wiring: may import anything
 *   shell   commands/                   parsing and printing; nothing imports it but the root
 *           export/                     conversations as documents (Markdown, HTML)
 *           render/ preview/            the screen: Markdown and pictures, drawn through
 *           terminal/                   the console: IO, signals, tables, text width
 *   domain  chat/ images/ conversations/ settings/ roles/ attachments/ tools/ (MCP servers; settings/ below chat/)
 *   service api/                        requests, transport, SSE, retries
 *   base    storage/ (files on disk, svc's folders), core/ (errors, values, text, names)
 *
 * And the emulator, the local service, is a package of its own (packages/emulator, @svc/emulator):
 * svc loads it only in `svc emulator`, it imports nothing of svc, and inside it the protocol
 * (core/) reads apart from what it adds (extras/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMULATOR, EMULATOR_PACKAGE, importGraph, packageName, ROOT, type ModuleInfo } from './import-graph.js';

const DOMAIN = ['chat', 'images', 'conversations', 'settings', 'roles', 'attachments', 'tools'];
const SCREEN = ['terminal', 'render', 'preview'];
const BELOW_SHELL = ['core', 'storage', 'api', ...DOMAIN];

interface Rule {
  name: string;
  why: string;
  /** The top folders of src/ the rule applies to. */
  folders: string[];
  /** The top folders their modules may import (their own folder is always allowed). */
  mayImport: string[];
}

const RULES: Rule[] = [
  {
    name: 'core imports nothing but core',
    why: 'every layer may use core/; anything it imported would be tied to every layer',
    folders: ['core'],
    mayImport: [],
  },
  {
    name: 'storage sits on core alone',
    why: 'how files are written safely knows nothing of what is in them',
    folders: ['storage'],
    mayImport: ['core'],
  },
  {
    name: 'api imports nothing of the domain or the shell',
    why: 'the service layer turns bytes into typed values; settings, files and the terminal are decided above it',
    folders: ['api'],
    mayImport: ['core'],
  },
  {
    name: 'the domain imports no shell',
    why: 'what the program knows must work without commander or a terminal (tests, batch, the session alike)',
    folders: DOMAIN,
    mayImport: ['core', 'storage', 'api', ...DOMAIN],
  },
  {
    name: 'settings/ imports no chat/',
    why: 'chat reads the settings, never the reverse; what both need (the params of a request) sits below them in core/',
    folders: ['settings'],
    mayImport: BELOW_SHELL.filter((folder) => folder !== 'chat'),
  },
  {
    name: 'the screen imports no command',
    why: 'rendering and previews serve every command; a command is only ever the caller',
    folders: SCREEN,
    mayImport: [...BELOW_SHELL, ...SCREEN],
  },
  {
    name: 'terminal/ imports neither render/ nor preview/',
    why: 'the console is what the renderer and the previews draw through; what they share with it (the width of text) lives in terminal/',
    folders: ['terminal'],
    mayImport: BELOW_SHELL,
  },
  {
    name: 'the exports read the domain and the renderer, no command',
    why: 'a document made of a conversation is a pure function of it; the command decides where it goes (stdout or a file)',
    folders: ['export'],
    mayImport: [...BELOW_SHELL, 'render'],
  },
  {
    name: 'nothing imports commands/ but the root and commands/ itself',
    why: 'shared work lives in the domain once; a second caller of a command module is a domain module waiting to be moved',
    folders: [...BELOW_SHELL, ...SCREEN, 'export'],
    mayImport: [...BELOW_SHELL, ...SCREEN, 'export'],
  },
];

/** The top folder of a src/-relative path; files at the top are the root. */
const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '(root)');

/** The command a module of commands/ belongs to (`commands/batch/run.ts` → batch); undefined for the shared modules at commands/'s top. */
const commandOf = (path: string): string | undefined => {
  const parts = path.split('/');
  return parts[0] === 'commands' && parts.length > 2 ? parts[1] : undefined;
};

/** Node modules the service layer may not use: it writes no file and touches no terminal. */
const API_FORBIDDEN_NODE = ['node:fs', 'node:fs/promises', 'node:tty', 'node:readline'];

/** Each import that breaks a rule, as `rule: module → import`. */
function breaches(graph: Map<string, ModuleInfo>, rules: Rule[]): string[] {
  const found: string[] = [];
  for (const [file, info] of graph) {
    const folder = folderOf(file);
    for (const rule of rules) {
      if (!rule.folders.includes(folder)) continue;
      for (const target of info.imports) {
        const to = folderOf(target);
        if (to !== folder && !rule.mayImport.includes(to)) found.push(`${rule.name} (${rule.why}): ${file} → ${target}`);
      }
    }
  }
  return found;
}

describe('the layers of src/', () => {
  const graph = importGraph();

  it('finds a breach (the check can fail)', () => {
    const toy = new Map<string, ModuleInfo>([
      ['api/client.ts', { imports: ['core/errors.ts', 'settings/store.ts'], nodeModules: [], packages: [] }],
      ['settings/store.ts', { imports: ['commands/x.ts'], nodeModules: [], packages: [] }],
      ['commands/x.ts', { imports: ['api/client.ts'], nodeModules: [], packages: [] }],
      ['terminal/table.ts', { imports: ['render/width.ts', 'core/errors.ts'], nodeModules: [], packages: [] }],
      ['settings/definitions.ts', { imports: ['chat/request-params.ts', 'roles/store.ts'], nodeModules: [], packages: [] }],
      ['render/cells.ts', { imports: ['terminal/width.ts', 'export/html.ts'], nodeModules: [], packages: [] }],
    ]);
    expect(breaches(toy, RULES)).toEqual([
      expect.stringMatching(/^api imports nothing of the domain or the shell .*: api\/client\.ts → settings\/store\.ts$/),
      expect.stringMatching(/^the domain imports no shell .*: settings\/store\.ts → commands\/x\.ts$/),
      expect.stringMatching(/^settings\/ imports no chat\/ .*: settings\/store\.ts → commands\/x\.ts$/),
      expect.stringMatching(/^nothing imports commands\/ .*: settings\/store\.ts → commands\/x\.ts$/),
      expect.stringMatching(/^terminal\/ imports neither render\/ nor preview\/ .*: terminal\/table\.ts → render\/width\.ts$/),
      expect.stringMatching(/^settings\/ imports no chat\/ .*: settings\/definitions\.ts → chat\/request-params\.ts$/),
      expect.stringMatching(/^the screen imports no command .*: render\/cells\.ts → export\/html\.ts$/),
    ]);
  });

  it("tells a command's own modules from the shared ones (so the command rule can fail)", () => {
    expect(commandOf('commands/batch/run.ts')).toBe('batch');
    expect(commandOf('commands/chat/interactive/repl.ts')).toBe('chat');
    expect(commandOf('commands/dry-run.ts')).toBeUndefined();
    expect(commandOf('images/save.ts')).toBeUndefined();
  });

  it('every folder of src/ is named by a rule or is the shell (a new folder must be placed)', () => {
    const placed = new Set([...RULES.flatMap((rule) => rule.folders), 'commands', '(root)', 'types']);
    const unplaced = [...new Set([...graph.keys()].map(folderOf))].filter((folder) => !placed.has(folder));
    expect(unplaced).toEqual([]);
  });

  it('hold for every import in src/', () => {
    expect(breaches(graph, RULES)).toEqual([]);
  });

  it('the service layer writes no file and touches no terminal', () => {
    const found = [...graph]
      .filter(([file]) => folderOf(file) === 'api')
      .flatMap(([file, info]) => info.nodeModules.filter((name) => API_FORBIDDEN_NODE.includes(name)).map((name) => `${file} → ${name}`));
    expect(found).toEqual([]);
  });

  it("a command imports nothing from another command's folder: what two share lives in the domain, or beside them at commands/'s top", () => {
    const found = [...graph].flatMap(([file, info]) => {
      const own = commandOf(file);
      if (own === undefined) return [];
      return info.imports.filter((target) => commandOf(target) !== undefined && commandOf(target) !== own).map((target) => `${file} → ${target}`);
    });
    expect(found).toEqual([]);
  });

  it('the root keeps only the entry point and the wiring', () => {
    const rootFiles = [...graph.keys()].filter((file) => folderOf(file) === '(root)').sort();
    expect(rootFiles).toEqual(['cli.ts', 'factory.ts', 'main.ts', 'program.ts']);
  });
});

/** `file → import` for each import of `graph` that `allowed` refuses. */
function refused(graph: Map<string, ModuleInfo>, allowed: (file: string, target: string) => boolean, kind: 'imports' | 'packages'): string[] {
  return [...graph].flatMap(([file, info]) => info[kind].filter((target) => !allowed(file, target)).map((target) => `${file} → ${target}`));
}

const namesEmulator = (specifier: string): boolean => packageName(specifier) === EMULATOR_PACKAGE;

/** The packages a package.json lets its code import: `fields` of it. */
function declared(packageJson: string, fields: Array<'dependencies' | 'devDependencies'>): Set<string> {
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as Record<string, Record<string, string> | undefined>;
  return new Set(fields.flatMap((field) => Object.keys(manifest[field] ?? {})));
}

/** The emulator's inner layers: the folder of a module of its src/ (`core`, `extras`), or `(top)` for the wiring beside them. */
const emulatorLayerOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '(top)');

describe('the emulator package boundary', () => {
  const svc = importGraph();
  const tests = importGraph(join(ROOT, 'test'));
  const emulatorSrc = importGraph(join(EMULATOR, 'src'));
  const emulatorTests = importGraph(join(EMULATOR, 'test'));

  it('finds a breach (the check can fail)', () => {
    const toy = new Map<string, ModuleInfo>([
      ['commands/chat/run.ts', { imports: [], nodeModules: [], packages: ['@svc/emulator'] }],
      ['commands/emulator/run.ts', { imports: ['../packages/emulator/src/server.ts'], nodeModules: [], packages: ['@svc/emulator/images'] }],
    ]);
    expect(refused(toy, (file, target) => !namesEmulator(target) || file.startsWith('commands/emulator/'), 'packages')).toEqual(['commands/chat/run.ts → @svc/emulator']);
    expect(refused(toy, (_, target) => !target.startsWith('../'), 'imports')).toEqual(['commands/emulator/run.ts → ../packages/emulator/src/server.ts']);
    expect(packageName('@svc/emulator/images')).toBe('@svc/emulator');
    expect(packageName('vitest/config')).toBe('vitest');
  });

  it('src/ imports the emulator only in commands/emulator/, by its package name (it loads only when `svc emulator` runs)', () => {
    expect(refused(svc, (file, target) => !namesEmulator(target) || file.startsWith('commands/emulator/'), 'packages')).toEqual([]);
    expect(refused(svc, (_, target) => !target.startsWith('../'), 'imports')).toEqual([]);
    expect([...svc.values()].some((info) => info.packages.some(namesEmulator))).toBe(true);
  });

  it("svc's tests reach the emulator by its package name, never by a path into it", () => {
    expect(refused(tests, (_, target) => !target.startsWith('../packages/'), 'imports')).toEqual([]);
    expect([...tests.values()].some((info) => info.packages.some(namesEmulator))).toBe(true);
  });

  it('the package imports nothing of svc: no path out of its folder, no package it does not declare', () => {
    const runtime = declared(join(EMULATOR, 'package.json'), ['dependencies']);
    const forTests = declared(join(EMULATOR, 'package.json'), ['dependencies', 'devDependencies']);
    expect(refused(emulatorSrc, (_, target) => !target.startsWith('../'), 'imports')).toEqual([]);
    expect(refused(emulatorSrc, (_, target) => runtime.has(packageName(target)), 'packages')).toEqual([]);
    // Its tests may use its src/ and its own helpers, nothing above the package.
    expect(refused(emulatorTests, (_, target) => !target.startsWith('../../'), 'imports')).toEqual([]);
    expect(refused(emulatorTests, (_, target) => forTests.has(packageName(target)), 'packages')).toEqual([]);
  });

  it('inside it, the protocol (core/) imports none of the extras (extras/), and neither imports the wiring beside them', () => {
    const mayImport: Record<string, string[]> = { core: ['core'], extras: ['core', 'extras'], '(top)': ['(top)', 'core', 'extras'] };
    expect(Object.keys(mayImport).sort()).toEqual([...new Set([...emulatorSrc.keys()].map(emulatorLayerOf))].sort());
    expect(refused(emulatorSrc, (file, target) => mayImport[emulatorLayerOf(file)]!.includes(emulatorLayerOf(target)), 'imports')).toEqual([]);
  });
});
