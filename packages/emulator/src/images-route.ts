/**
 * The image generation endpoint, `POST /v1/images/generations` (docs/service-api.md, "Images"):
 * one image per request, the scene extras/scenes/ plans and draws for the prompt and seed, encoded
 * for real (core/images/) in the requested aspect ratio and format, with the OpenAI fields of
 * extras/openai/.
 */
import { assertAllowed } from './core/blacklist.js';
import { encodeImage } from './core/images/encode.js';
import { createSerialQueue } from './core/images/serial.js';
import { IMAGE_SIZES } from './core/images/sizes.js';
import { modelNotFound } from './core/errors.js';
import { sendJson } from './core/http.js';
import { isImageModel } from './core/models.js';
import type { Route } from './core/router.js';
import { countTokens } from './core/tokenizer.js';
import { parseImageRequest } from './extras/openai/image-request.js';
import { randomSeed } from './extras/random.js';
import { drawScene } from './extras/scenes/draw.js';
import { planScene } from './extras/scenes/plan.js';
import { revisePrompt } from './extras/scenes/revise.js';

/**
 * One image at a time for the whole process: drawing and encoding take up to a few tenths of a
 * second, partly synchronous (the JPEG and WebP encoders), and queueing keeps that work from piling
 * up when requests arrive together. Other requests are served between the steps of a job.
 */
const renderQueue = createSerialQueue();

/**
 * Validates the request (400), checks the model (404) and the blacklist on the prompt (400), then
 * draws, encodes and answers with `{created, data, usage}`.
 *
 * The negative prompt is not checked against the blacklist. The blacklist exists to refuse
 * requests for harmful content (docs/service-api.md, "Images" and "Errors", speak of the prompt);
 * the negative prompt only names what must NOT appear, and here it can only take elements out of
 * the scene (extras/scenes/plan.ts), so `--negative "no pipe bomb"` asks for less of the very
 * thing the blacklist guards against. Refusing it would block a careful user and protect no one.
 *
 * Without a seed a random one is drawn, so repeated requests give different images, as a real
 * model's do. Usage counts the text sent in (prompt and negative prompt); an image has no
 * completion tokens.
 */
export const imageGenerationsRoute: Route = {
  method: 'POST',
  path: '/v1/images/generations',
  api: true,
  async handle({ body, req, res, config, signal }) {
    const request = parseImageRequest(body);
    if (!isImageModel(request.model)) throw modelNotFound(request.model);
    assertAllowed(config.blacklist, [request.prompt]);

    // n images, each with the next seed, so each can be made again alone.
    const first = request.seed ?? randomSeed();
    const { width, height } = IMAGE_SIZES[request.aspectRatio];
    const data: object[] = [];
    for (let index = 0; index < request.n; index++) {
      const seed = first + index;
      const plan = planScene(request.prompt, seed, request.negativePrompt);
      const revised = revisePrompt(request.prompt, seed, plan, request.negativePrompt);
      const image = await renderQueue.run(async () => {
        // A client that gave up while waiting in the queue costs nothing.
        if (signal.aborted) return undefined;
        return encodeImage(await drawScene(plan, width, height), request.outputFormat, request.compression);
      });
      if (image === undefined || signal.aborted) return;
      data.push(
        request.responseFormat === 'url'
          ? { url: `http://${req.headers.host ?? '127.0.0.1'}${config.images.add(image, request.outputFormat)}`, revised_prompt: revised }
          : { b64_json: image.toString('base64'), revised_prompt: revised },
      );
    }

    const promptTokens = countTokens(request.prompt) + countTokens(request.negativePrompt ?? '');
    sendJson(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data,
      usage: { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens },
    });
  },
};
