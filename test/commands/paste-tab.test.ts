/**
 * A pasted Tab is text, never a request for completion: the key feed turns it into
 * PASTED_TAB, as it does newlines into PASTED_NEWLINE, and the composer turns both back.
 * Every pasted byte survives the round trip.
 */
import { describe, expect, it } from 'vitest';
import { MessageComposer } from '../../src/commands/chat/interactive/composer.js';
import { filterPaste, PASTE_END, PASTE_START, PASTED_NEWLINE, PASTED_TAB } from '../../src/commands/chat/interactive/key-feed.js';

const N = PASTED_NEWLINE;
const T = PASTED_TAB;

describe('pasted tabs', () => {
  it.each([
    ['a typed Tab reaches readline (completion)', 'ab\t', false, 'ab\t'],
    ['a pasted Tab becomes the stand-in', `${PASTE_START}a\tb${PASTE_END}`, false, `a${T}b`],
    ['tabs and newlines together', `${PASTE_START}\tx\n\t\ty\r\n${PASTE_END}`, false, `${T}x${N}${T}${T}y${N}`],
    ['a paste still open at the end of a read', '\tz', true, `${T}z`],
    ['a Tab typed after a paste is a key again', `${PASTE_START}a\t${PASTE_END}\t`, false, `a${T}\t`],
  ])('%s', (_name, input, pasting, out) => {
    expect(filterPaste(input, pasting).out).toBe(out);
  });

  it.each([
    ['tabs and newlines', 'def f():\n\treturn 1\n'],
    ['only tabs', '\t\t'],
    ['a table', 'a\tb\tc\r\n1\t2\t3'],
    ['every control byte but ESC and the line ends', Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter((c) => !'\u001b\r\n'.includes(c)).join('')],
  ])('%s: pasted, filtered and composed, it comes back as pasted (line ends as \\n)', (_name, pasted) => {
    const { out } = filterPaste(`${PASTE_START}${pasted}${PASTE_END}`, false);
    const composed = new MessageComposer().feed(out);
    expect(composed).toEqual({ done: true, text: pasted.replace(/\r\n|\r/g, '\n') });
  });
});
