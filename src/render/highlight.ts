/**
 * Syntax highlighting of fenced code with highlight.js, for the languages replies use most.
 *
 * highlight.js is pure JavaScript (no WebAssembly, no grammar files read at run time) and works
 * line by line on plain strings, which suits code that arrives one line at a time. Only its core
 * and the languages below are bundled, in their own chunk that is loaded only when a reply is
 * rendered on a terminal: a fraction of what its "common" set or the whole package costs to
 * load (bench/README.md, "Rendering").
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { palette, PLAIN, type Style } from './style.js';

/** A run of highlighted text. */
export interface Segment {
  text: string;
  style: Style;
}

/**
 * Highlight `code` (several lines) as `language`: one list of segments per line, or undefined
 * when the language is not known.
 */
export type Highlighter = (code: string, language: string) => Segment[][] | undefined;

const languages = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, lua, makefile, php, powershell, python, ruby, rust, shell, sql, swift, typescript, xml, yaml };

// highlight.js scope names → palette entries; scopes not listed take their parent's style.
const SCOPES: Record<string, Style> = {
  keyword: palette.code.keyword,
  tag: palette.code.keyword,
  'selector-tag': palette.code.keyword,
  name: palette.code.keyword,
  built_in: palette.code.builtIn,
  type: palette.code.type,
  class: palette.code.type,
  literal: palette.code.literal,
  symbol: palette.code.literal,
  number: palette.code.number,
  string: palette.code.string,
  regexp: palette.code.string,
  char: palette.code.string,
  comment: palette.code.comment,
  quote: palette.code.comment,
  title: palette.code.title,
  section: palette.code.title,
  meta: palette.code.meta,
  attr: palette.code.attr,
  attribute: palette.code.attr,
  property: palette.code.attr,
  'selector-class': palette.code.attr,
  'selector-id': palette.code.attr,
  addition: palette.code.addition,
  deletion: palette.code.deletion,
  variable: palette.code.variable,
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const decode = (html: string): string => html.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** highlight.js's HTML (nested `<span class="hljs-…">`, escaped text) → styled segments per line. */
export function segmentsFromHtml(html: string): Segment[][] {
  const lines: Segment[][] = [[]];
  const stack: Style[] = [PLAIN];
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|([^<]+)/g)) {
    const [, classes, text] = match;
    if (classes !== undefined) {
      const scope = classes.split(' ')[0]?.replace(/^hljs-/, '') ?? '';
      stack.push(SCOPES[scope] ?? (stack.at(-1) as Style));
    } else if (text === undefined) {
      if (stack.length > 1) stack.pop();
    } else {
      const style = stack.at(-1) as Style;
      const parts = decode(text).split('\n');
      parts.forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part !== '') (lines.at(-1) as Segment[]).push({ text: part, style });
      });
    }
  }
  return lines;
}

type Language = keyof typeof languages;

// The names replies put after their fences for these languages. Registering a language runs its
// definition, so each is registered when a block first asks for it, never all up front.
const ALIASES: Record<string, Language> = {
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', py: 'python', python3: 'python', gyp: 'python',
  sh: 'bash', zsh: 'bash', console: 'shell', shellsession: 'shell', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp',
  hpp: 'cpp', h: 'c', cs: 'csharp', 'c#': 'csharp', golang: 'go', rs: 'rust', rb: 'ruby', kt: 'kotlin',
  kts: 'kotlin', ps: 'powershell', ps1: 'powershell', pwsh: 'powershell', yml: 'yaml', html: 'xml',
  xhtml: 'xml', svg: 'xml', toml: 'ini', mk: 'makefile', make: 'makefile', docker: 'dockerfile',
  patch: 'diff', jsonc: 'json', postgres: 'sql', postgresql: 'sql', mysql: 'sql', sqlite: 'sql',
};

/** The bundled language a fence's name stands for, if any. */
export function languageFor(name: string): Language | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(languages, key) ? (key as Language) : ALIASES[key];
}

/** A highlighter for the bundled languages and their usual aliases (js, ts, py, sh, html, toml...). */
export function createHighlighter(): Highlighter {
  return (code, name) => {
    const html = highlightHtml(code, name);
    return html === undefined ? undefined : segmentsFromHtml(html);
  };
}

/**
 * highlight.js's own HTML for `code` (`<span class="hljs-…">`, the text escaped by it), for the
 * HTML export; undefined for a language not bundled (then the caller escapes the code itself).
 */
export function highlightHtml(code: string, name: string): string | undefined {
  const language = languageFor(name);
  if (language === undefined) return undefined;
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, languages[language]);
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
