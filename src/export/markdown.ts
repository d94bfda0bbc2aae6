/**
 * A conversation as a Markdown document, for `svc sessions export`: a title, then a heading per
 * message that says who spoke, and for a reply the model and the time (UTC). The messages
 * themselves are Markdown already (that is how models write) and go in as they are.
 */
import type { Conversation, ImageNote, ToolStep } from '../conversations/model.js';
import { fenceFor } from '../attachments/message.js';
import { callName, prettyArguments, resultKind } from '../conversations/tool-steps.js';
import { imageOptionsText, timeline } from '../conversations/timeline.js';

/** "2025-01-02T10:11:12.345Z" → "2025-01-02 10:11 UTC"; anything else as it is. */
export function whenUtc(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : iso;
}

/** A message body, ending with exactly one newline; an empty one says so rather than vanish. */
function body(text: string): string {
  return text.trim() === '' ? '*(nothing)*\n' : `${text.replace(/\s+$/, '')}\n`;
}

/** A path as a Markdown link target: spaces and brackets escaped so the link stays one link. */
function linkTarget(path: string): string {
  return encodeURI(path.split('\\').join('/')).replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/** A text as a fenced block no backtick run inside can close. */
function fenced(text: string, language: string): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}\n`;
}

/** A tool step: the model's words with its calls, then each call (its arguments) and its result. */
function stepParts(step: ToolStep): string[] {
  const parts = step.text.trim() === '' ? [] : ['## Assistant (calling tools)\n', body(step.text)];
  for (const call of step.calls) {
    const kind = resultKind(call);
    parts.push(`### Tool call: ${callName(call).replace(/\s+/g, ' ')}\n`, fenced(prettyArguments(call.arguments), 'json'), `### Result${kind ? ` (${kind})` : ''}\n`, fenced(call.result, 'text'));
  }
  return parts;
}

/**
 * The Markdown of `conversation`, images made with /image in their place. `imageLink` gives the
 * path an image is linked by (relative to where the export goes), or undefined when its file is gone.
 */
export function toMarkdown(conversation: Conversation, imageLink: (image: ImageNote) => string | undefined = (image) => image.path): string {
  const count = conversation.turns.length;
  const parts = [`# ${conversation.name}\n`, `${count} ${count === 1 ? 'turn' : 'turns'}, started ${whenUtc(conversation.created)}, last changed ${whenUtc(conversation.updated || conversation.created)}.\n`];
  if (conversation.system) parts.push(`## System\n`, body(conversation.system));
  let turnNumber = 0;
  for (const entry of timeline(conversation)) {
    if (entry.kind === 'image') {
      const { image } = entry;
      const link = imageLink(image);
      const options = imageOptionsText(image);
      const alt = image.prompt.replace(/[[\]\n]/g, ' ').slice(0, 100);
      parts.push(`## Image (${whenUtc(image.at)}${options === '' ? '' : `, ${options}`})\n`, link === undefined ? `*(the image file is gone: ${image.path})*\n` : `![${alt}](${linkTarget(link)})\n`);
      parts.push(`Prompt: ${image.prompt}\n${image.revisedPrompt ? `\nRevised prompt: ${image.revisedPrompt}\n` : ''}`);
      continue;
    }
    const { turn } = entry;
    turnNumber += 1;
    parts.push(`## User (turn ${turnNumber})\n`, body(turn.user));
    for (const step of turn.steps ?? []) parts.push(...stepParts(step));
    const about = [turn.model, whenUtc(turn.at), turn.interrupted ? 'interrupted' : undefined].filter(Boolean).join(', ');
    parts.push(`## Assistant (${about})\n`, body(turn.assistant));
  }
  return parts.join('\n');
}
