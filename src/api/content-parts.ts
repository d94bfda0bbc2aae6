/**
 * A message's content as parts (OpenAI's chat format): words as a `text` part, each picture as an
 * `image_url` part whose URL is a `data:` URL of the file or an http(s) address the service
 * fetches itself. A message without pictures stays a plain string.
 */

/** How closely the service looks: `low` is one small fixed-cost view, `high` the full tiles; `auto` lets it choose. */
export const IMAGE_DETAILS = ['low', 'high', 'auto'] as const;
export type ImageDetail = (typeof IMAGE_DETAILS)[number];

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image_url';
  /** `detail` is left out when not chosen: the service's default (`auto`) applies. */
  image_url: { url: string; detail?: ImageDetail };
}

export type ContentPart = TextPart | ImagePart;

/** The part for a picture at `url` (a `data:` URL or an http(s) address). */
export function imagePart(url: string, detail?: ImageDetail): ImagePart {
  return { type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } };
}
