// A bench-only image service on 127.0.0.1: answers every POST with one PNG-headed image of
// SIZE_MIB mebibytes as base64 JSON, written in 64 KiB pieces like a real server would.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

export function startImageServer(sizeMiB) {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452000005400000002f', 'hex');
  const image = Buffer.concat([header, randomBytes(sizeMiB * 1024 * 1024 - header.length)]);
  const body = Buffer.from(JSON.stringify({ created: 1, data: [{ b64_json: image.toString('base64'), revised_prompt: 'bench' }], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      for (let i = 0; i < body.length; i += 65536) {
        if (!res.write(body.subarray(i, i + 65536))) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close(), bytes: image.length })));
}
