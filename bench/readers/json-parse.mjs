// The naive reader: the whole answer read, JSON.parse, then Buffer.from(b64, 'base64') and a write.
// Usage: node json-parse.mjs answer.json out.png
import { createReadStream, writeFileSync } from 'node:fs';

const [answer, out] = process.argv.slice(2);
const pieces = [];
for await (const piece of createReadStream(answer, { highWaterMark: 64 * 1024 })) pieces.push(piece);
const value = JSON.parse(Buffer.concat(pieces).toString('utf8'));
writeFileSync(out, Buffer.from(value.data[0].b64_json, 'base64'));
