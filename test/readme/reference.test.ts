/**
 * The reference tables of the documentation agree with the code they describe: the README's exit
 * codes with the codes svc exits with and `svc --help`, the settings table of docs/settings.md
 * with the settings svc knows, and the dependency tables with package.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/core/errors.js';
import { settingDefinitions } from '../../src/settings/definitions.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox } from '../helpers/run-svc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The section of `markdown` under the heading `heading`, up to the next heading of its level or above. */
function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, `no heading "${heading}"`).toBeGreaterThanOrEqual(0);
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The rows of the first table in `text`, each as its cells (escaped pipes kept inside cells). */
function tableRows(text: string): string[][] {
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
}

describe('the exit codes in the README', () => {
  const rows = tableRows(section(read('README.md'), '## Exit codes'));

  it('are the codes svc exits with, each once', () => {
    expect(rows.map((row) => Number(row[0])).sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
  });

  it('include every code svc --help lists, meaning the same', async () => {
    const sandbox = makeSandbox();
    try {
      const help = (await runSvc(['--help'], sandbox)).stdout;
      const listed = help.slice(help.indexOf('Exit codes:'));
      const inHelp = [...listed.matchAll(/(?:^|\s)(\d{1,3}) ([a-z]+)/g)].map((match) => ({ code: Number(match[1]), word: match[2]! }));
      expect(inHelp.length).toBeGreaterThanOrEqual(8);
      for (const { code, word } of inHelp) {
        const row = rows.find((cells) => Number(cells[0]) === code);
        expect(row, `exit ${code}`).toBeDefined();
        expect(row![1]!.toLowerCase(), `exit ${code}`).toContain(word);
      }
    } finally {
      sandbox.cleanup();
    }
  });
});

describe('the settings table of docs/settings.md', () => {
  const rows = tableRows(section(read('docs/settings.md'), '## Settings and precedence'));

  it.each(Object.entries(settingDefinitions))('names %s with its environment variable', (name, definition) => {
    const row = rows.find((cells) => cells[3]?.includes(`\`${name}\``));
    expect(row, `no row stores ${name}`).toBeDefined();
    expect(row![2]).toContain(`\`${definition.env}\``);
  });
});

describe('the dependencies', () => {
  const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const named = (table: string[][]): string[] => table.flatMap((row) => row[0]!.split(',').map((name) => name.trim()));

  it('the README says what each one svc installs is for', () => {
    const table = named(tableRows(section(read('README.md'), '## Dependencies')));
    expect(table.sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it('the architecture guide says what each one is for, development ones included', () => {
    const guide = section(read('docs/architecture.md'), '## Dependencies');
    const tables = guide.split(/\n(?=What only building)/);
    expect(named(tableRows(tables[0]!)).sort()).toEqual(Object.keys(pkg.dependencies).sort());
    expect(named(tableRows(tables[1]!)).sort()).toEqual(Object.keys(pkg.devDependencies).sort());
  });
});
