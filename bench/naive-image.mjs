// The naive client svc is measured against: read the whole answer, JSON.parse it, decode the
// base64 with Buffer.from and write the file (what a script using fetch, or the openai package
// plus Buffer.from, does).
import { writeFileSync } from 'node:fs';
const [url, key, out] = process.argv.slice(2);
const response = await fetch(`${url}/v1/images/generations`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ prompt: 'bench', model: 'svc-vision' }),
});
const answer = JSON.parse(await response.text());
writeFileSync(out, Buffer.from(answer.data[0].b64_json, 'base64'));
