// Peak memory and wall time of `svc image` against the naive JSON.parse + Buffer.from client,
// side by side, on one large image. Usage: node bench/image-memory.mjs [MiB] [runs]
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startImageServer } from './image-server.mjs';

const sizeMiB = Number(process.argv[2] ?? 24);
const runs = Number(process.argv[3] ?? 5);
const svcBin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const naive = fileURLToPath(new URL('./naive-image.mjs', import.meta.url));
const server = await startImageServer(sizeMiB);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const env = { ...process.env, SVC_BASE_URL: server.url, SVC_API_KEY: 'bench-key', XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd') };

/** Max RSS (KiB) and elapsed seconds from GNU time's verbose report. */
// Asynchronous: the server lives in this process and must keep answering while a run waits.
async function measure(command, args) {
  const { stderr: report } = await promisify(execFile)('/usr/bin/time', ['-v', command, ...args], { env, cwd: dir, maxBuffer: 1 << 20 });
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)[1]);
  const [, m, s] = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\d+):([\d.]+)/.exec(report);
  return { rssMiB: rss / 1024, seconds: Number(m) * 60 + Number(s) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { svc: [], naive: [] };
let n = 0;
// Alternate the contenders so drift on a shared machine hits both alike.
for (let i = 0; i < runs; i++) {
  results.svc.push(await measure(process.execPath, [svcBin, 'image', 'bench', '-o', `svc-${n++}.png`]));
  results.naive.push(await measure(process.execPath, [naive, server.url, 'bench-key', join(dir, `naive-${n++}.png`)]));
}
server.close();
rmSync(dir, { recursive: true, force: true });
const row = (name) => ({
  name,
  rss: median(results[name].map((r) => r.rssMiB)),
  time: median(results[name].map((r) => r.seconds)),
});
const svc = row('svc');
const base = row('naive');
console.log(`image of ${sizeMiB} MiB (${(server.bytes * 4) / 3 / 1024 / 1024} MiB of base64), ${runs} runs each, medians`);
console.log(`svc image:            peak RSS ${svc.rss.toFixed(1)} MiB, wall ${svc.time.toFixed(2)} s`);
console.log(`JSON.parse+Buffer.from: peak RSS ${base.rss.toFixed(1)} MiB, wall ${base.time.toFixed(2)} s`);
console.log(`ratio svc/naive: memory ${(svc.rss / base.rss).toFixed(2)}, time ${(svc.time / base.time).toFixed(2)}`);
