/**
 * Draws the scene's subjects (subjects.ts) in their layers: birds in the sky, a mountain behind
 * the ridges (with whatever stands on its summit), and the rest in front of the nearest ridge,
 * on the water or across the frame. Each is fitted to the frame it gets: no wider than a share of
 * the width, never cut by an edge, its top inside the frame.
 *
 * Colours follow the light: in daylight a subject shows its own colours, at dusk and at night it
 * darkens towards the nearest ridge's colour, a silhouette against the sky, while its windows
 * and lamps glow.
 */
import type { ScenePlan, TimeOfDay } from './plan.js';
import type { Pixels } from '../../core/images/pixels.js';
import { mix, type Rgb } from './colour.js';
import { fillPrimitive, type Paint, type Placement } from './shapes.js';
import type { Silhouette } from './silhouettes-built.js';
import { summitOffset } from './silhouettes-nature.js';
import { KINDS, type Subject } from './subjects.js';

/** How much of a subject's own colour shows, by the time of day (the rest is silhouette). */
const DAYLIGHT: Record<TimeOfDay, number> = { day: 0.85, dawn: 0.6, sunset: 0.36, night: 0.16 };
const LAMP: Rgb = [255, 212, 128];
const GLASS: Rgb = [112, 142, 168];

/** The widest a subject may be, as a share of the frame's width: the main one, the others. */
const MAX_WIDTH = { main: 0.46, other: 0.32, backdrop: 1.3 };

function silhouetteOf(subject: Subject, plateau = 0, span = 0): Silhouette {
  return KINDS[subject.kind].shape({ variant: subject.variant, plateau, span });
}

/** The colour of `paint` in this light, or undefined when the part is not drawn (a beam by day). */
function paintColor(paint: Paint, shape: Silhouette, plan: ScenePlan, haze: number): Rgb | undefined {
  const light = DAYLIGHT[plan.time];
  const front = plan.ridges.at(-1)?.color ?? plan.skyHorizon;
  const shadow: Rgb = [front[0] * 0.55, front[1] * 0.55, front[2] * 0.55];
  const own = shape.colors[paint] ?? shape.colors.body ?? shadow;
  let color: Rgb;
  switch (paint) {
    case 'beam':
      if (plan.time === 'day') return undefined;
      return LAMP;
    case 'light':
      // Windows and lamps are lit once the light goes; by day they are glass (or their own colour).
      return plan.time === 'day' ? mix(shadow, shape.colors.light ?? GLASS, light) : LAMP;
    case 'eye':
    case 'snow':
      // Eyes and snow catch what light there is: they stay readable at night.
      color = mix(shadow, own, Math.max(light, 0.62));
      break;
    default:
      color = mix(shadow, own, light);
  }
  // A little of the sky's horizon colour ties the subject into the palette; distance adds haze.
  return mix(color, plan.skyHorizon, 0.08 + haze);
}

function paint(pixels: Pixels, shape: Silhouette, at: Placement, plan: ScenePlan, haze = 0): void {
  for (const part of shape.parts) {
    const color = paintColor(part.paint, shape, plan, haze);
    if (color !== undefined) fillPrimitive(pixels, part, at, color);
  }
}

/**
 * The scale (pixels per unit) and centre of a subject in this frame: its planned height, reduced
 * so it is no wider than `maxShare` of the width, and its centre moved in so no edge cuts it.
 */
function fit(pixels: Pixels, subject: Subject, shape: Silhouette, maxShare: number): { scale: number; cx: number } {
  const { width, height } = pixels;
  let scale = subject.size * height;
  if (shape.width * scale > maxShare * width) scale = (maxShare * width) / shape.width;
  const half = (shape.width * scale) / 2;
  const margin = 0.03 * width;
  const wanted = width / 2 + subject.x * width;
  const cx = half + margin > width - half - margin ? width / 2 : Math.min(width - half - margin, Math.max(half + margin, wanted));
  return { scale, cx };
}

