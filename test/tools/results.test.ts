/** A tool's result as the model gets it (src/tools/results.ts): parts in words, bounded, summarised. */
import { describe, expect, it } from 'vitest';
import { MODEL_TEXT_LIMIT, errorResult, modelResult } from '../../src/tools/results.js';

const png = Buffer.alloc(12 * 1024, 7).toString('base64');

describe('a result for the model', () => {
  it('joins text parts and describes the others in words', () => {
    const result = modelResult({
      content: [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///notes/a.txt', mimeType: 'text/plain', text: 'the notes' } },
        { type: 'resource', resource: { uri: 'file:///a.zip', mimeType: 'application/zip', blob: 'AAAA' } },
        { type: 'resource_link', name: 'readme', uri: 'file:///README.md', mimeType: 'text/markdown' },
        { type: 'hologram' },
      ],
    });
    expect(result.content).toBe(
      [
        'Here it is:',
        '[image image/png, 12.0 KiB]',
        '[audio audio/wav, 3 B]',
        '[resource file:///notes/a.txt, text/plain]\nthe notes',
        '[resource file:///a.zip, application/zip, 3 B]',
        '[resource link readme, file:///README.md, text/markdown]',
        '[hologram part]',
      ].join('\n'),
    );
    expect(result.isError).toBe(false);
    expect(result.summary).toBe(`${result.bytes} B, 8 lines: Here it is:`);
  });

  it('keeps isError, uses structured content when there are no parts, and says when there is nothing', () => {
    expect(modelResult({ content: [{ type: 'text', text: 'no such file' }], isError: true })).toMatchObject({ content: 'no such file', isError: true, summary: '12 B: no such file' });
    expect(modelResult({ content: [], structuredContent: { temperature: 21 } }).content).toBe('{"temperature":21}');
    expect(modelResult({ content: [] })).toMatchObject({ content: '(no output)', summary: 'empty' });
  });

  it('gives the model at most 64 KiB, cut at a character, with a note that says so', () => {
    const text = `first line\n${'é'.repeat(100_000)}`;
    const result = modelResult({ content: [{ type: 'text', text }] });
    expect(result.truncated).toBe(true);
    expect(result.bytes).toBe(Buffer.byteLength(text));
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(MODEL_TEXT_LIMIT);
    expect(Buffer.byteLength(result.content)).toBeGreaterThan(MODEL_TEXT_LIMIT - 200);
    expect(result.content).toMatch(/é\n\[output cut: the tool returned 195\.3 KiB; only the first 64\.0 KiB are shown\]$/);
    expect(result.content).not.toContain('\uFFFD');
    expect(result.summary).toBe('195.3 KiB, 2 lines: first line (cut for the model)');
  });

  it('a text of exactly the limit is not cut', () => {
    const result = modelResult({ content: [{ type: 'text', text: 'a'.repeat(MODEL_TEXT_LIMIT) }] });
    expect(result.truncated).toBe(false);
    expect(result.content.length).toBe(MODEL_TEXT_LIMIT);
  });

  it('a long first line is cut in the summary; an error of svc\'s own is an error result', () => {
    expect(modelResult({ content: [{ type: 'text', text: 'w'.repeat(200) }] }).summary).toBe(`200 B: ${'w'.repeat(79)}…`);
    expect(errorResult('there is no tool named "x"')).toMatchObject({ isError: true, content: 'there is no tool named "x"' });
  });
});
