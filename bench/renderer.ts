/**
 * `npm run bench:renderer`: the category page (/category/git), all measured in one run:
 *   - the bare limit: React renderToString of the same tree and document (bench/renderer-bare.ts);
 *   - the renderer directly, and through the gateway (the local stack, production mode);
 *   - the same page as a Next.js 16 app under `next start` (bench/renderer-next.ts), when it installs.
 * Goals (issue #4): renderer >= 0.5x the bare limit; through the gateway >= 10x Next.js.
 */
import { Worker } from 'node:worker_threads';
import { startLocalStack } from '../scripts/local-stack.js';
import { startNextApp, type NextApp } from './renderer-next.js';
import { load, printTable, ratio, type LoadResult } from './support/load.js';

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

async function measure(label: string, url: string): Promise<LoadResult> {
  await load(`${label} (warm-up)`, url, { durationSeconds: 2, headers });
  return load(label, url, { headers });
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
  const results: LoadResult[] = [];
  for (const [label, url] of urls) results.push(await measure(label, url));
  printTable(results);
  const [limit, direct, gateway, nextResult] = results as [LoadResult, LoadResult, LoadResult, LoadResult | undefined];
  ratio('renderer direct / bare renderToString', direct.requestsPerSecond, limit.requestsPerSecond, { atLeast: 0.5 });
  ratio('through the gateway / renderer direct', gateway.requestsPerSecond, direct.requestsPerSecond);
  if (nextResult) {
    ratio('through the gateway / Next.js', gateway.requestsPerSecond, nextResult.requestsPerSecond, { atLeast: 10 });
    ratio('renderer direct / Next.js', direct.requestsPerSecond, nextResult.requestsPerSecond);
  }
} finally {
  next?.stop();
  await bare.worker.terminate();
  await stack.stop();
}
