/**
 * `npm run bench:gateway`: the gateway's own costs, independent of the renderer.
 *   1. redirect and proxy throughput with 10 route rules against 10,000 (goal: ratio >= 0.9);
 *   2. the gateway hop against the upstream directly (goal: the hop costs at most 25%);
 *   3. a hashed client file (13 kB, brotli) answered by the gateway from its own client build,
 *      against a bare Fastify answering the same bytes from memory (goal: at least half of it; the
 *      rest is the edge every answer gets: security headers, request id, metrics, access line).
 * The upstream (a fixed HTML page of realistic size) and the gateway each run in a worker
 * thread of this process; autocannon runs on the main thread. Loopback only, bounded in time.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import { createFileBuildStore, type BuildMeta } from '@tern/shared/build-store';
import { createLogger } from '@tern/shared/logging/logger';
import { normalizeRouteRules, type RouteRulesInput } from '@tern/shared/route-rules/route-rules';
import { load, printTable, ratio, type LoadResult } from './support/load.js';
import { DEFAULT_ASSETS_PREFIX } from '@tern/shared/url-space/assets-prefix';
import { latestBuildPath } from '@tern/shared/url-space/build-files';

type Role = { role: 'upstream'; asset: Uint8Array } | { role: 'gateway'; upstreamUrl: string; storeDir: string; clientDir: string };

/**
 * A chunk's name, and bytes about the size of the site's entry chunk as served (brotli). Text, not
 * random bytes: autocannon reads random binary bodies at a fifth of the speed, and then measures itself.
 */
const ASSET = { name: 'vendor-Bench123.js', br: Buffer.from('export const chunk = [1, 2, 3];\n'.repeat(420)) };

/** About the size of a server-rendered category page (~40 kB). */
function page(): string {
  const recipe = (i: number) =>
    `<article class="recipe"><h2>Recipe ${i}</h2><p>${'Step by step, with a code block and notes. '.repeat(12)}</p><pre><code>${'const x = await fetch(url);\n'.repeat(8)}</code></pre></article>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Category</title></head><body><div id="root"><main>${Array.from({ length: 40 }, (_, i) => recipe(i)).join('')}</main></div></body></html>`;
}

