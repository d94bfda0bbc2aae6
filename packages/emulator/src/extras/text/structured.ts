/**
 * Markdown replies for the asks {@link intentOf} recognises: a fenced code block in the language
 * named, numbered steps, a bullet list, a GFM table. Headings, **bold** and `inline code` appear
 * where a real model would put them.
 *
 * Each builder makes the smallest reply of its shape first and gives up (the caller then answers
 * in prose) if even that breaks the model's ceiling; otherwise it adds optional pieces while the
 * reply stays under the ceiling and is shorter than its target length. Invariants kept with the
 * prose replies: every reply contains ` the` and a full stop, so stop strings a test relies on
 * still occur.
 */
import type { Rng } from '../random.js';
import { countTokens } from '../../core/tokenizer.js';
import type { CodeLanguage, Intent } from './intent.js';
import { snippetNames, SNIPPETS } from './snippets.js';

/** What a builder writes about and how long it may be. */
export interface ShapeContext {
  rng: Rng;
  /** The message being answered. */
  ask: string;
  /** The key words of the ask, the topic first; may be empty. */
  words: readonly string[];
  /** Stand-ins (`the details`, `this topic`) for a topic when the ask has no key words. */
  fallback: readonly string[];
  target: number;
  max: number;
}

const LANGUAGE_NAMES: Record<CodeLanguage, string> = {
  python: 'Python', javascript: 'JavaScript', typescript: 'TypeScript', bash: 'Bash', go: 'Go', rust: 'Rust', sql: 'SQL', json: 'JSON',
};

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const blocks = (parts: readonly string[]): string => parts.filter((part) => part !== '').join('\n\n');

/** The first of `candidates` (in order) that keeps the reply within `max` tokens, or undefined. */
function firstFitting(candidates: readonly string[], max: number): string | undefined {
  return candidates.find((text) => countTokens(text) <= max);
}

function codeReply(language: CodeLanguage, { rng, ask, words, target, max }: ShapeContext): string | undefined {
  const name = LANGUAGE_NAMES[language];
  const intro = rng.pick([`Here is a small ${name} example:`, `Sure, here is a minimal ${name} version:`, `This ${name} snippet shows the idea:`]);
  const [short, long] = SNIPPETS[language];
  // Names read in the order the ask wrote the words (`top customers`, not `customers top`).
  const lower = ask.toLowerCase();
  const position = (word: string): number => (lower.includes(word.toLowerCase()) ? lower.indexOf(word.toLowerCase()) : Infinity);
  const names = snippetNames([...words.slice(0, 2)].sort((a, b) => position(a) - position(b)));
  const preferLong = rng.next() < 0.6;
  const fence = (code: string): string => `\`\`\`${language}\n${code}\n\`\`\``;
  const explanation = rng.pick([
    'The key part is `{entry}`: adapt it to the shape of your data.',
    'Run it once, check the output, then adapt `{entry}` to your case.',
    'Start from `{entry}` and grow the example one step at a time.',
  ]);
  const explain = (entry: string): string => explanation.replace('{entry}', entry);
  const extra = rng.pick(['For real use, add error handling and a test or two.', 'Keep the first version simple and tidy it up once it works.']);
  const longCode = long(names);
  const shortCode = short(names);
  const longExplain = explain(longCode.entry);
  const shortExplain = explain(shortCode.entry);
  const withLong = blocks([intro, fence(longCode.code), longExplain]);
  const withShort = blocks([intro, fence(shortCode.code), shortExplain]);
  const base = firstFitting(preferLong ? [withLong, withShort] : [withShort, withLong], max);
  if (base === undefined) return undefined;
  const longer = `${base} ${extra}`;
  return countTokens(base) < target && countTokens(longer) <= max ? longer : base;
}

const STEPS = [
  '**Set a clear goal** for {topic}.',
  '**Gather what you need**: tools, materials and time.',
  '**Learn the basics** before the details.',
  '**Start small** and check each result.',
  '**Change one thing at a time**.',
  '**Review the outcome** and note what worked.',
];

/** The topic to write about: the ask's main key word, else a stand-in. */
function topicOf({ words, fallback }: ShapeContext): string {
  return words[0] ?? fallback[0] ?? 'this topic';
}

function stepsReply(context: ShapeContext): string | undefined {
  const { rng, target, max } = context;
  const topic = topicOf(context);
  const intro = rng.pick([`Here is a simple way to approach ${topic}:`, `These steps will get you started with ${topic}:`, `You can tackle ${topic} in a few steps:`]);
  const heading = `### ${capitalise(topic)}: step by step`;
  const tip = rng.pick(['**Tip:** take notes, so the next try is easier.', '**Tip:** do not skip the checks; most problems show early.']);
  const fill = (step: string): string => step.replace('{topic}', topic);
  // The first and the last step always; the middle ones while there is room, in their order.
  const [first, ...rest] = STEPS.map(fill);
  const last = rest.pop()!;
  const middle = rest;
  const useHeading = rng.next() < 0.5;
  const build = (steps: readonly string[], withHeading: boolean): string => blocks([
    withHeading ? heading : '', intro, steps.map((step, index) => `${index + 1}. ${step}`).join('\n'), tip,
  ]);
  let chosen = [first!, last];
  if (countTokens(build(chosen, false)) > max) return undefined;
  for (const step of middle) {
    const next = [...chosen.slice(0, -1), step, last];
    // A long step that does not fit leaves room for a shorter one after it.
    if (countTokens(build(next, false)) > max) continue;
    chosen = next;
    if (chosen.length >= 3 && countTokens(build(chosen, false)) >= target) break;
  }
  return useHeading && countTokens(build(chosen, true)) <= max ? build(chosen, true) : build(chosen, false);
}

