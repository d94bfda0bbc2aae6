/**
 * The text after /image → words and flags (image-args.ts), and the last reply → a prompt
 * (reply-prompt.ts): quotes group, apostrophes stay letters, unknown flags are named.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { parseImageCommand, splitWords } from '../../src/commands/chat/interactive/image-args.js';
import { helpText } from '../../src/commands/chat/interactive/slash-commands.js';
import { cutAtSentence, plainText, promptFromReply } from '../../src/commands/chat/interactive/reply-prompt.js';

describe('splitWords', () => {
  it.each([
    ['a lighthouse  at dusk', ['a', 'lighthouse', 'at', 'dusk']],
    ['--negative "blurry text" a fox', ['--negative', 'blurry text', 'a', 'fox']],
    ["-o 'my pictures/' a boat", ['-o', 'my pictures/', 'a', 'boat']],
    ["a cat's hat", ['a', "cat's", 'hat']],
    ['"\'tis the season"', ["'tis the season"]],
    ['say "it\'s fine" now', ['say', "it's fine", 'now']],
    ['""', ['']],
    ['   ', []],
  ])('%j → %j', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('an unbalanced quote (issue 26, item 4)', () => {
  it.each([
    ['"unterminated prompt here', 'the " before "unterminated prompt here" is never closed'],
    ["a fox --negative 'blurry", `the ' before "blurry" is never closed`],
    ["'tis the season", `the ' before "tis the season" is never closed`],
  ])('%j is a usage error naming it: nothing is sent', (text, message) => {
    expect(() => splitWords(text)).toThrow(message);
    expect(() => parseImageCommand(text)).toThrow(UsageError);
  });
});

describe('parseImageCommand', () => {
  it('takes the flags svc image takes, in either spelling, anywhere in the line', () => {
    expect(parseImageCommand('a fox --aspect 16:9 --seed=7 in snow -o fox.webp --negative "no people" --format webp')).toEqual({
      words: ['a', 'fox', 'in', 'snow'],
      aspect: '16:9',
      seed: '7',
      output: 'fox.webp',
      negative: 'no people',
      format: 'webp',
    });
  });

  it('keeps words that only look like numbers or dashes, and everything after --', () => {
    expect(parseImageCommand('-5 degrees - cold -- --aspect is a word')).toEqual({ words: ['-5', 'degrees', '-', 'cold', '--aspect', 'is', 'a', 'word'] });
  });

  it('names a flag it does not take, and one with no value', () => {
    expect(() => parseImageCommand('a fox --json')).toThrow('/image does not take --json');
    expect(() => parseImageCommand('a fox --model x')).toThrow('/image does not take --model');
    expect(() => parseImageCommand('a fox --seed')).toThrow('/image --seed needs a value');
  });
});

describe('the last reply as a prompt', () => {
  it('drops code blocks and Markdown markers, keeping the words', () => {
    const reply = '# The scene\n\nA **red** lighthouse on a _rocky_ cape, see [the map](http://x.y/m).\n\n```python\nprint("no")\n```\n\n- gulls overhead\n> waves `crashing`';
    expect(plainText(reply)).toBe('The scene A red lighthouse on a rocky cape, see the map. gulls overhead waves crashing');
  });

  it('drops an unclosed code block to the end', () => {
    expect(plainText('A boat.\n```\ncode that never closes')).toBe('A boat.');
  });

  it('cuts a long reply at the last sentence end within the limit', () => {
    const text = `${'A calm sea. '.repeat(120)}`.trim();
    const cut = cutAtSentence(text, 1000);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut.endsWith('sea.')).toBe(true);
    expect(cut.length).toBeGreaterThan(980);
  });

  it('cuts at a word when no sentence ends in the second half', () => {
    expect(cutAtSentence('Short. then one long run of words without any stop at all', 30)).toBe('Short. then one long run of');
  });

  it('says when it cut', () => {
    expect(promptFromReply('One. Two three four.', 10)).toEqual({ prompt: 'One. Two', cut: true });
    expect(promptFromReply('**One.**', 10)).toEqual({ prompt: 'One.', cut: false });
  });

  it('is empty for a reply that is only code', () => {
    expect(promptFromReply('```js\nconsole.log(1)\n```')).toEqual({ prompt: '', cut: false });
  });
});

describe('/help', () => {
  it('lists /image with its options on the lines right under it', () => {
    const lines = helpText().split('\n');
    const row = lines.findIndex((line) => line.startsWith('  /image [prompt]'));
    expect(lines[row]).toContain('no prompt: draw the last reply');
    expect(lines[row + 1]!.trim()).toBe('options: --aspect R  --format F  --seed N  -n N  --negative T  -o PATH');
    expect(lines[row + 2]!.trim()).toBe('R: 1:1 16:9 9:16 4:3 3:4 21:9   F: png jpeg webp');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
  });
});
