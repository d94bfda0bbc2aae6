import { describe, expect, it } from 'vitest';
import { endpointUrl } from '../../src/api/url.js';

describe('endpointUrl', () => {
  it.each([
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['https://api.example.com/ai', 'https://api.example.com/ai/v1/chat/completions'],
    ['https://api.example.com/ai/', 'https://api.example.com/ai/v1/chat/completions'],
    ['https://api.example.com/ai//', 'https://api.example.com/ai/v1/chat/completions'],
    ['https://api.example.com/v1', 'https://api.example.com/v1/chat/completions'],
    ['https://api.example.com/ai/v1/', 'https://api.example.com/ai/v1/chat/completions'],
    ['https://api.example.com/v10', 'https://api.example.com/v10/v1/chat/completions'],
  ])('%s → %s', (base, expected) => {
    expect(endpointUrl(base, 'chat/completions')).toBe(expected);
  });

  it('joins the image endpoint the same way', () => {
    expect(endpointUrl('https://h.example/p/', '/images/generations')).toBe('https://h.example/p/v1/images/generations');
  });
});
