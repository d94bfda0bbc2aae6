/**
 * Every relative link of the README and the guides leads somewhere: to a file of the repository,
 * and to a heading of it when it names one (`docs/chat.md#where-conversations-are-kept`).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorOf, brokenLinks, linkTargets } from '../helpers/markdown-links.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('links in the documentation', () => {
  it.each(files)('%s: every relative link leads to a file and heading that exist', (file) => {
    expect(brokenLinks(root, file)).toEqual([]);
  });

  it('the README links to a guide for each topic', () => {
    const targets = linkTargets(readFileSync(join(root, 'README.md'), 'utf8'));
    for (const guide of ['chat', 'images', 'batch', 'settings', 'scripting', 'emulator', 'real-servers', 'troubleshooting', 'architecture', 'development', 'service-api', 'changes']) {
      expect(targets, guide).toContain(`docs/${guide}.md`);
    }
  });
});

describe('the link checker', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('One-shot: `svc chat "question"`')).toBe('one-shot-svc-chat-question');
    expect(anchorOf('Files, roles and dry runs')).toBe('files-roles-and-dry-runs');
    expect(anchorOf('`svc models`: what the service offers')).toBe('svc-models-what-the-service-offers');
  });

  it('finds a missing file, a missing heading and a link out of the folder, and skips code and web addresses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-links-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'a.md'), '# A\n\n## Two words\n');
      writeFileSync(join(dir, 'README.md'), [
        '[ok](docs/a.md) [ok](docs/a.md#two-words) [ok](#top) [web](https://example.com/x.md)',
        '[gone](docs/b.md) [no heading](docs/a.md#three) [out](../elsewhere.md)',
        '`[in code](nowhere.md)`',
        '```sh',
        'echo "[in a block](nowhere.md)"',
        '```',
        '# Top',
      ].join('\n'));
      expect(brokenLinks(dir, 'README.md')).toEqual([
        'README.md: docs/b.md: no such file docs/b.md',
        'README.md: docs/a.md#three: docs/a.md has no heading #three',
        'README.md: ../elsewhere.md leads out of the folder',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
