/**
 * Help and the guides agree on the environment: `svc --help` lists the variables a user sets,
 * the "Environment variables" table of docs/settings.md lists the same ones, docs/troubleshooting.md
 * names the ones terminals set about themselves, and every variable the source reads is in one of
 * the two lists (src/core/environment.ts), so none is read undocumented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT, TERMINAL_ENVIRONMENT } from '../../src/core/environment.js';
import { settingDefinitions } from '../../src/settings/definitions.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox } from '../helpers/run-svc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const listed = ENVIRONMENT.flatMap((group) => group.names).sort();

/** The variables the source reads: env.NAME, env['NAME'], a setting's env, xdg(env, 'NAME'), and SVC_ names in quotes. */
function readBySource(): string[] {
  const found = new Set<string>();
  const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((path) => path.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(join(root, 'src', file), 'utf8');
    for (const match of text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g)) found.add(match[1] ?? match[2]!);
    for (const match of text.matchAll(/xdg\(env, '([A-Z_]+)'/g)) found.add(match[1]!);
    for (const match of text.matchAll(/['"](SVC_[A-Z0-9_]+)['"]/g)) found.add(match[1]!);
  }
  for (const definition of Object.values(settingDefinitions)) found.add(definition.env);
  return [...found].sort();
}

describe('the environment variables', () => {
  it('every one the source reads is in one of the documented lists, and none in both', () => {
    const missing = readBySource().filter((name) => !listed.includes(name) && !TERMINAL_ENVIRONMENT.includes(name));
    expect(missing, `read by src/ but not in src/core/environment.ts: ${missing.join(', ')}`).toEqual([]);
    expect(listed.filter((name) => TERMINAL_ENVIRONMENT.includes(name))).toEqual([]);
    expect(TERMINAL_ENVIRONMENT).toContain('KONSOLE_VERSION');
  });

  it('svc --help lists each of them', async () => {
    const sandbox = makeSandbox();
    try {
      const help = (await runSvc(['--help'], sandbox)).stdout;
      const section = help.slice(help.indexOf('Environment:'), help.indexOf('Exit codes:'));
      const inHelp = [...section.matchAll(/\b[A-Z][A-Z0-9_]{1,}\b/g)].map((match) => match[0]).filter((word) => listed.includes(word));
      expect([...new Set(inHelp)].sort()).toEqual(listed);
      expect(Math.max(...help.split('\n').map((line) => line.length))).toBeLessThanOrEqual(100);
    } finally {
      sandbox.cleanup();
    }
  });

  it('the table of the settings guide lists the same ones', () => {
    const guide = readFileSync(join(root, 'docs', 'settings.md'), 'utf8');
    const start = guide.indexOf('\n## Environment variables\n');
    expect(start).toBeGreaterThan(0);
    const table = guide.slice(start, guide.indexOf('\n## ', start + 1));
    const inGuide = [...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!);
    expect([...new Set(inGuide)].sort()).toEqual(listed);
  });

  it('svc --help leaves out the ones terminals set, and the troubleshooting guide names them', async () => {
    const sandbox = makeSandbox();
    try {
      const help = (await runSvc(['--help'], sandbox)).stdout;
      for (const name of TERMINAL_ENVIRONMENT) expect(help).not.toMatch(new RegExp(`\\b${name}\\b`));
    } finally {
      sandbox.cleanup();
    }
    const guide = readFileSync(join(root, 'docs', 'troubleshooting.md'), 'utf8');
    for (const name of TERMINAL_ENVIRONMENT) expect(guide, name).toContain(`\`${name}\``);
  });
});

/** The Markdown files of the repository (not its dependencies or build output), as paths from its root. */
function repositoryMarkdown(folder = ''): string[] {
  const skip = new Set(['node_modules', '.git', 'dist', 'coverage']);
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : repositoryMarkdown(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
  });
}

describe('help refers only to what is shipped', () => {
  it('names no Markdown file of the repository that the package leaves out (README.md and docs/ are shipped)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(['README.md', 'docs']));
    const shipped = (path: string): boolean => pkg.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
    const markdown = repositoryMarkdown();
    const left = markdown.filter((path) => !shipped(path));
    expect(left).toContain('bench/README.md');
    const shippedNames = new Set(markdown.filter(shipped).map((path) => path.slice(path.lastIndexOf('/') + 1)));
    // A file left out is named by its path, or by its name alone where no shipped file has that
    // name; cli.md is the product contract, kept outside the repository.
    const names = ['cli.md', ...left, ...left.map((path) => path.slice(path.lastIndexOf('/') + 1)).filter((name) => !shippedNames.has(name))];
    const pages = JSON.parse(readFileSync(join(root, 'dist', 'bundle', 'help.json'), 'utf8')) as Record<string, string>;
    for (const [command, page] of Object.entries(pages)) {
      for (const name of names) expect(page.includes(name), `svc ${command} --help names ${name}`).toBe(false);
    }
  });
});

describe('--profile only where it does something (issue 26, item 5)', () => {
  it.each(['render', 'emulator', 'completion'])('svc %s: not in its help, and given there it is exit 2 saying why', async (command) => {
    const sandbox = makeSandbox();
    try {
      expect((await runSvc([command, '--help'], sandbox)).stdout).not.toContain('--profile');
      const result = await runSvc([command, '--profile', 'work', ...(command === 'completion' ? ['bash'] : [])], sandbox, { stdin: '# x\n' });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`--profile does nothing for svc ${command}`);
    } finally {
      sandbox.cleanup();
    }
  });

  it('svc chat and svc config list it', async () => {
    const sandbox = makeSandbox();
    try {
      for (const command of ['chat', 'config']) expect((await runSvc([command, '--help'], sandbox)).stdout).toContain('--profile');
    } finally {
      sandbox.cleanup();
    }
  });
});
