/**
 * Conversations exported with their images (issue 25, item 4), read as a person would: the HTML
 * export loaded in a real headless browser (Debian's chromium, driven by playwright-core) and
 * checked for what it shows: the headings, a highlighted code block, each image decoded at its
 * size (those made with /image and those sent with a message), the revised prompt, no console error, and no script run or markup made from the
 * conversation's text. Also the Markdown export with --with-images. Skipped, saying why, where
 * chromium is not installed (CI installs it: .ci/run).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile, subFilteredRows } from '../../src/images/png-write.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
if (!CHROMIUM) console.warn('html-export.browser.test: skipped the browser checks: no chromium (apt-get install chromium)');

let sandbox: Sandbox;
const HOSTILE = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '[click me](javascript:window.__pwned=3)',
  '![tracker](http://127.0.0.1:9/pixel.png)',
  '<style>body { display: none }</style>',
].join('\n\n');

function picture(width: number, height: number): Buffer {
  const rgba = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * 13) % 256));
  return pngFile(width, height, false, deflateSync(subFilteredRows(rgba, width, height, false)));
}

beforeAll(() => {
  sandbox = makeSandbox({ SVC_API_KEY: 'export-key-0123456789' });
  const images = join(sandbox.home, 'made');
  mkdirSync(images, { recursive: true });
  writeFileSync(join(images, 'fox.png'), picture(40, 30));
  writeFileSync(join(images, 'owl.png'), picture(24, 36));
  const dir = join(sandbox.home, 'data', 'svc', 'conversations');
  mkdirSync(dir, { recursive: true });
  const at = '2026-11-20T10:00:00.000Z';
  const records = [
    { type: 'start', v: 1, name: 'trip', created: at },
    { type: 'system', content: 'You are a **travel** guide.', at },
    { type: 'turn', user: 'Plan a day in Lisbon', assistant: '# A day in Lisbon\n\n## Morning\n\nTram 28, then:\n\n```python\ndef coffee(city):\n    return "bica"\n```\n', model: 'svc-pro', at },
    { type: 'image', prompt: 'a red fox', revisedPrompt: 'A red fox at dawn <b>bold?</b>', options: { seed: '3' }, path: join(images, 'fox.png'), at },
    { type: 'turn', user: HOSTILE, assistant: `You wrote:\n\n${HOSTILE}`, model: 'svc-pro', at },
    { type: 'image', prompt: 'an owl', options: {}, path: join(images, 'owl.png'), at },
    { type: 'image', prompt: 'a gone picture', options: {}, path: join(images, 'gone.png'), at },
  ];
  writeFileSync(join(dir, 'trip.jsonl'), `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  // "seen": images sent with a message, kept by hash in the data folder, one under a hostile name,
  // an address image, and one whose kept file is gone.
  const kept = picture(20, 12);
  const sha256 = createHash('sha256').update(kept).digest('hex');
  mkdirSync(join(sandbox.home, 'data', 'svc', 'images'), { recursive: true });
  writeFileSync(join(sandbox.home, 'data', 'svc', 'images', `${sha256}.png`), kept);
  const sent = { sha256, ext: 'png', bytes: kept.length, width: 20, height: 12 };
  const seen = [
    { type: 'start', v: 1, name: 'seen', created: at },
    { type: 'turn', user: 'what are these?', images: [{ name: 'shot.png', ...sent }, { name: '<img src=x onerror="window.__pwned = 4">.png', ...sent }, { name: 'http://127.0.0.1:9/cat.png', url: 'http://127.0.0.1:9/cat.png' }, { name: 'gone.png', ...sent, sha256: 'f'.repeat(64) }], assistant: 'Pictures.', model: 'svc-pro', at },
  ];
  writeFileSync(join(dir, 'seen.jsonl'), `${seen.map((record) => JSON.stringify(record)).join('\n')}\n`);
});
afterAll(() => sandbox?.cleanup());

describe('svc sessions export --format md', () => {
  it('keeps every turn, the system message and each image in order, linked relative to the export', async () => {
    mkdirSync(join(sandbox.home, 'out'), { recursive: true });
    const result = await runSvc(['sessions', 'export', 'trip', '-o', 'out/trip.md'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const text = readFileSync(join(sandbox.home, 'out', 'trip.md'), 'utf8');
    const order = ['## System', '## User (turn 1)', '## Assistant', '## Image', '## User (turn 2)', 'an owl', 'a gone picture'].map((marker) => text.indexOf(marker));
    expect(order.every((index, i) => index !== -1 && (i === 0 || index > order[i - 1]!))).toBe(true);
    expect(text).toContain('![a red fox](../made/fox.png)');
    expect(text).toContain('Revised prompt: A red fox at dawn');
    expect(text).toContain(`*(the image file is gone: ${join(sandbox.home, 'made', 'gone.png')})*`);
  });

  it('--with-images DIR copies the images beside the export and links them there', async () => {
    const result = await runSvc(['sessions', 'export', 'trip', '-o', 'share/trip.md', '--with-images', 'share/images'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('svc: copied 2 images to share/images');
    expect(readFileSync(join(sandbox.home, 'share', 'images', 'fox.png')).equals(readFileSync(join(sandbox.home, 'made', 'fox.png')))).toBe(true);
    expect(readFileSync(join(sandbox.home, 'share', 'trip.md'), 'utf8')).toContain('![a red fox](images/fox.png)');
    const html = await runSvc(['sessions', 'export', 'trip', '--format', 'html', '--with-images', 'x'], sandbox);
    expect(html.exitCode).toBe(2);
    expect(html.stderr).toContain('an HTML export embeds its images');
  });
});

describe.skipIf(!CHROMIUM)('svc sessions export --format html, in a real browser', () => {
  it('shows the conversation rendered, the images decoded at their size, and runs nothing from its text', async () => {
    const result = await runSvc(['sessions', 'export', 'trip', '-o', 'trip.html'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const file = join(sandbox.home, 'trip.html');
    expect(readFileSync(file, 'utf8')).not.toMatch(/<script/i);

    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      const requests: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) requests.push(request.url());
      });
      await page.goto(pathToFileURL(file).href);
      await page.waitForLoadState('load');

      expect(await page.locator('h1').first().innerText()).toBe('trip');
      const headings = await page.locator('h2').allInnerTexts();
      expect(headings).toEqual(expect.arrayContaining(['SYSTEM', 'USER (TURN 1)', 'Morning', 'USER (TURN 2)']));
      expect(await page.locator('h1', { hasText: 'A day in Lisbon' }).count()).toBe(1);
      // The code block, highlighted by highlight.js's spans (no script involved).
      expect(await page.locator('pre[data-lang="python"] code .hljs-keyword').first().innerText()).toBe('def');

      const sizes = await page.locator('figure img').evaluateAll((images) => images.map((image) => { const img = image as unknown as { complete: boolean; naturalWidth: number; naturalHeight: number }; return [img.complete, img.naturalWidth, img.naturalHeight]; }));
      expect(sizes).toEqual([[true, 40, 30], [true, 24, 36]]);
      const captions = await page.locator('figcaption').allInnerTexts();
      expect(captions[0]).toContain('Revised prompt: A red fox at dawn <b>bold?</b>');
      // When and how each was made, as in the Markdown export.
      expect(captions[0]).toMatch(/^Image \(\d{4}-\d\d-\d\d \d\d:\d\d UTC, --seed 3\): a red fox/);
      expect(await page.locator('figure.missing').innerText()).toContain('the image file is gone');

      // The hostile text is shown as text: nothing ran, no element was made from it, nothing loaded.
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('section img').count()).toBe(0);
      expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
      const body = await page.locator('body').innerText();
      expect(body).toContain('<script>window.__pwned = 1</script>');
      expect(body).toContain('<img src=x onerror="window.__pwned = 2">');
      expect(await page.locator('main').isVisible()).toBe(true);
      expect(requests).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('shows the images sent with a message inline, read from where they are kept; an address image is never loaded', async () => {
    const result = await runSvc(['sessions', 'export', 'seen', '-o', 'seen.html'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const file = join(sandbox.home, 'seen.html');
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) requests.push(request.url());
      });
      await page.goto(pathToFileURL(file).href);
      await page.waitForLoadState('load');
      const shown = await page.locator('section.user img').evaluateAll((images) => images.map((image) => { const img = image as unknown as { complete: boolean; naturalWidth: number; naturalHeight: number; alt: string }; return [img.complete, img.naturalWidth, img.naturalHeight, img.alt]; }));
      expect(shown).toEqual([
        [true, 20, 12, 'shot.png'],
        [true, 20, 12, '<img src=x onerror="window.__pwned = 4">.png'],
      ]);
      expect(await page.locator('section.user a[href="http://127.0.0.1:9/cat.png"]').innerText()).toBe('[image: http://127.0.0.1:9/cat.png]');
      expect(await page.locator('figure.missing').innerText()).toContain('(the image gone.png: its kept file is gone)');
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(requests).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
