/**
 * The headers of every request svc sends, in one place: the client sends them, and `--dry-run`
 * prints them, so the printed curl command is the request svc would have made.
 */
export function requestHeaders(apiKey: string, userAgent: string): Record<string, string> {
  return {
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'user-agent': userAgent,
  };
}
