/**
 * @svc/emulator/images: the emulator's pictures without the server, for measuring them and for
 * tests that need real image files: the scene planned for a prompt and seed, drawn, and encoded
 * as the endpoint serves it.
 */
export { planScene, type ScenePlan } from './extras/scenes/plan.js';
export { drawScene } from './extras/scenes/draw.js';
export { encodeImage } from './core/images/encode.js';
export { encodePng } from './core/images/png.js';
export { encodeJpeg } from './core/images/jpeg.js';
export { encodeWebp } from './core/images/webp.js';
export { ASPECT_RATIOS, IMAGE_SIZES, OUTPUT_FORMATS, type AspectRatio, type OutputFormat } from './core/images/sizes.js';
