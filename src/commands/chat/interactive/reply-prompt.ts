/**
 * The last reply → an image prompt, for `/image` with no words ("now draw what we described").
 * Replies are Markdown and can be long; an image prompt wants the description, in plain prose:
 * code blocks go (a picture of code is never what was meant), Markdown markers go, and the text
 * is cut at a sentence end within PROMPT_LIMIT characters. The service names no prompt limit;
 * 1000 characters keeps a described scene whole while staying far from any limit a service sets.
 */

export const PROMPT_LIMIT = 1000;

/** Markdown → its words: no fences, code blocks, headings, list or quote markers, emphasis, links. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__|\*|_|`)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `limit` characters, ending at a sentence end when one comes in the second half. */
export function cutAtSentence(text: string, limit = PROMPT_LIMIT): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  const ends = [...head.matchAll(/[.!?](?=\s|$)/g)].map((match) => match.index + 1);
  const sentenceEnd = ends.at(-1);
  if (sentenceEnd !== undefined && sentenceEnd >= limit / 2) return head.slice(0, sentenceEnd);
  const space = head.lastIndexOf(' ');
  return (space > 0 ? head.slice(0, space) : head).trimEnd();
}

/**
 * The prompt drawn from `reply` ('' when nothing usable is left: a reply that was only code),
 * and whether it had to be cut to fit `limit`.
 */
export function promptFromReply(reply: string, limit = PROMPT_LIMIT): { prompt: string; cut: boolean } {
  const text = plainText(reply);
  const prompt = cutAtSentence(text, limit);
  return { prompt, cut: prompt.length < text.length };
}
