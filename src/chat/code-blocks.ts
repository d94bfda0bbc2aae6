/**
 * The fenced code blocks of a Markdown answer (`--extract`, `/copy code`, batch `extract`), by
 * CommonMark's fence rules: a line of three or more backticks or tildes (indented up to three
 * spaces, or inside a list item or quote), closed by a line of the same character at least as
 * long; a fence never closed runs to the end of the answer, as a renderer shows it. The content
 * keeps its own indentation, less the fence's. Indented code blocks (four spaces) are not taken:
 * models fence their code, and indented prose is far more common than indented code in replies.
 */

interface OpenFence {
  char: string;
  length: number;
  /** Columns of indentation the opening fence had, removed from each content line. */
  indent: number;
  /** The quote markers (`> `) the fence is inside, stripped from each content line. */
  quote: string;
  lines: string[];
}

const OPENING = /^((?:\s*>)*)(\s*)(`{3,}|~{3,})(.*)$/;

/** A list item's marker in front of a fence (`- ```sh`, `1. ```): its width counts as indentation. */
const LIST_MARKER = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)(`{3,}|~{3,})(.*)$/;

function opening(line: string): OpenFence | undefined {
  const listed = LIST_MARKER.exec(line);
  const match = listed ? undefined : OPENING.exec(line);
  const fence = listed ? listed[4]! : match?.[3];
  const info = listed ? listed[5]! : match?.[4];
  if (fence === undefined || info === undefined) return undefined;
  // A backtick fence's info string may not hold a backtick (it would be inline code).
  if (fence.startsWith('`') && info.includes('`')) return undefined;
  const indent = listed ? listed[1]!.length + listed[2]!.length + listed[3]!.length : match![2]!.length;
  return { char: fence[0]!, length: fence.length, indent, quote: listed ? '' : match![1]!, lines: [] };
}

/** The line with the fence's quote markers and up to its indentation removed. */
function contentOf(line: string, fence: OpenFence): string {
  let text = line;
  if (fence.quote !== '') text = text.replace(/^(\s*>\s?)+/, '');
  let removed = 0;
  while (removed < fence.indent && text.startsWith(' ')) {
    text = text.slice(1);
    removed += 1;
  }
  return text;
}

function closes(line: string, fence: OpenFence): boolean {
  const text = fence.quote === '' ? line : line.replace(/^(\s*>\s?)+/, '');
  const match = /^\s*(`{3,}|~{3,})\s*$/.exec(text);
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

/** Each fenced block's text, in order, without its fences (no trailing newline). */
export function codeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let open: OpenFence | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    if (open) {
      if (closes(line, open)) {
        blocks.push(open.lines.join('\n'));
        open = undefined;
      } else open.lines.push(contentOf(line, open));
    } else open = opening(line);
  }
  if (open) {
    // Unclosed: to the end, less the empty line a final newline leaves.
    while (open.lines.length > 0 && open.lines.at(-1) === '') open.lines.pop();
    blocks.push(open.lines.join('\n'));
  }
  return blocks;
}

/** What `--extract` (all) or `--extract-last` prints: blocks joined by a blank line, or undefined when none. */
export function extractedCode(markdown: string, which: 'all' | 'last'): string | undefined {
  const blocks = codeBlocks(markdown);
  if (blocks.length === 0) return undefined;
  return which === 'last' ? blocks.at(-1)! : blocks.join('\n\n');
}
