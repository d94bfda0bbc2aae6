/**
 * A conversation as one self-contained HTML file (`svc sessions export --format html`): every
 * message's Markdown rendered (marked; code highlighted by highlight.js into plain `<span>`s with
 * an inline stylesheet), every `/image` embedded as a `data:` URL with its prompt and revised
 * prompt, in the order they happened, and every image sent with a message embedded after it. Readable offline and without script.
 *
 * Safe against any text in the conversation: the model's (and the user's) text can make
 * Markdown, never markup. Raw HTML in a message is shown as text; links keep only http(s),
 * mailto and in-page targets; a Markdown image is shown as a link, never loaded; and a Content
 * Security Policy allows no script and no resource but the embedded images, should anything
 * slip through.
 */
import { Marked, type Tokens } from 'marked';
import type { Conversation, ImageNote, ImageRef, ToolStep, Turn } from '../conversations/model.js';
import { describeImageRef } from '../attachments/message.js';
import { callName, prettyArguments, resultKind } from '../conversations/tool-steps.js';
import { whenUtc } from '../export/markdown.js';
import { imageOptionsText, timeline } from '../conversations/timeline.js';
import { coveredTurns, inTheirPlace } from '../conversations/compaction.js';
import { highlightHtml } from '../render/highlight.js';

/** An image's bytes, read by the caller; undefined when the file is gone. */
export interface EmbeddedImage {
  mime: string;
  base64: string;
  width?: number | undefined;
  height?: number | undefined;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const SAFE_LINK = /^(https?:|mailto:|#)/i;

function markdownRenderer(): Marked {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(token.text);
      },
      link(token: Tokens.Link): string {
        const text = this.parser.parseInline(token.tokens);
        if (!SAFE_LINK.test(token.href.trim())) return text;
        return `<a href="${escapeHtml(token.href.trim())}" rel="noopener noreferrer">${text}</a>`;
      },
      image(token: Tokens.Image): string {
        // Never loaded: a conversation file must not call out when it is opened.
        const label = escapeHtml(token.text || token.href);
        return SAFE_LINK.test(token.href.trim()) ? `<a href="${escapeHtml(token.href.trim())}" rel="noopener noreferrer">[image: ${label}]</a>` : `[image: ${label}]`;
      },
      code(token: Tokens.Code): string {
        const language = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
        const highlighted = language === '' ? undefined : highlightHtml(token.text, language);
        const label = language === '' ? '' : ` data-lang="${escapeHtml(language)}"`;
        return `<pre${label}><code class="hljs">${highlighted ?? escapeHtml(token.text)}</code></pre>\n`;
      },
    },
  });
  return marked;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --user: #eef6ff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --code: #151b23; --user: #10243e; } }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
