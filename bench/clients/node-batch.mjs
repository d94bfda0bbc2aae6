// The floor for svc batch: a minimal Node client doing the same work with nothing else — the
// input read whole, N requests in flight on node:http keep-alive connections, each answer written
// as a line. No validation, no retries, no resume, no images.
// Usage: node node-batch.mjs <input.jsonl> <output.jsonl> <concurrency>
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [input, output, concurrency] = process.argv.slice(2);
const url = new URL('/v1/chat/completions', process.env.SVC_BASE_URL);
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const lines = readFileSync(input, 'utf8').split('\n').filter(Boolean);
const out = [];
let next = 0;

function post(line) {
  const { custom_id: customId, body } = JSON.parse(line);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${process.env.SVC_API_KEY}`, 'content-type': 'application/json' } }, (res) => {
      const pieces = [];
      res.on('data', (piece) => pieces.push(piece));
      res.on('end', () => {
        out.push(JSON.stringify({ custom_id: customId, response: { status_code: res.statusCode, body: JSON.parse(Buffer.concat(pieces).toString()) } }));
        resolve();
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function worker() {
  while (next < lines.length) await post(lines[next++]);
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
writeFileSync(output, `${out.join('\n')}\n`);
agent.destroy();
