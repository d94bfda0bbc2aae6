/**
 * The npm package: `npm pack` ships only what runs and its documentation (the README and the
 * guides it links to, whose links all stay inside the package), and the tarball installs globally
 * into a fresh prefix where `svc --version` and `svc --help` work, and so does `svc emulator`: the
 * emulator is a workspace package (packages/emulator) that the build bundles into dist/, so the
 * tarball needs neither that package nor anything the registry does not have.
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
/** The global install, made by the first case that needs it. */
let installed: Promise<{ bin: string; stderr: string }> | undefined;

function install(): Promise<{ bin: string; stderr: string }> {
  const prefix = join(work, 'prefix');
  // --prefer-offline: the dependencies come from npm's cache when it has them, without asking
  // the registry whether they changed; these cases are about the tarball, not the registry.
  installed ??= execa('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: work, timeout: 150_000 }).then(
    (result) => ({ bin: join(prefix, 'bin', 'svc'), stderr: result.stderr }),
  );
  return installed;
}

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

  it('ships no tests, sources, source maps or development files, and not the emulator package (its code is in dist/)', () => {
    const unwanted = files.filter((path) => /^(test|src|bench|scripts|packages|\.ci)\//.test(path) || /\.(map|ts)$/.test(path) || /(tsconfig|vitest|eslint)/.test(path));
    expect(unwanted).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).not.toContain('@svc/emulator');
  });

  it('installs globally into a fresh prefix without a warning, and svc --version and --help work there', async () => {
    const { bin, stderr } = await install();
    // Quietly: no script of svc's own for npm to hold back (npm 11 warns about a `prepare`
    // script on a global install, so the build runs at `prepack` instead).
    expect(stderr).not.toMatch(/npm warn/i);
    const versionResult = await execa(bin, ['--version'], { cwd: work });
    expect(versionResult.stdout).toBe(version);
    const help = await execa(bin, ['--help'], { cwd: work });
    expect(help.stdout).toContain('Usage: svc');
    expect(help.stdout).toContain('Exit codes:');
    const completion = await execa(bin, ['completion', 'bash'], { cwd: work });
    expect(completion.stdout).toContain('complete -o default -F _svc svc');
  }, 180_000);

  it('svc emulator runs from the install: it answers a chat, and draws a JPEG with the WebAssembly codec it installed', async () => {
    const { bin } = await install();
    const key = 'pack-test-key-0123456789';
    const child = execa(bin, ['emulator', '--port', '0', '--api-key', key], { cwd: work, reject: false, timeout: 60_000 });
    try {
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr?.on('data', (data: Buffer) => {
          stderr += data.toString();
          if (stderr.includes('Press Ctrl-C')) resolve();
        });
        child.on('exit', () => reject(new Error(`the emulator exited: ${stderr}`)));
      });
      const baseUrl = /SVC_BASE_URL=(\S+)/.exec(stderr)![1]!;
      const post = (path: string, body: unknown) =>
        fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const chat = await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'hello from the tarball' }] });
      expect(chat.status).toBe(200);
      expect(((await chat.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toContain('tarball');
      const image = await post('/v1/images/generations', { prompt: 'a lighthouse', output_format: 'jpeg', seed: 1 });
      expect(image.status).toBe(200);
      const bytes = Buffer.from(((await image.json()) as { data: Array<{ b64_json: string }> }).data[0]!.b64_json, 'base64');
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('svc emulator stopped');
    } finally {
      child.kill('SIGKILL');
    }
  }, 180_000);
});
