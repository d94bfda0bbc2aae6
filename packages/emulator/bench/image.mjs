#!/usr/bin/env node
// How long the emulator takes to make one image, in one process: the scene plan, the drawing and
// the encoding, for a few prompts at 16:9 (1344×756), median of several runs after a warm-up.
// `npm run bench` here (it builds dist/ first), or `node bench/image.mjs [--runs N] [--format png|jpeg|webp]`
// after a build. svc's benchmarks (bench/run.mjs at the top of the repository) hold the budget
// for drawing a megapixel, through this package's @svc/emulator/images.
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, format: { type: 'string', default: 'png' } } });
const runs = Number(values.runs);
const { planScene, drawScene, encodeImage, IMAGE_SIZES } = await import('../dist/images.js');

const prompts = ['a lighthouse at dusk', 'a cat on a sunny day', 'a castle on a mountain at night', 'rolling hills by a lake'];
const { width, height } = IMAGE_SIZES['16:9'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`| prompt | draw ms | encode (${values.format}) ms | total ms |`);
console.log('|---|---|---|---|');
for (const prompt of prompts) {
  const draw = [];
  const encode = [];
  for (let run = -2; run < runs; run += 1) {
    const start = performance.now();
    const pixels = await drawScene(planScene(prompt, 7 + run), width, height);
    const drawn = performance.now();
    await encodeImage(pixels, values.format);
    const end = performance.now();
    if (run < 0) continue; // warm-up
    draw.push(drawn - start);
    encode.push(end - drawn);
  }
  const [d, e] = [median(draw), median(encode)];
  console.log(`| ${prompt} | ${d.toFixed(1)} | ${e.toFixed(1)} | ${(d + e).toFixed(1)} |`);
}