header p, .meta, figcaption { color: var(--muted); font-size: 0.9rem; }
section { border-top: 1px solid var(--line); padding: 0.5rem 0 0.75rem; }
section.user .body { background: var(--user); border-radius: 8px; padding: 0.25rem 1rem; }
h2.who { font-size: 0.95rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; overflow-x: auto; }
code { font: 0.9em/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; }
figure { margin: 1rem 0; } figure img { max-width: 100%; height: auto; border-radius: 6px; border: 1px solid var(--line); }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in { color: #cf222e; } .hljs-string, .hljs-attr { color: #0a3069; }
.hljs-comment { color: #6e7781; font-style: italic; } .hljs-number, .hljs-literal { color: #0550ae; } .hljs-title, .hljs-title.function_ { color: #8250df; }
@media (prefers-color-scheme: dark) { .hljs-keyword, .hljs-selector-tag, .hljs-built_in { color: #ff7b72; } .hljs-string, .hljs-attr { color: #a5d6ff; } .hljs-comment { color: #8b949e; } .hljs-number, .hljs-literal { color: #79c0ff; } .hljs-title, .hljs-title.function_ { color: #d2a8ff; } }
`;

/** Where the page gets its images' bytes; undefined when an image's file is gone. */
export interface ImageBytes {
  /** An image made with /image. */
  made: (image: ImageNote) => EmbeddedImage | undefined;
  /** An image sent with a message, kept in svc's data folder (an address image is never asked for). */
  sent: (image: ImageRef) => EmbeddedImage | undefined;
}

/** The whole document, every image embedded (`images` gives their bytes). */
export function toHtml(conversation: Conversation, images: ImageBytes): string {
  const marked = markdownRenderer();
  const md = (text: string): string => (text.trim() === '' ? '<p><em>(nothing)</em></p>' : (marked.parse(text) as string));
  const parts: string[] = [];
  const count = conversation.turns.length;
  parts.push(`<header><h1>${escapeHtml(conversation.name)}</h1><p>${count} ${count === 1 ? 'turn' : 'turns'}, started ${escapeHtml(whenUtc(conversation.created))}, last changed ${escapeHtml(whenUtc(conversation.updated || conversation.created))}.</p></header>`);
  if (conversation.system) parts.push(`<section class="system"><h2 class="who">System</h2><div class="body">${md(conversation.system)}</div></section>`);
  let turnNumber = 0;
  for (const entry of timeline(conversation)) {
    if (entry.kind === 'image') parts.push(figure(entry.image, images.made(entry.image)));
    else {
      parts.push(turnHtml(entry.turn, (turnNumber += 1), md, images.sent));
      // Every turn is exported; a compaction in force shows where its summary takes over.
      for (const compaction of conversation.compactions.filter((each) => each.through === turnNumber)) {
        parts.push(`<section class="system summary"><h2 class="who">Summary of ${escapeHtml(coveredTurns(compaction))} <span class="meta">(${escapeHtml(whenUtc(compaction.at))}; ${inTheirPlace(compaction)} from here on)</span></h2><div class="body">${md(compaction.summary)}</div></section>`);
      }
    }
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="svc">
<title>${escapeHtml(conversation.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${parts.join('\n')}
</main>
</body>
</html>
`;
}

function turnHtml(turn: Turn, number: number, md: (text: string) => string, sent: ImageBytes['sent']): string {
  const about = [turn.model, whenUtc(turn.at), turn.interrupted ? 'interrupted' : undefined].filter(Boolean).join(', ');
  const images = turn.images ?? [];
  // A message of images alone is its images, not "(nothing)".
  const text = turn.user.trim() === '' && images.length > 0 ? '' : md(turn.user);
  return [
    `<section class="user"><h2 class="who">User (turn ${number})</h2><div class="body">${text}${images.map((image) => sentFigure(image, sent)).join('')}</div></section>`,
    ...(turn.steps ?? []).map((step) => stepHtml(step, md)),
    `<section class="assistant"><h2 class="who">Assistant <span class="meta">(${escapeHtml(about)})</span></h2><div class="body">${md(turn.assistant)}</div></section>`,
  ].join('\n');
}

/** A tool step: the model's words with its calls, each call's arguments and its result, as text (never markup). */
function stepHtml(step: ToolStep, md: (text: string) => string): string {
  const parts = step.text.trim() === '' ? [] : [`<section class="assistant"><h2 class="who">Assistant <span class="meta">(calling tools)</span></h2><div class="body">${md(step.text)}</div></section>`];
  for (const call of step.calls) {
    const kind = resultKind(call);
    parts.push(
      `<section class="tool"><h2 class="who">Tool call <span class="meta">(${escapeHtml(callName(call))})</span></h2><div class="body"><pre><code>${escapeHtml(prettyArguments(call.arguments))}</code></pre></div></section>`,
      `<section class="tool result"><h2 class="who">Result${kind ? ` <span class="meta">(${kind})</span>` : ''}</h2><div class="body"><pre><code>${escapeHtml(call.result)}</code></pre></div></section>`,
    );
  }
  return parts.join('\n');
}

/**
 * An image sent with a message: its kept bytes inline, captioned with its name, size and pixels;
 * an address image as a link (never loaded: the page must not call out when it is opened); a
 * kept file that is gone as a note naming the image.
 */
function sentFigure(image: ImageRef, sent: ImageBytes['sent']): string {
  const caption = `<figcaption>${escapeHtml(describeImageRef(image))}</figcaption>`;
  if (image.url !== undefined) {
    const link = SAFE_LINK.test(image.url.trim()) ? `<a href="${escapeHtml(image.url.trim())}" rel="noopener noreferrer">[image: ${escapeHtml(image.name)}]</a>` : `[image: ${escapeHtml(image.name)}]`;
    return `<figure class="image sent"><p>${link}</p></figure>`;
  }
  const data = sent(image);
  if (!data) return `<figure class="image sent missing"><p class="meta">(the image ${escapeHtml(image.name)}: its kept file is gone)</p>${caption}</figure>`;
  return `<figure class="image sent">${img(data, image.name)}${caption}</figure>`;
}

/** An embedded image; its text, when it cannot be shown, `alt`. */
function img(data: EmbeddedImage, alt: string): string {
  const size = data.width && data.height ? ` width="${data.width}" height="${data.height}"` : '';
  return `<img src="data:${data.mime};base64,${data.base64}"${size} alt="${escapeHtml(alt)}">`;
}

function figure(image: ImageNote, data: EmbeddedImage | undefined): string {
  const revised = image.revisedPrompt ? `<br>Revised prompt: ${escapeHtml(image.revisedPrompt)}` : '';
  // When and how it was made, as the Markdown export's heading says it.
  const options = imageOptionsText(image);
  const about = `<span class="meta">(${escapeHtml(whenUtc(image.at))}${options === '' ? '' : `, ${escapeHtml(options)}`})</span>`;
  const caption = `<figcaption>Image ${about}: ${escapeHtml(image.prompt)}${revised}</figcaption>`;
  if (!data) return `<figure class="image missing"><p class="meta">(the image file is gone: ${escapeHtml(image.path)})</p>${caption}</figure>`;
  return `<figure class="image">${img(data, image.prompt)}${caption}</figure>`;
}
