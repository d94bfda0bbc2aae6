/**
 * Picks the key words of a message so a reply can talk about what was asked.
 */

/** Common English words and request phrasing that say nothing about the topic. */
const STOPWORDS = new Set(`
a about above after again against all also am an and any are as at be because been before being
below between both but by can cannot could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself just
let me more most my myself no nor not now of off on once only or other our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these they
this those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves hello hi hey please thanks thank tell explain
describe know want like need help give show make get got going think really maybe okay ok yes sure
something anything everything thing things way ways use uses using used much many lot lots one two new
good well still even ever able must might shall may say said ask asked question answer
compare recommend write create build find work works try start understand difference differences
best better great nice bit kind sort type summarise summarize summary translate rewrite rephrase list line lines
short brief word words sentence sentences paragraph
`.split(/\s+/).filter(Boolean));

/**
 * A word as the reply should write it: acronyms (`API`) and names capitalised mid-sentence
 * (`Roman`) keep their case; everything else is lower-cased, including a sentence's first word.
 */
function display(word: string, sentenceStart: boolean): string {
  const acronym = word.length >= 2 && word === word.toUpperCase() && word !== word.toLowerCase();
  const name = !sentenceStart && /^\p{Lu}\p{Ll}/u.test(word);
  return acronym || name ? word : word.toLowerCase();
}

/**
 * Up to `limit` key words of `text`, most telling first: words of 3 to 24 letters, with at most
 * two hyphens or apostrophes, that are not stopwords; ranked by how often they occur, then names
 * and acronyms before other words (they are usually the subject), then by length, then by first
 * appearance.
 */
export function keywords(text: string, limit = 4): string[] {
  const stats = new Map<string, { word: string; count: number; first: number; name: boolean }>();
  const matches = [...text.matchAll(/\p{L}[\p{L}\p{M}'-]*/gu)];
  matches.forEach((match, index) => {
    const word = match[0].replace(/['-]+$/u, '').replace(/'s$/u, '');
    // Look back a short window only: slicing from the start would make long messages quadratic.
    const before = text.slice(Math.max(0, match.index - 32), match.index).trimEnd();
    const sentenceStart = before === '' || /[.!?]$/u.test(before);
    const key = word.toLowerCase();
    // More than two joins (`a-b-c-d`) is a code or a list, not a word, and would count as many tokens.
    const joins = word.match(/['-]/gu)?.length ?? 0;
    if (word.length < 3 || word.length > 24 || joins > 2 || STOPWORDS.has(key)) return;
    const entry = stats.get(key);
    if (entry) entry.count += 1;
    else {
      const shown = display(word, sentenceStart);
      stats.set(key, { word: shown, count: 1, first: index, name: shown !== key });
    }
  });
  return [...stats.values()]
    .sort((a, b) => b.count - a.count || Number(b.name) - Number(a.name) || b.word.length - a.word.length || a.first - b.first)
    .slice(0, limit)
    .map((entry) => entry.word);
}
