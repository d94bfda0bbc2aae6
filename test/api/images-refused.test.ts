/**
 * A refusal of a message with images is told from the service's answer: schema complaints about
 * `content`, the part type, or words saying images are not supported. The service's own refusal
 * of a prompt ("Request contains disallowed content") is about the words and stays what it is.
 */
import { describe, expect, it } from 'vitest';
import { refusesImages } from '../../src/api/images-refused.js';
import { ApiError } from '../../src/core/errors.js';

const answer = (status: number, serviceMessage: string): ApiError => new ApiError(serviceMessage, { status, serviceMessage, requestId: undefined });

describe('a refusal of images', () => {
  it.each([
    "Invalid type for 'messages[0].content': expected a string, but got an array instead.",
    'messages[1].content must be a string',
    "unknown variant `image_url`, expected `text`",
    'Image input is not supported by this model',
    'this model does not support images',
    "'content' must be a string",
  ])('%s', (message) => {
    expect(refusesImages(answer(400, message))).toBe(true);
  });

  it.each([
    'Request contains disallowed content',
    "the service's content filter withheld the reply",
    'model not found',
  ])('not: %s', (message) => {
    expect(refusesImages(answer(400, message))).toBe(false);
  });

  it('only a 4xx: a server error naming content is not a refusal', () => {
    expect(refusesImages(answer(500, "Invalid type for 'messages[0].content'"))).toBe(false);
  });
});
