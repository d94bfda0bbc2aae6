/**
 * Help and README agree on the environment: `svc --help` lists the variables a user sets, the
 * README's "Environment variables" table lists the same ones, the README's troubleshooting names
 * the ones terminals set about themselves, and every variable the source reads is in one of the
 * two lists (src/core/environment.ts), so none is read undocumented.
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

  it("the README's table lists the same ones", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('### Environment variables');
    const table = readme.slice(start, readme.indexOf('\n### ', start + 1));
    const inReadme = [...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!);
    expect([...new Set(inReadme)].sort()).toEqual(listed);
  });

  it('svc --help leaves out the ones terminals set, and the README names them under Troubleshooting', async () => {
    const sandbox = makeSandbox();
    try {
      const help = (await runSvc(['--help'], sandbox)).stdout;
      for (const name of TERMINAL_ENVIRONMENT) expect(help).not.toMatch(new RegExp(`\\b${name}\\b`));
    } finally {
      sandbox.cleanup();
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('## Troubleshooting');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    for (const name of TERMINAL_ENVIRONMENT) expect(section, name).toContain(`\`${name}\``);
  });
});

describe('help refers only to what is shipped', () => {
  it('names no Markdown file of the repository that the package leaves out (only README.md is shipped)', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('README.md');
    const pages = JSON.parse(readFileSync(join(root, 'dist', 'bundle', 'help.json'), 'utf8')) as Record<string, string>;
    const repositoryDocs = ['service-api.md', 'cli.md', 'docs/', 'bench/README.md', 'RESULTS.md', 'real-servers.md'];
    for (const [command, page] of Object.entries(pages)) {
      for (const doc of repositoryDocs) expect(page.includes(doc), `svc ${command} --help names ${doc}`).toBe(false);
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
