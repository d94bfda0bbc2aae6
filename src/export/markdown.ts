/**
 * A conversation as a Markdown document, for `svc sessions export`: a title, then a heading per
 * message that says who spoke, and for a reply the model and the time (UTC). The messages
 * themselves are Markdown already (that is how models write) and go in as they are; the images
 * of a message follow it as Markdown images, never as base64 in the text.
 */
import type { Conversation, ImageNote, ImageRef, ToolStep } from '../conversations/model.js';
import { fenceFor } from '../attachments/message.js';
import { callName, prettyArguments, resultKind } from '../conversations/tool-steps.js';
import { imageOptionsText, timeline } from '../conversations/timeline.js';
import { coveredTurns, inTheirPlace } from '../conversations/compaction.js';

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

/** An image's alt text: one line, no brackets to end it early. */
function altText(text: string): string {
  return text.replace(/[[\]\n]/g, ' ').slice(0, 100);
}

/** Where the export links its images; undefined when an image's file is gone. */
export interface ImageLinks {
  /** The path an image made with /image is linked by (relative to where the export goes). */
  made: (image: ImageNote) => string | undefined;
  /** The path an image kept from a message is linked by (an address image links its address). */
  sent: (image: ImageRef) => string | undefined;
}

/** An image sent with a message, after the message: a Markdown image of its kept file, or of its address. */
function sentImage(image: ImageRef, links: ImageLinks): string {
  if (image.url !== undefined) {
    // Only an http(s) address is a link (a hand-edited file may hold anything); spaces and brackets escaped, its own escapes kept.
    if (!/^https?:\/\//i.test(image.url)) return `*(image: ${image.url.replace(/\s+/g, ' ')})*\n`;
    return `![${altText(image.name)}](${image.url.replace(/[\s()<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})\n`;
  }
  const link = links.sent(image);
  return link === undefined ? `*(the kept file of the image ${image.name.replace(/\s+/g, ' ')} is gone)*\n` : `![${altText(image.name)}](${linkTarget(link)})\n`;
}

/** The Markdown of `conversation`, images made with /image in their place, a message's images after it. */
export function toMarkdown(conversation: Conversation, links: ImageLinks): string {
  const count = conversation.turns.length;
  const parts = [`# ${conversation.name}\n`, `${count} ${count === 1 ? 'turn' : 'turns'}, started ${whenUtc(conversation.created)}, last changed ${whenUtc(conversation.updated || conversation.created)}.\n`];
  if (conversation.system) parts.push(`## System\n`, body(conversation.system));
  let turnNumber = 0;
  for (const entry of timeline(conversation)) {
    if (entry.kind === 'image') {
      const { image } = entry;
      const link = links.made(image);
      const options = imageOptionsText(image);
      parts.push(`## Image (${whenUtc(image.at)}${options === '' ? '' : `, ${options}`})\n`, link === undefined ? `*(the image file is gone: ${image.path})*\n` : `![${altText(image.prompt)}](${linkTarget(link)})\n`);
      parts.push(`Prompt: ${image.prompt}\n${image.revisedPrompt ? `\nRevised prompt: ${image.revisedPrompt}\n` : ''}`);
      continue;
    }
    const { turn } = entry;
    turnNumber += 1;
    const images = turn.images ?? [];
    // A message of images alone is its images, not "(nothing)".
    parts.push(`## User (turn ${turnNumber})\n`, ...(turn.user.trim() === '' && images.length > 0 ? [] : [body(turn.user)]), ...images.map((image) => sentImage(image, links)));
    for (const step of turn.steps ?? []) parts.push(...stepParts(step));
    const about = [turn.model, whenUtc(turn.at), turn.interrupted ? 'interrupted' : undefined].filter(Boolean).join(', ');
    parts.push(`## Assistant (${about})\n`, body(turn.assistant));
    // Every turn is exported; a compaction in force shows where its summary takes over.
    for (const compaction of conversation.compactions.filter((each) => each.through === turnNumber)) {
      parts.push(`## Summary of ${coveredTurns(compaction)} (${whenUtc(compaction.at)}; ${inTheirPlace(compaction)} from here on)\n`, body(compaction.summary));
    }
  }
  return parts.join('\n');
}
