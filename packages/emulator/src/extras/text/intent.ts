/**
 * What shape of reply a message asks for: code in a language, steps, a list, a table or a
 * comparison, or plain prose. A real model answers "write a Python function..." with a fenced code
 * block and "how do I..." with numbered steps; the emulator does the same so that a terminal
 * renderer (and a user trying svc offline) sees Markdown at work.
 *
 * Detection is deliberately conservative: only explicit asks count, so ordinary questions keep
 * their prose replies (and the tests that rely on prose keep holding).
 */

/** A language the emulator writes code in; the value is the fence's info string. */
export type CodeLanguage = 'python' | 'javascript' | 'typescript' | 'bash' | 'go' | 'rust' | 'sql' | 'json';

/** The reply's shape. */
export type Intent =
  | { kind: 'prose' }
  | { kind: 'code'; language: CodeLanguage }
  | { kind: 'steps' }
  | { kind: 'list'; count: number | undefined }
  | { kind: 'table'; subjects: string[] };

/** Words naming a language. `go` alone is too common an English word: see {@link languageOf}. */
const LANGUAGE_WORDS: Record<string, CodeLanguage> = {
  python: 'python', py: 'python', django: 'python', pandas: 'python',
  javascript: 'javascript', js: 'javascript', nodejs: 'javascript', react: 'javascript',
  typescript: 'typescript', ts: 'typescript',
  bash: 'bash', shell: 'bash', sh: 'bash', zsh: 'bash', terminal: 'bash', command: 'bash', commands: 'bash',
  golang: 'go',
  rust: 'rust', cargo: 'rust',
  sql: 'sql', query: 'sql', queries: 'sql', postgres: 'sql', postgresql: 'sql', mysql: 'sql', sqlite: 'sql',
  json: 'json',
};

/** Words that ask for code on their own. */
const CODE_WORDS = new Set(['code', 'snippet', 'snippets', 'regex']);

/**
 * Words that ask for code only beside an ask word: `the function of the liver` and `a script for a
 * play` are prose, `write a function` is code.
 */
const CODE_ITEMS = new Set(['function', 'functions', 'script', 'program', 'algorithm', 'implementation', 'class', 'query']);

/**
 * Words that, beside a language name or a code item, make a request for code (`write ... in Rust`).
 * `how` is not one: `how do I learn Python?` wants steps; `how do I read a file in Python?` is
 * code because of the `in`.
 */
const ASK_WORDS = new Set(['write', 'show', 'give', 'example', 'create', 'make', 'generate', 'convert', 'parse', 'implement']);

/** Words before a language name that ask for something done in it (`in Go`, `using SQL`). */
const IN_WORDS = new Set(['in', 'using', 'with']);

const LIST_WORDS = new Set(['list', 'bullet', 'bullets', 'ideas', 'tips', 'options', 'reasons', 'examples', 'pros', 'cons']);

/** `name three rivers`, `give me 5 tips`: the number asked for, up to 7. */
const COUNT_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7 };

/**
 * Words that say what shape to answer in rather than what about (`python`, `table`, `steps`):
 * the reply's topic is taken from the other words.
 */
const SHAPE_WORDS: ReadonlySet<string> = new Set([
  ...CODE_WORDS, ...CODE_ITEMS, ...LIST_WORDS,
  ...Object.keys(COUNT_WORDS),
  'go', 'table', 'comparison', 'steps', 'step', 'instructions', 'guide', 'versus', 'vs', 'example', 'points', 'language', 'name',
  'suggest', 'some',
]);

/**
 * True when `word` only says what shape to answer in: a shape word, or the name of the language
 * the code is asked in (`Python` in a Python ask; in a table about Python it is the topic).
 */
export function isShapeWord(word: string, intent: Intent): boolean {
  const key = word.toLowerCase();
  return SHAPE_WORDS.has(key) || (intent.kind === 'code' && (LANGUAGE_WORDS[key] === intent.language || (key === 'go' && intent.language === 'go')));
}

/** The lower-cased words of a message, keeping `node.js`-style dots out of the way. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The language the message names, if any, and whether it asks for something done in it
 * (`in Python`). `go` counts only as `in go` or `go code|function|...`.
 */
export function languageOf(text: string): { language: CodeLanguage; within: boolean } | undefined {
  const words = wordsOf(text);
  for (const [index, word] of words.entries()) {
    const within = IN_WORDS.has(words[index - 1] ?? '');
    const language = LANGUAGE_WORDS[word];
    if (language !== undefined) return { language, within };
    const next = words[index + 1] ?? '';
    if (word === 'go' && (within || CODE_WORDS.has(next) || CODE_ITEMS.has(next))) return { language: 'go', within };
  }
  return undefined;
}

/**
 * The two things a comparison is between: `compare X and Y`, `X vs Y`, `X versus Y`,
 * `difference(s) between X and Y`. Each side is the phrase as written, trimmed; the caller
 * reduces it to key words before showing it.
 */
export function comparedSubjects(text: string): string[] {
  const end = String.raw`(?=[?.!,;:]|$)`;
  const patterns = [
    new RegExp(String.raw`\bcompare\s+(.+?)\s+(?:and|with|to|vs\.?|versus)\s+(.+?)${end}`, 'iu'),
    new RegExp(String.raw`\bdifferences?\s+between\s+(.+?)\s+and\s+(.+?)${end}`, 'iu'),
    new RegExp(String.raw`(?:^|[,:;]\s*|\b(?:is|are|choose|pick|use|about)\s+)(.+?)\s+(?:vs\.?|versus)\s+(.+?)${end}`, 'iu'),
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text.trim());
    if (match?.[1] && match[2]) return [match[1].trim(), match[2].trim()];
  }
  return [];
}

/** The shape of reply `text` (the last user message) asks for. */
export function intentOf(text: string): Intent {
  const words = wordsOf(text);
  const has = (set: ReadonlySet<string>): boolean => words.some((word) => set.has(word));
  const lower = ` ${words.join(' ')} `;

  const named = languageOf(text);
  const subjects = comparedSubjects(text);
  // A comparison of two things in a language (`a list and a tuple in Python`) is still a table.
  const asksForCode = has(CODE_WORDS) || (subjects.length < 2 && (
    named?.within === true || (named !== undefined && (has(ASK_WORDS) || has(CODE_ITEMS))) || (has(CODE_ITEMS) && has(ASK_WORDS))));
  if (asksForCode) return { kind: 'code', language: named?.language ?? 'python' };
  if (subjects.length === 2 || words.includes('table') || words.includes('comparison')) return { kind: 'table', subjects };

  if (/ (how (do|can|should|would) (i|we|you)|how to|step by step|steps|instructions|walk me through|guide to) /u.test(lower)) {
    return { kind: 'steps' };
  }

  const count = words.map((word) => COUNT_WORDS[word]).find((n) => n !== undefined);
  const asksNamed = /^(name|list|give me|what are some|suggest) /u.test(lower.trimStart());
  if (has(LIST_WORDS) || (asksNamed && count !== undefined) || /^what are some /u.test(lower.trimStart())) {
    return { kind: 'list', count };
  }
  return { kind: 'prose' };
}
