/**
 * `npm run bench:renderer`: the category page (/category/git), all measured in one run:
 *   - the bare limit: React renderToString of the same tree and document (bench/renderer-bare.ts);
 *   - the renderer directly, and through the gateway (the local stack, production mode);
 *   - the same page as a Next.js 16 app under `next start` (bench/renderer-next.ts), when it installs.
 * Goals (issue #4): renderer >= 0.5x the bare limit; through the gateway >= 10x Next.js.
 * The targets run interleaved (BENCH_ROUNDS rounds of BENCH_SECONDS each, order rotated) and each
 * ratio is the median of its per-round ratios, so background load on a shared box skews less.
 */
import { Worker } from 'node:worker_threads';
import { startLocalStack } from '../scripts/local-stack.js';
import { startNextApp, type NextApp } from './renderer-next.js';
import { load, printTable, ratio } from './support/load.js';
import { interleaved } from './support/rounds.js';

const PATH = '/category/git';
const headers = { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' };

function startBareWorker(): Promise<{ url: string; worker: Worker }> {
  // Production React, as the renderer runs it: the development build is several times slower.
  const env = { ...process.env, NODE_ENV: 'production' };
  const worker = new Worker(new URL('./renderer-bare.js', import.meta.url), { workerData: { path: PATH }, env });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { url?: string; error?: string }) =>
      message.url ? resolve({ url: message.url, worker }) : reject(new Error(message.error)),
    );
    worker.once('error', reject);
  });
}

async function bytes(url: string): Promise<number> {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

const stack = await startLocalStack({ env: { LOG_LEVEL: 'warn', NODE_ENV: 'production' } });
const bare = await startBareWorker();
let next: NextApp | null = null;
try {
  next = await startNextApp();
} catch (error) {
  console.log(`Next.js part skipped: ${(error as Error).message}`);
}
try {
  const urls: [string, string][] = [
    ['bare renderToString', `${bare.url}${PATH}`],
    ['renderer direct', `${stack.serviceUrl('renderer')}${PATH}`],
    ['through the gateway', `${stack.url}${PATH}`],
    ...(next ? [[`Next.js ${next.version} (next start)`, `${next.url}${PATH}`] as [string, string]] : []),
  ];
  for (const [label, url] of urls) console.log(`${label}: ${await bytes(url)} bytes`);
  for (const [label, url] of urls) await load(`${label} (warm-up)`, url, { durationSeconds: 2, headers });
  const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const run = await interleaved(
    urls.map(([label, url]) => ({ label, url })),
    { rounds, seconds, headers },
  );
  printTable(run.results);
  const BARE = 0,
    DIRECT = 1,
    GATEWAY = 2,
    NEXT = 3; // indexes into urls
  console.log(`ratios: median of ${rounds} interleaved rounds of ${seconds} s`);
  ratio('renderer direct / bare renderToString', run.ratio(DIRECT, BARE), 1, { atLeast: 0.5 });
  ratio('through the gateway / renderer direct', run.ratio(GATEWAY, DIRECT), 1, { atLeast: 0.75 });
  if (next) {
    ratio('through the gateway / Next.js', run.ratio(GATEWAY, NEXT), 1, { atLeast: 10 });
    ratio('renderer direct / Next.js', run.ratio(DIRECT, NEXT), 1);
  }
} finally {
  next?.stop();
  await bare.worker.terminate();
  await stack.stop();
}
