/**
 * The image endpoint's enumerated options (docs/service-api.md, "Images" and "Limits") and the
 * pixel size drawn for each aspect ratio. svc's docs/emulator.md and docs/images.md quote
 * {@link IMAGE_SIZES}; keep them in step.
 */

/**
 * The aspect ratios of docs/service-api.md ("Images"), the default first. svc's client has the same
 * list (its src/api/images/formats.ts): this package imports nothing of svc, and svc's
 * test/architecture/emulator-contract.test.ts checks that the two lists agree.
 */
export const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** The output formats ("Images"), the default first; checked against svc's like the ratios. */
export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Width and height in pixels. */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/**
 * Pixel size per aspect ratio: width:height is exactly the ratio and the area about one megapixel
 * (0.98 to 1.05 MP), the size class current image models answer with. The portrait sizes are the
 * landscape ones turned, so a ratio and its mirror show the same number of pixels.
 *
 * | aspect | size |
 * |---|---|
 * | 1:1 | 1024×1024 |
 * | 16:9 | 1344×756 |
 * | 9:16 | 756×1344 |
 * | 4:3 | 1152×864 |
 * | 3:4 | 864×1152 |
 * | 21:9 | 1512×648 |
 */
export const IMAGE_SIZES: Readonly<Record<AspectRatio, ImageSize>> = Object.freeze({
  '1:1': { width: 1024, height: 1024 },
  '16:9': { width: 1344, height: 756 },
  '9:16': { width: 756, height: 1344 },
  '4:3': { width: 1152, height: 864 },
  '3:4': { width: 864, height: 1152 },
  '21:9': { width: 1512, height: 648 },
});