async function runUpstream(asset: Uint8Array): Promise<string> {
  const html = page();
  const body = Buffer.from(asset);
  const app = Fastify();
  app.get('/asset', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('content-encoding', 'br')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(body),
  );
  app.get('/*', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function runGateway(upstreamUrl: string, storeDir: string, clientDir: string): Promise<string> {
  const { buildGatewayApp } = await import('@tern/gateway/app');
  const { parseGatewayConfig } = await import('@tern/gateway/config');
  const urls = { RENDERER_URL: upstreamUrl, IMAGE_URL: upstreamUrl, ICONS_URL: upstreamUrl };
  const config = parseGatewayConfig({
    ...urls,
    BUILD_STORE_DIR: storeDir,
    CLIENT_DIR: clientDir,
    NODE_ENV: 'production',
    BUILD_POLL_MS: '200',
  });
  const { app } = await buildGatewayApp(config, { logger: createLogger({ service: 'gateway', level: 'warn', format: 'json' }) });
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** `count` rules of every kind: exact redirects, dynamic and wildcard header rules. */
function rules(count: number): RouteRulesInput {
  const out: RouteRulesInput = { '/category/:id': { headers: { 'x-rule': 'category' } } };
  for (let i = 0; i < count - 1; i++) {
    const kind = i % 3;
    if (kind === 0) out[`/r${i}/old`] = { redirect: { to: `/r${i}/new`, statusCode: 301 } };
    else if (kind === 1) out[`/d${i}/:slug/edit`] = { headers: { 'x-d': String(i) } };
    else out[`/w${i}/**`] = { robots: false };
  }
  return out;
}

function startWorker(data: Role): Promise<{ url: string; worker: Worker }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  return new Promise((resolve, reject) => {
    worker.once('message', (url: string) => resolve({ url, worker }));
    worker.once('error', reject);
  });
}

/** A gateway worker whose store already holds a build with `count` rules. */
async function gatewayWith(count: number, upstreamUrl: string): Promise<{ url: string; worker: Worker; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-gateway-'));
  const meta: BuildMeta = { id: `rules-${count}`, timestamp: Date.now(), matcher: normalizeRouteRules(rules(count)), prerendered: [] };
  await createFileBuildStore({ dir }).publish(meta);
  const clientDir = join(dir, 'client');
  await mkdir(clientDir);
  await writeFile(join(clientDir, ASSET.name), 'the plain file, never sent: the client takes br');
  await writeFile(join(clientDir, `${ASSET.name}.br`), ASSET.br);
  const started = await startWorker({ role: 'gateway', upstreamUrl, storeDir: dir, clientDir });
  const latest = (await (await fetch(`${started.url}${latestBuildPath(DEFAULT_ASSETS_PREFIX)}`)).json()) as { id?: string };
  if (latest.id !== meta.id) throw new Error(`the gateway did not load build ${meta.id}`);
  return { ...started, dir };
}

interface Paired {
  a: LoadResult;
  b: LoadResult;
  /** The median over rounds of b / a, each round's two runs back to back. */
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs a and b back to back for several rounds, alternating which goes first, and takes the
 * median of the per-round ratios: a burst of background load then spoils one round, not the result.
 */
async function paired(
  a: [label: string, url: string],
  b: [label: string, url: string],
  rounds: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<Paired> {
  const runs: Array<[LoadResult, LoadResult]> = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? a : b;
    const second = round % 2 === 0 ? b : a;
    const r1 = await load(first[0], first[1], { durationSeconds: seconds, headers });
    const r2 = await load(second[0], second[1], { durationSeconds: seconds, headers });
    runs.push(round % 2 === 0 ? [r1, r2] : [r2, r1]);
  }
  const mean = (pick: (pair: [LoadResult, LoadResult]) => LoadResult): LoadResult => {
    const all = runs.map(pick);
    return {
      label: all[0]!.label,
      requestsPerSecond: all.reduce((sum, r) => sum + r.requestsPerSecond, 0) / all.length,
      total: all.reduce((sum, r) => sum + r.total, 0),
      p50Ms: median(all.map((r) => r.p50Ms)),
      p99Ms: median(all.map((r) => r.p99Ms)),
      errors: all.reduce((sum, r) => sum + r.errors, 0),
      non2xx: all.reduce((sum, r) => sum + r.non2xx, 0),
    };
  };
  return {
    a: mean((pair) => pair[0]),
    b: mean((pair) => pair[1]),
    ratio: median(runs.map(([x, y]) => y.requestsPerSecond / x.requestsPerSecond)),
  };
}

function report(name: string, result: Paired, goal: number): void {
  ratio(name, result.ratio, 1, { atLeast: goal });
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 2);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const upstream = await startWorker({ role: 'upstream', asset: ASSET.br });
  const few = await gatewayWith(10, upstream.url);
  const many = await gatewayWith(10_000, upstream.url);
  try {
    const redirectPath = '/r0/old';
    const proxyPath = '/category/rust';
    for (const url of [few.url, many.url]) await load('warm-up', `${url}${proxyPath}`, { durationSeconds: 1 });
    const redirects = await paired(
      ['redirect, 10 rules', `${few.url}${redirectPath}`],
      ['redirect, 10,000 rules', `${many.url}${redirectPath}`],
      rounds,
      seconds,
    );
    const proxies = await paired(
      ['proxy, 10 rules', `${few.url}${proxyPath}`],
      ['proxy, 10,000 rules', `${many.url}${proxyPath}`],
      rounds,
      seconds,
    );
    const hop = await paired(
      ['upstream direct', `${upstream.url}${proxyPath}`],
      ['through the gateway', `${few.url}${proxyPath}`],
      rounds,
      seconds,
    );
    const assets = await paired(
      ['asset, bare Fastify from memory', `${upstream.url}/asset`],
      ['asset, gateway (own client build)', `${few.url}/_nuxt/${ASSET.name}`],
      rounds,
      seconds,
      { 'accept-encoding': 'gzip, deflate, br' },
    );
    printTable([redirects.a, redirects.b, proxies.a, proxies.b, hop.a, hop.b, assets.a, assets.b]);
    report('redirect throughput, 10,000 rules / 10 rules (median of rounds)', redirects, 0.9);
    report('proxy throughput, 10,000 rules / 10 rules (median of rounds)', proxies, 0.9);
    report('gateway hop / upstream direct throughput, static page upstream (median of rounds)', hop, 0.75);
    report('hashed client file: gateway / bare Fastify from memory (median of rounds)', assets, 0.5);
    const direct = hop.a;
    const through = hop.b;
    const addedUs = (1 / through.requestsPerSecond - 1 / direct.requestsPerSecond) * 1e6;
    console.log(
      `gateway hop: about ${Math.round(addedUs)} us of machine time added per request (2 cores shared by client, gateway and upstream)`,
    );
  } finally {
    await Promise.all([upstream.worker.terminate(), few.worker.terminate(), many.worker.terminate()]);
    await Promise.all([few.dir, many.dir].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

if (isMainThread) {
  await main();
} else {
  const data = workerData as Role;
  const url = data.role === 'upstream' ? await runUpstream(data.asset) : await runGateway(data.upstreamUrl, data.storeDir, data.clientDir);
  parentPort!.postMessage(url);
}
