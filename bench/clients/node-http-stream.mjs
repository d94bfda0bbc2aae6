// The floor of the stream case: node:http POSTs and copies the answer's bytes to stdout, with no
// parsing at all. Whatever svc does beyond this (SSE, JSON, assembling, writing the text) is its cost.
import { request } from 'node:http';

const url = new URL('/v1/chat/completions', process.env.SVC_BASE_URL);
const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.SVC_API_KEY ?? ''}` } }, (res) => res.pipe(process.stdout));
req.end('{}');
