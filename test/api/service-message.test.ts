import { describe, expect, it } from 'vitest';
import { extractServiceMessage } from '../../src/api/service-message.js';

describe('extractServiceMessage', () => {
  it.each([
    ['OpenAI shape', '{"error":{"message":"Invalid key","type":"invalid_request_error","code":"invalid_api_key"}}', 'Invalid key', 'invalid_api_key'],
    ['error as a string', '{"error":"quota exceeded"}', 'quota exceeded', undefined],
    ['message', '{"message":"Bad things"}', 'Bad things', undefined],
    ['detail', '{"detail":"Not authenticated"}', 'Not authenticated', undefined],
    ['FastAPI detail list', '{"detail":[{"msg":"field required"}]}', 'field required', undefined],
    ['errors[0].message', '{"errors":[{"message":"first"},{"message":"second"}]}', 'first', undefined],
    ['title (RFC 9457)', '{"title":"Too Many Requests","status":429}', 'Too Many Requests', undefined],
    ['error.message wins over message', '{"message":"outer","error":{"message":"inner"}}', 'inner', undefined],
    ['error string wins over detail', '{"detail":"d","error":"e"}', 'e', undefined],
    ['error.type used as code', '{"error":{"message":"m","type":"server_error"}}', 'm', 'server_error'],
  ])('%s', (_name, body, message, code) => {
    const result = extractServiceMessage(body, 'application/json');
    expect(result.message).toBe(message);
    expect(result.code).toBe(code);
    expect(result.fromHtml).toBe(false);
  });

  it('an HTML page gives its title, never the page', () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway &amp; more</title></head><body><script>x()</script></body></html>';
    const result = extractServiceMessage(page, 'text/html');
    expect(result).toEqual({ message: '502 Bad Gateway & more', code: undefined, fromHtml: true });
  });

  it('HTML is recognised without a content type', () => {
    expect(extractServiceMessage('<html><body>no title</body></html>', undefined)).toEqual({ message: 'an HTML page', code: undefined, fromHtml: true });
  });

  it('other text is cut to 300 characters', () => {
    const result = extractServiceMessage('x'.repeat(1000), 'text/plain');
    expect(result.message).toBe(`${'x'.repeat(300)}…`);
  });

  it('JSON without a known field falls back to the text', () => {
    expect(extractServiceMessage('{"oops":1}', 'application/json').message).toBe('{"oops":1}');
  });

  it('an empty body has no message', () => {
    expect(extractServiceMessage('  ', 'application/json').message).toBeUndefined();
  });
});
