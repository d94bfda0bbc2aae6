/** The fenced code blocks of an answer (--extract, /copy code, batch extract), by CommonMark's fence rules. */
import { describe, expect, it } from 'vitest';
import { codeBlocks, extractedCode } from '../../src/chat/code-blocks.js';

describe('codeBlocks', () => {
  it('takes each fenced block without its fences, backticks or tildes, info string or not', () => {
    const answer = 'Here:\n\n```python\nprint("hi")\n```\n\nand\n\n~~~\nls -la\n~~~\nDone.';
    expect(codeBlocks(answer)).toEqual(['print("hi")', 'ls -la']);
  });

  it('closes only on the same character, at least as long; shorter or other fences are content', () => {
    const answer = '````md\n```js\nx()\n```\n~~~\n````\n';
    expect(codeBlocks(answer)).toEqual(['```js\nx()\n```\n~~~']);
  });

  it('removes the fence indentation from the content, keeps the rest of it', () => {
    expect(codeBlocks('  ```\n  if x:\n      y()\n ```')).toEqual(['if x:\n    y()']);
  });

  it('finds blocks inside list items and quotes', () => {
    expect(codeBlocks('1. Run:\n   ```sh\n   make\n   ```\n- ```\n  a\n  ```')).toEqual(['make', 'a']);
    expect(codeBlocks('> ```\n> quoted code\n> ```')).toEqual(['quoted code']);
  });

  it('an unclosed fence runs to the end, less the trailing blank lines', () => {
    expect(codeBlocks('text\n```\nline one\nline two\n\n')).toEqual(['line one\nline two']);
  });

  it('keeps empty blocks and blank lines inside blocks; ignores inline code and a backtick info string', () => {
    expect(codeBlocks('```\n```\n```\na\n\nb\n```')).toEqual(['', 'a\n\nb']);
    expect(codeBlocks('use `ls` and ``` `x` ``` inline')).toEqual([]);
  });

  it('takes CRLF answers', () => {
    expect(codeBlocks('```\r\nx\r\n```\r\n')).toEqual(['x']);
  });
});

describe('extractedCode', () => {
  const answer = '```\none\n```\ntext\n```\ntwo\n```';
  it('joins every block by a blank line, or gives the last; undefined when there is none', () => {
    expect(extractedCode(answer, 'all')).toBe('one\n\ntwo');
    expect(extractedCode(answer, 'last')).toBe('two');
    expect(extractedCode('no code here', 'all')).toBeUndefined();
  });
});
