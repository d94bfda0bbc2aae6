/**
 * The links and headings of the project's Markdown files, read as GitHub renders them, so tests
 * can check that every relative link leads somewhere: to a file that exists and, when it names
 * one, to a heading of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** The text outside fenced code blocks and inline code, where links and headings count. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, 'CODE');
}

/** Every link target of a file (`[text](target)` and `![alt](target)`), as written. */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

/** Whether a target points into the repository (not a web address or an e-mail). */
export function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
export function anchorOf(heading: string): string {
  const text = heading.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*]/g, '');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a file's headings; a repeated heading gets -1, -2… as on GitHub. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const code = /^(```|~~~)/;
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (code.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]!);
    let anchor = base;
    for (let n = 1; found.has(anchor); n++) anchor = `${base}-${n}`;
    found.add(anchor);
  }
  return found;
}

/**
 * What is wrong with each relative link of `file` (a path under `root`): the file it names does
 * not exist, the heading it names is not there, or it leaves `root`. Empty when all lead somewhere.
 */
export function brokenLinks(root: string, file: string): string[] {
  const markdown = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const target of linkTargets(markdown).filter(isRelative)) {
    const [path = '', anchor] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    if (relative(root, join(root, resolved)).startsWith('..')) {
      problems.push(`${file}: ${target} leads out of the folder`);
      continue;
    }
    if (!existsSync(join(root, resolved))) {
      problems.push(`${file}: ${target}: no such file ${resolved}`);
      continue;
    }
    if (anchor !== undefined && !anchors(readFileSync(join(root, resolved), 'utf8')).has(anchor)) {
      problems.push(`${file}: ${target}: ${resolved} has no heading #${anchor}`);
    }
  }
  return problems;
}