const POINT_LABELS = ['The basics', 'Common pitfalls', 'Good habits', 'Where to learn more', 'Next steps', 'Timing', 'Tools'];
const POINT_TEXTS = [
  'get it right first; the rest builds on it.',
  'the part most people underestimate.',
  'easy to overlook, yet it often matters most.',
  'look here when the results surprise you.',
  'simple on paper, subtle in practice.',
];
const COUNT_NAMES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'];

function listReply(count: number | undefined, context: ShapeContext): string | undefined {
  const { rng, words, target, max } = context;
  const topic = topicOf(context);
  const labels = [...words.slice(1).map(capitalise), ...rng.shuffle(POINT_LABELS)];
  const texts = rng.shuffle(POINT_TEXTS);
  const intro = count === undefined
    ? rng.pick([`Here are a few points about ${topic}:`, `A few things worth knowing about ${topic}:`])
    : `Here are ${COUNT_NAMES[count]} points about ${topic}:`;
  const closer = rng.pick(['Tell me which of these to explore in the most detail.', `Each deserves a closer look once the basics are clear.`]);
  const item = (index: number): string => `- **${labels[index]}**: ${texts[index % texts.length]}`;
  const build = (n: number): string => blocks([intro, Array.from({ length: n }, (_, i) => item(i)).join('\n'), closer]);
  const wanted = count ?? 5;
  let n = Math.min(wanted, 2);
  if (countTokens(build(n)) > max) return undefined;
  while (n < wanted && countTokens(build(n + 1)) <= max && (count !== undefined || n < 3 || countTokens(build(n)) < target)) n += 1;
  return build(n);
}

/** Comparison rows: an aspect and two contrasting values, shown in either order. */
const ASPECTS: readonly (readonly [string, string, string])[] = [
  ['Learning curve', 'Gentle', 'Steeper'],
  ['Flexibility', 'High', 'Moderate'],
  ['Best for', 'Getting started quickly', 'Larger, long-term work'],
  ['Community', 'Large', 'Smaller but active'],
  ['Cost', 'Low', 'Varies'],
  ['Speed', 'Good', 'Excellent'],
];

/**
 * A table cell from a compared phrase: its head words only (`a tuple in Python` gives `tuple`),
 * letters and digits only (no `|`, no newline can reach the table), at most three words.
 */
function cell(phrase: string): string {
  const head = phrase.replace(/^(?:a|an|the)\s+/iu, '').split(/\s+(?:in|for|with|on|at|when|of|to|from)\s+/iu)[0] ?? '';
  const words = head.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  return words.slice(0, 3).map((word) => word.slice(0, 24)).join(' ');
}

function tableReply(subjects: readonly string[], context: ShapeContext): string | undefined {
  const { rng, target, max } = context;
  const [x, y] = subjects.map(cell).filter((s) => s !== '');
  const rows = rng.shuffle(ASPECTS).map(([aspect, one, two]) => [aspect, ...(rng.next() < 0.5 ? [one, two] : [two, one])]);
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  let head: string[];
  let body: string[][];
  let heading: string;
  let closer: string;
  if (x !== undefined && y !== undefined) {
    head = ['Aspect', capitalise(x), capitalise(y)];
    body = rows;
    heading = `### ${capitalise(x)} vs ${y}`;
    closer = `Pick **${x}** if the strengths above matter most, else **${y}**.`;
  } else {
    const topic = topicOf(context);
    head = ['Aspect', capitalise(topic)];
    body = [
      ['What it is', `The core idea of ${topic}`],
      ['Why it matters', 'It shapes the rest'],
      ['Common mistake', 'Rushing the start'],
      ['First step', 'Start small and measure'],
      ['Further reading', 'An introductory guide'],
    ];
    heading = `### ${capitalise(topic)} at a glance`;
    closer = 'Adjust the rows to **your** case.';
  }
  const separator = `|${head.map(() => '---').join('|')}|`;
  const build = (n: number, withHeading: boolean): string => blocks([
    withHeading ? heading : '',
    [row(head), separator, ...body.slice(0, n).map(row)].join('\n'),
    closer,
  ]);
  let n = 2;
  if (countTokens(build(n, false)) > max) return undefined;
  while (n < body.length && n < 5 && countTokens(build(n + 1, false)) <= max && (n < 3 || countTokens(build(n, false)) < target)) n += 1;
  return rng.next() < 0.6 && countTokens(build(n, true)) <= max ? build(n, true) : build(n, false);
}

/**
 * The Markdown reply for `intent`, or undefined for prose (or when no reply of that shape fits
 * the ceiling, as can happen with very long key words).
 */
export function structuredReply(intent: Intent, context: ShapeContext): string | undefined {
  switch (intent.kind) {
    case 'prose':
      return undefined;
    case 'code':
      return codeReply(intent.language, context);
    case 'steps':
      return stepsReply(context);
    case 'list':
      return listReply(intent.count, context);
    case 'table':
      return tableReply(intent.subjects, context);
  }
}
