/**
 * What the image endpoint takes (docs/service-api.md, "Images"): its output formats, its aspect
 * ratios and its seeds. The emulator, a package of its own, keeps the same lists
 * (test/architecture/emulator-contract.test.ts checks that they agree). What a file's name or
 * bytes say about its format is images/file-format.ts.
 */

export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Seeds are sent as JSON integers; 2^32 - 1 is the largest most image services take. */
export const MAX_SEED = 4_294_967_295;

/**
 * A seed of svc's choosing, recorded so the image can be made again (-n variants, `svc image
 * again`): any of 0 to {@link MAX_SEED}, all alike likely. The global Web Crypto, not node:crypto,
 * so that declaring the image command loads nothing at start-up.
 */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}
