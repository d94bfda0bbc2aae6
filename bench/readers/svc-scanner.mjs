// svc's reader of an image answer (src/api/images/blob-scanner.ts, built into dist/): the JSON
// read in 64 KiB pieces from a file, the base64 decoded piece by piece into the output file.
// Usage: node svc-scanner.mjs answer.json out.png
import { createReadStream, closeSync, openSync, writeSync } from 'node:fs';
import { BlobScanner } from '../../dist/api/images/blob-scanner.js';

const [answer, out] = process.argv.slice(2);
const fd = openSync(out, 'w');
const scanner = new BlobScanner(() => ({ write: (bytes) => writeSync(fd, bytes), end: () => {} }));
for await (const piece of createReadStream(answer, { highWaterMark: 64 * 1024 })) scanner.push(piece);
scanner.end();
closeSync(fd);
