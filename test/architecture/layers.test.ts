/**
 * The layers of src/, checked from the import graph. Each rule says which folders a folder may
 * import, and why; a failure names the rule, the module and what it imported.
 *
 *   root (main, program, factory, cli)  the wiring: may import anything
 *   shell   commands/                   parsing and printing; nothing imports it but the root
 *           terminal/ render/ preview/  the screen
 *   domain  chat/ images/ conversations/ settings/ roles/ attachments/
 *   service api/                        requests, transport, SSE, retries
 *   base    storage/ (files on disk), core/ (errors, values, text)
 *   emulator/                           the local service: an application of its own
 */
import { describe, expect, it } from 'vitest';
import { importGraph, type ModuleInfo } from './import-graph.js';

const DOMAIN = ['chat', 'images', 'conversations', 'settings', 'roles', 'attachments'];
const SCREEN = ['terminal', 'render', 'preview'];

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
    name: 'the screen imports no command',
    why: 'rendering and previews serve every command; a command is only ever the caller',
    folders: SCREEN,
    mayImport: ['core', 'storage', 'api', ...DOMAIN, ...SCREEN],
  },
  {
    name: 'the emulator stands apart from svc the client',
    why: 'it implements the service contract (api/ value lists) and draws images; it must not depend on how svc sends or shows',
    folders: ['emulator'],
    mayImport: ['core', 'api', 'images'],
  },
  {
    name: 'nothing imports commands/ but the root and commands/ itself',
    why: 'shared work lives in the domain once; a second caller of a command module is a domain module waiting to be moved',
    folders: ['core', 'storage', 'api', ...DOMAIN, ...SCREEN, 'emulator'],
    mayImport: ['core', 'storage', 'api', ...DOMAIN, ...SCREEN, 'emulator'].filter((folder) => folder !== 'commands'),
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
      ['api/client.ts', { imports: ['core/errors.ts', 'settings/store.ts'], nodeModules: [] }],
      ['settings/store.ts', { imports: ['commands/x.ts'], nodeModules: [] }],
      ['commands/x.ts', { imports: ['api/client.ts'], nodeModules: [] }],
    ]);
    expect(breaches(toy, RULES)).toEqual([
      expect.stringMatching(/^api imports nothing of the domain or the shell .*: api\/client\.ts → settings\/store\.ts$/),
      expect.stringMatching(/^the domain imports no shell .*: settings\/store\.ts → commands\/x\.ts$/),
      expect.stringMatching(/^nothing imports commands\/ .*: settings\/store\.ts → commands\/x\.ts$/),
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
