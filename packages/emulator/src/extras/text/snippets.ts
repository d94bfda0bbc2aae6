/**
 * Small, plausible code on the topic of a request, one short and one longer piece per language
 * (the short one always fits the terse model's length ceiling). The topic appears as identifiers
 * (`count_sourdough`, `countSourdough`) and as a string value, so the code visibly answers the ask.
 */
import type { CodeLanguage } from './intent.js';

/** The names a snippet is written with, all derived from the topic's key words. */
export interface SnippetNames {
  /** `sourdough_bread` */
  snake: string;
  /** `sourdoughBread` */
  camel: string;
  /** `SourdoughBread` */
  pascal: string;
  /** The topic as plain words, safe inside a double-quoted string. */
  label: string;
}

/**
 * Identifier pieces from key words: accents dropped, anything but ASCII letters and digits
 * removed, at most two pieces of 16 letters, and `item` when nothing is left (a topic in another
 * script). Identifiers that start with a digit are prefixed, as every language here requires.
 */
export function snippetNames(words: readonly string[]): SnippetNames {
  const pieces = words
    .flatMap((word) => word.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' '))
    .filter((piece) => piece !== '')
    .slice(0, 2)
    .map((piece) => piece.slice(0, 16));
  const parts = pieces.length > 0 ? pieces : ['item'];
  if (/^[0-9]/.test(parts[0]!)) parts[0] = `n${parts[0]!}`;
  const cap = (piece: string): string => piece.charAt(0).toUpperCase() + piece.slice(1);
  return {
    snake: parts.join('_'),
    camel: parts[0]! + parts.slice(1).map(cap).join(''),
    pascal: parts.map(cap).join(''),
    label: parts.join(' '),
  };
}

/** A piece of code and the name in it the explanation points at. */
export interface Code {
  code: string;
  entry: string;
}

type Snippet = (n: SnippetNames) => Code;

/** Per language: the short piece first, then the longer one. */
export const SNIPPETS: Record<CodeLanguage, readonly [Snippet, Snippet]> = {
  python: [
    (n) => ({
      entry: `count_${n.snake}()`,
      code: `def count_${n.snake}(items):\n    return sum(1 for item in items if item)`,
    }),
    (n) => ({
      entry: 'best()',
      code: [
        'from dataclasses import dataclass',
        '',
        '@dataclass',
        `class ${n.pascal}:`,
        '    name: str',
        '    score: float = 0.0',
        '',
        `def best(items: list[${n.pascal}]) -> ${n.pascal}:`,
        '    return max(items, key=lambda item: item.score)',
      ].join('\n'),
    }),
  ],
  javascript: [
    (n) => ({
      entry: `${n.camel}()`,
      code: `function ${n.camel}(items) {\n  return items.filter(Boolean).length;\n}`,
    }),
    (n) => ({
      entry: `load${n.pascal}()`,
      code: [
        `async function load${n.pascal}(url) {`,
        '  const response = await fetch(url);',
        '  if (!response.ok) throw new Error(`HTTP ${response.status}`);',
        '  return response.json();',
        '}',
      ].join('\n'),
    }),
  ],
  typescript: [
    (n) => ({
      entry: `${n.camel}()`,
      code: `function ${n.camel}(items: string[]): number {\n  return items.filter(Boolean).length;\n}`,
    }),
    (n) => ({
      entry: 'best()',
      code: [
        `interface ${n.pascal} {`,
        '  name: string;',
        '  score: number;',
        '}',
        '',
        `const best = (items: ${n.pascal}[]): ${n.pascal} | undefined =>`,
        `  items.reduce<${n.pascal} | undefined>((a, b) => (a && a.score >= b.score ? a : b), undefined);`,
      ].join('\n'),
    }),
  ],
  bash: [
    (n) => ({ entry: 'for', code: `for file in ./${n.snake}/*; do\n  echo "$file"\ndone` }),
    (n) => ({
      entry: 'set -euo pipefail',
      code: [
        '#!/usr/bin/env bash',
        'set -euo pipefail',
        '',
        `dir="\${1:-./${n.snake}}"`,
        'find "$dir" -type f -name \'*.txt\' | while read -r file; do',
        '  wc -l "$file"',
        'done',
      ].join('\n'),
    }),
  ],
  go: [
    (n) => ({ entry: `${n.camel}()`, code: `func ${n.camel}(items []string) int {\n\treturn len(items)\n}` }),
    (n) => ({
      entry: 'range',
      code: [
        'package main',
        '',
        'import "fmt"',
        '',
        'func main() {',
        `\titems := []string{"${n.label}", "example"}`,
        '\tfor i, item := range items {',
        '\t\tfmt.Println(i, item)',
        '\t}',
        '}',
      ].join('\n'),
    }),
  ],
  rust: [
    (n) => ({ entry: `${n.snake}()`, code: `fn ${n.snake}(items: &[&str]) -> usize {\n    items.len()\n}` }),
    (n) => ({
      entry: 'enumerate()',
      code: [
        'fn main() {',
        `    let items = vec!["${n.label}", "example"];`,
        '    for (i, item) in items.iter().enumerate() {',
        '        println!("{i}: {item}");',
        '    }',
        '}',
      ].join('\n'),
    }),
  ],
  sql: [
    (n) => ({ entry: 'GROUP BY', code: `SELECT name, COUNT(*) AS total\nFROM ${n.snake}\nGROUP BY name;` }),
    (n) => ({
      entry: 'ORDER BY',
      code: [
        'SELECT name, COUNT(*) AS total',
        `FROM ${n.snake}`,
        "WHERE created_at >= '2024-01-01'",
        'GROUP BY name',
        'ORDER BY total DESC',
        'LIMIT 10;',
      ].join('\n'),
    }),
  ],
  json: [
    (n) => ({ entry: 'name', code: `{\n  "name": "${n.label}",\n  "enabled": true\n}` }),
    (n) => ({
      entry: 'tags',
      code: [
        '{',
        `  "name": "${n.label}",`,
        '  "enabled": true,',
        `  "tags": ["example", "${n.snake}"],`,
        '  "limits": { "max": 10 }',
        '}',
      ].join('\n'),
    }),
  ],
};