/** Birds, before the land so that a low one passes behind a peak. */
export function drawSkySubjects(pixels: Pixels, plan: ScenePlan): void {
  for (const subject of plan.subjects) {
    if (KINDS[subject.kind].layer !== 'sky') continue;
    const shape = silhouetteOf(subject);
    const { scale, cx } = fit(pixels, subject, shape, MAX_WIDTH.other);
    paint(pixels, shape, { cx, baseY: subject.y * pixels.height + scale, scale, flip: subject.flip }, plan);
  }
}

/** The horizon the land starts from, in pixels: the waterline, or where the far ridges stand. */
function horizonOf(plan: ScenePlan, height: number): number {
  return (plan.water?.level ?? 0.72) * height;
}

/**
 * A mountain behind every ridge, hazier than the land in front, and the subject perched on its
 * summit (`a castle on a mountain`), whose width flattens the summit.
 */
export function drawBackdropSubjects(pixels: Pixels, plan: ScenePlan): void {
  const peak = plan.subjects.find((s) => KINDS[s.kind].layer === 'backdrop');
  if (peak === undefined) return;
  const { width, height } = pixels;
  const base = horizonOf(plan, height) + 0.02 * height;
  // Tall enough to rise above the ridges, never above the top eighth of the frame.
  const scale = Math.min(peak.size * height, base - 0.12 * height);
  const span = (MAX_WIDTH.backdrop * width) / scale;
  const cx = width / 2 + peak.x * width;
  const perched = plan.subjects.find((s) => s.perched);
  const perchedShape = perched && silhouetteOf(perched);
  const perchedFit = perched && perchedShape ? fit(pixels, perched, perchedShape, MAX_WIDTH.other) : undefined;
  const plateau = perchedFit && perchedShape ? (perchedShape.width * perchedFit.scale * 0.9) / scale : 0;
  paint(pixels, silhouetteOf(peak, plateau, span), { cx, baseY: base, scale, flip: false }, plan, 0.22);
  if (perched && perchedShape && perchedFit) {
    const summitX = cx + summitOffset({ variant: peak.variant, span }) * scale;
    const at = { cx: summitX, baseY: base - scale + 0.006 * scale, scale: perchedFit.scale, flip: perched.flip };
    paint(pixels, perchedShape, at, plan, 0.1);
  }
}

/**
 * Everything in front of the nearest ridge: land subjects stand on its line (at the lowest point
 * under them, so none floats), boats sit on the waterline, fish leap out of the water, and a
 * bridge spans most of the width. `frontLine` is the nearest ridge's line, in pixels per column.
 */
export function drawFrontSubjects(pixels: Pixels, plan: ScenePlan, frontLine: Float64Array): void {
  const { width, height } = pixels;
  const waterline = plan.water === undefined ? undefined : plan.water.level * height;
  let first = true;
  for (const subject of plan.subjects) {
    const layer = KINDS[subject.kind].layer;
    if (layer === 'sky' || layer === 'backdrop' || subject.perched) continue;
    const span = layer === 'span' ? (0.84 * width) / (subject.size * height) : 0;
    const shape = silhouetteOf(subject, 0, span);
    const { scale: fitted, cx } = fit(pixels, subject, shape, layer === 'span' ? 0.9 : first ? MAX_WIDTH.main : MAX_WIDTH.other);
    first = false;
    const half = (shape.width * fitted) / 2;
    let ground = 0;
    for (let x = Math.max(0, Math.round(cx - half * 0.6)); x <= Math.min(width - 1, Math.round(cx + half * 0.6)); x += 1) {
      ground = Math.max(ground, frontLine[x]!);
    }
    ground = Math.min(ground, waterline ?? height * 0.97);
    let base = ground;
    if (waterline !== undefined && (layer === 'water' || layer === 'span')) base = subject.kind === 'fish' ? waterline - 0.25 * fitted : waterline + 0.05 * fitted;
    // Keep the top inside the frame, with a little sky above it.
    const scale = Math.min(fitted, base - 0.05 * height);
    if (scale <= 0) continue;
    paint(pixels, shape, { cx, baseY: base, scale, flip: subject.flip }, plan);
  }
}
