/**
 * What the emulator "sees" in the images of a message: each one's pixel size, format and main
 * colours in words ("a 640×480 PNG image, mostly dark blue and white"), so a user and a test can
 * tell what arrived. Colours are named from hue, lightness and saturation, on a sample of up to
 * 65,536 pixels; a pixel at least seven-eighths transparent counts as "transparent".
 */
import type { ReadImage } from '../../core/images/decode.js';
import { sentenceList } from './templates.js';

/** The name of a colour, in plain words: black, white, grey, or a hue with dark/light where it is. */
export function colourName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (lightness < 0.1) return 'black';
  if (lightness > 0.93) return 'white';
  if (chroma < 0.12) return lightness < 0.35 ? 'dark grey' : lightness > 0.7 ? 'light grey' : 'grey';
  const rf = r / 255;
  const gf = g / 255;
  const bf = b / 255;
  const sector = max === rf ? ((gf - bf) / chroma + 6) % 6 : max === gf ? (bf - rf) / chroma + 2 : (rf - gf) / chroma + 4;
  const hue = sector * 60;
  const base = hue < 15 || hue >= 345 ? 'red' : hue < 40 ? 'orange' : hue < 65 ? 'yellow' : hue < 160 ? 'green' : hue < 195 ? 'cyan' : hue < 255 ? 'blue' : hue < 320 ? 'purple' : 'pink';
  if (base === 'orange' && lightness < 0.4) return 'brown';
  if (base === 'red' && lightness > 0.7) return 'pink';
  if (lightness < 0.3) return `dark ${base}`;
  if (lightness > 0.75) return `light ${base}`;
  return base;
}

/** Each colour's share of the image, largest first (ties: the name first met). */
export function colourShares(image: Pick<ReadImage, 'width' | 'height' | 'data'>): Array<{ name: string; share: number }> {
  const pixels = image.width * image.height;
  const step = Math.max(1, Math.floor(pixels / 65_536));
  const counts = new Map<string, number>();
  let seen = 0;
  for (let p = 0; p < pixels; p += step) {
    const i = p * 4;
    const name = image.data[i + 3]! < 32 ? 'transparent' : colourName(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    seen += 1;
  }
  return [...counts].map(([name, count]) => ({ name, share: count / seen })).sort((a, b) => b.share - a.share);
}

/**
 * The main colours in words: "entirely red" (95% or more), "mostly dark blue and white" (the
 * first half or more), "a mix of red, green and blue"; each named colour is a tenth or more.
 */
export function colourWords(image: Pick<ReadImage, 'width' | 'height' | 'data'>): string {
  const shares = colourShares(image);
  const top = shares[0]!;
  if (top.share >= 0.95) return `entirely ${top.name}`;
  // The colours that make a real part of it: up to three, each at least a tenth.
  const main = shares.slice(0, 3).filter((each) => each.share >= 0.1).map((each) => each.name);
  if (top.share >= 0.5) return `mostly ${sentenceList(main)}`;
  return main.length > 1 ? `a mix of ${sentenceList(main)}` : `a mix of many colours, ${top.name} the most common`;
}

/** Each format as it is written. */
const FORMAT_NAMES: Readonly<Record<ReadImage['format'], string>> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', webp: 'WebP' };

/** "a 640×480 PNG image, mostly dark blue and white" (an animated GIF says how many frames). */
export function describeImage(image: ReadImage): string {
  const animated = image.frames > 1 ? ` (animated, ${image.frames} frames)` : '';
  return `a ${image.width}×${image.height} ${FORMAT_NAMES[image.format]} image${animated}, ${colourWords(image)}`;
}

/** A link as a reply quotes it: cut after 80 characters. */
function shortUrl(url: string): string {
  return url.length > 80 ? `${url.slice(0, 79)}…` : url;
}

/** An image of a message: read from its data URL, or a link the emulator does not fetch. */
export type SeenImage = { read: ReadImage } | { url: string };

/**
 * The sentences that describe the images of the last user message: one image, "The image you
 * sent is a 640×480 PNG image, mostly dark blue and white."; several, "Image 1 is ... Image 2
 * is ..."; a link, that it was not fetched (the emulator works offline).
 */
export function describeImages(images: readonly SeenImage[]): string {
  return images
    .map((image, index) => {
      const subject = images.length === 1 ? 'The image you sent' : `Image ${index + 1}`;
      if ('url' in image) return `${subject}, at ${shortUrl(image.url)}, was not fetched: the emulator works offline, so it cannot say what it shows.`;
      return `${subject} is ${describeImage(image.read)}.`;
    })
    .join(' ');
}
