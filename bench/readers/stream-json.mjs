// stream-json (the well-kept streaming JSON parser) reading the same answer: its token stream,
// with the base64 of `b64_json` decoded piece by piece into the output file as svc does.
// Usage: node stream-json.mjs answer.json out.png
import { createReadStream, closeSync, openSync, writeSync } from 'node:fs';
import chain from 'stream-chain';
import { parser } from 'stream-json';

const [answer, out] = process.argv.slice(2);
const fd = openSync(out, 'w');
let lastKey;
let inBlob = false;
let carry = '';
const pipeline = chain([createReadStream(answer, { highWaterMark: 64 * 1024 }), parser({ packKeys: true, streamKeys: false, packStrings: false, streamStrings: true, packValues: true, streamValues: false })]);
pipeline.on('data', (token) => {
  if (token.name === 'keyValue') lastKey = token.value;
  else if (token.name === 'startString' && lastKey === 'b64_json') inBlob = true;
  else if (token.name === 'stringChunk' && inBlob) {
    // Decode whole groups of four characters; keep the rest for the next piece.
    const text = carry + token.value;
    const whole = text.length - (text.length % 4);
    writeSync(fd, Buffer.from(text.slice(0, whole), 'base64'));
    carry = text.slice(whole);
  } else if (token.name === 'endString' && inBlob) {
    if (carry) writeSync(fd, Buffer.from(carry, 'base64'));
    inBlob = false;
    carry = '';
  }
});
await new Promise((resolve, reject) => pipeline.on('end', resolve).on('error', reject));
closeSync(fd);
