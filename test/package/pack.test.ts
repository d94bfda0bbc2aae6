/**
 * The npm package: `npm pack` ships only what runs and its documentation (the README and the
 * guides it links to, whose links all stay inside the package), and the tarball installs globally
 * into a fresh prefix where `svc --version` and `svc --help` work.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRelative, linkTargets } from '../helpers/markdown-links.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
let work: string;
let files: string[];
let tarball: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  // The tests run after `npm run build`, so dist/ is current; no need to build again.
  const packed = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = info!.files.map((file) => file.path);
  tarball = join(work, info!.filename);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack', () => {
  it('ships the launcher, the built code, completions, README and LICENSE', () => {
    for (const path of ['bin/svc.js', 'dist/cli.js', 'dist/main.js', 'completions/svc.bash', 'completions/_svc', 'completions/svc.fish', 'README.md', 'LICENSE', 'package.json']) {
      expect(files).toContain(path);
    }
  });

  it('ships the guides, and every relative link of a shipped Markdown file leads to a shipped file', () => {
    const markdown = files.filter((path) => path.endsWith('.md'));
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/chat.md', 'docs/settings.md', 'docs/troubleshooting.md', 'docs/service-api.md']));
    let links = 0;
    for (const file of markdown) {
      for (const target of linkTargets(readFileSync(join(root, file), 'utf8')).filter(isRelative)) {
        const path = target.split('#')[0]!;
        if (path === '') continue;
        links += 1;
        expect(files, `${file} links to ${target}`).toContain(posix.normalize(posix.join(posix.dirname(file), path)));
      }
    }
    expect(links).toBeGreaterThan(20);
  });

  it('ships no tests, sources, source maps or development files', () => {
    const unwanted = files.filter((path) => /^(test|src|bench|scripts|\.ci)\//.test(path) || /\.(map|ts)$/.test(path) || /(tsconfig|vitest|eslint)/.test(path));
    expect(unwanted).toEqual([]);
  });

  it('installs globally into a fresh prefix without a warning, and svc --version and --help work there', async () => {
    const prefix = join(work, 'prefix');
    // --prefer-offline: the dependencies come from npm's cache when it has them, without asking
    // the registry whether they changed; this case is about the tarball, not the registry.
    const install = await execa('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: work, timeout: 150_000 });
    // Quietly: no script of svc's own for npm to hold back (npm 11 warns about a `prepare`
    // script on a global install, so the build runs at `prepack` instead).
    expect(install.stderr).not.toMatch(/npm warn/i);
    const bin = join(prefix, 'bin', 'svc');
    const versionResult = await execa(bin, ['--version'], { cwd: work });
    expect(versionResult.stdout).toBe(version);
    const help = await execa(bin, ['--help'], { cwd: work });
    expect(help.stdout).toContain('Usage: svc');
    expect(help.stdout).toContain('Exit codes:');
    const completion = await execa(bin, ['completion', 'bash'], { cwd: work });
    expect(completion.stdout).toContain('complete -o default -F _svc svc');
  }, 180_000);
});
